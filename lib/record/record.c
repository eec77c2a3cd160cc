// SPDX-License-Identifier: MIT
/* pmc record's session: open sampling on a target, drain ring buffers into a perf.data file. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/log.h"
#include "core/opts.h"
#include "count/counting.h"
#include "event/evsel.h"
#include "perfdata/records.h"
#include "perfdata/synth.h"
#include "record/record.h"
#include "symbol/vdso.h"

/* The sink that counts and writes one drained record. */
static int record_sink(const void *p, size_t len, void *arg)
{
	struct pmc_record *rec = arg;
	const struct perf_event_header *h = p;
	struct pmc__record r;

	if (h->type == PERF_RECORD_SAMPLE)
		rec->nr_samples++;
	else if ((h->type == PERF_RECORD_LOST || h->type == PERF_RECORD_LOST_SAMPLES) &&
		 !pmc__record_decode(NULL, p, len, &r, NULL))
		rec->nr_lost += r.lost;
	pmc__hits_note(&rec->hits, p, len);
	return pmc__perfdata_writer_write(rec->w, p, len);
}

/* Writes the side-band records of what runs before sampling starts. */
static int synthesize(struct pmc_record *rec, const struct pmc_target *target)
{
	struct pmc__synth sy = {
		.attr = &rec->s->attrs[0],
		.id = rec->s->nr_ids[0] ? rec->s->ids[0][0] : 0,
		.sink = record_sink,
		.arg = rec,
	};
	bool kernel = false;
	int ret = 0;

	for (size_t i = 0; i < rec->s->nr_attrs; i++)
		kernel |= !rec->s->attrs[i].exclude_kernel;
	if (kernel)
		ret = pmc__synth_kernel_mmap(&sy);
	if (ret)
		return ret;
	/* A started command is held before exec: the kernel reports its exec and maps. */
	if (target->kind == PMC_TARGET_PID || target->kind == PMC_TARGET_SELF)
		ret = pmc__synth_process(&sy,
					 target->kind == PMC_TARGET_PID ? target->pid : getpid());
	else if (target->kind == PMC_TARGET_CPUS)
		ret = pmc__synth_all(&sy);
	return ret;
}

#define SAMPLE_LEAD (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID)

/* The attrs as opened (with their ids) and the header; the file itself is already open. */
static int open_writer(struct pmc_record *rec)
{
	struct pmc_sampling *s = rec->s;
	int ret = 0;

	for (size_t i = 0; !ret && i < s->nr_attrs; i++)
		ret = pmc__perfdata_writer_add_attr(rec->w, &s->attrs[i],
						    rec->evlist->entries[i]->name, s->ids[i],
						    s->nr_ids[i]);
	if (!ret)
		ret = pmc__record_tracepoints(rec);
	if (!ret && rec->opts.argc)
		ret = pmc__perfdata_writer_set_cmdline(rec->w, rec->opts.argc, rec->opts.argv);
	/* The vDSO's image, for its samples' names (symbol/vdso.h); without it they stay
	 * addresses, so a failure is said and the recording goes on. */
	if (!ret) {
		char id[PMC_BUILD_ID_HEX];
		int err = pmc__vdso_save(id);
		if (!err)
			err = pmc__perfdata_writer_add_build_id(rec->w, "[vdso]", id, false);
		else if (err != -ENOENT)
			pr_warn("cannot save the vDSO image (%s): its samples will stay "
				"unnamed\n",
				pmc_strerror(err));
	}
	/* The samples' objects are found by their ip and pid, which lead every layout pmc
	 * asks for (attr.c). */
	rec->hits.samples_ok = true;
	for (size_t i = 0; i < s->nr_attrs; i++)
		rec->hits.samples_ok &= (s->attrs[i].sample_type & SAMPLE_LEAD) == SAMPLE_LEAD;
	if (!ret)
		ret = pmc__perfdata_writer_begin(rec->w);
	return ret;
}

static int spawn(struct pmc_record *rec, const struct pmc_target *t)
{
	struct pmc_child_opts co = {.keep_fd = t->child_fd > 0 ? t->child_fd : -1,
				    .keep_fd_env = t->child_fd_env,
				    .stdout_to_stderr = !strcmp(rec->output, "-")};
	int ret = pmc__child_spawn(t->argv, &co, &rec->child);

	if (ret)
		return ret;
	rec->pidfd = (int)syscall(SYS_pidfd_open, rec->child->pid, 0);
	return 0;
}

static void sample_params(struct pmc_record *rec, const struct pmc_target *t,
			  struct pmc__sample_params *p)
{
	size_t pages = rec->opts.mmap_pages;

	if (!pages)
		pages = rec->dwarf ? 1024 : 256;
	*p = (struct pmc__sample_params){.attrs = rec->attrs,
					 .pid = -1,
					 .wake_fd = rec->pidfd,
					 .mmap_pages = pages,
					 .keep_fd = -1,
					 .period_jitter = rec->opts.period_jitter,
					 .seed = rec->opts.seed ? rec->opts.seed : 1};
	switch (t->kind) {
	case PMC_TARGET_COMMAND:
		p->pid = rec->child ? rec->child->pid : 0;
		if (rec->evlist->dry_run && !pmc__backend_spawns_for_sampling(rec->ops))
			p->pid = PMC__DRY_RUN_CHILD_PID;
		p->argv = t->argv;
		p->keep_fd = t->child_fd > 0 ? t->child_fd : -1;
		p->keep_fd_env = t->child_fd_env;
		p->stdout_to_stderr = !strcmp(rec->output, "-");
		p->child = &rec->child;
		p->inherit = !t->no_inherit;
		p->enable_on_exec = true;
		break;
	case PMC_TARGET_PID:
		p->pid = t->pid;
		p->inherit = true;
		p->all_threads = true;
		break;
	case PMC_TARGET_SELF:
		p->pid = 0;
		p->inherit = !t->no_inherit;
		break;
	case PMC_TARGET_CPUS:
		p->cpus = t->cpus;
		break;
	case PMC_TARGET_TID: /* refused by pmc_record__open() */
		break;
	}
}

static int do_dry_run(struct pmc_record *rec, const struct pmc_target *t)
{
	struct pmc__sample_params p;

	sample_params(rec, t, &p);
	return pmc__backend_sample_open(rec->ops, rec->evlist, &p, &rec->s);
}

static int do_open(struct pmc_record *rec, const struct pmc_target *t)
{
	struct pmc__sample_params p;
	int ret;

	if (!rec->ops || !pmc__backend_can_sample(rec->ops)) {
		pr_err("backend '%s' cannot sample\n",
		       rec->ops ? pmc__backend_name(rec->ops) : "?");
		return -PMC_E_UNSUPPORTED;
	}
	if (rec->evlist->dry_run && !pmc__backend_can_dry_run(rec->ops))
		return -EOPNOTSUPP;
	ret = pmc__record_build_attrs(rec);
	if (rec->evlist->dry_run) /* describe the calls only: no command, no file */
		return ret ? ret : do_dry_run(rec, t);
	/* The file first: an output that cannot be written fails before a command starts. */
	if (!ret)
		ret = pmc__perfdata_writer_new(rec->output, &rec->w);
	if (!ret && t->kind == PMC_TARGET_COMMAND && !pmc__backend_spawns_for_sampling(rec->ops))
		ret = spawn(rec, t);
	/*
	 * CPUs with a command (perf record -a -- cmd): the CPUs are sampled, the command only
	 * says when to stop. It is held before exec until sampling is enabled, so its exec and
	 * maps are recorded by the kernel.
	 */
	if (!ret && t->kind == PMC_TARGET_CPUS && t->argv && t->argv[0])
		ret = spawn(rec, t);
	if (ret)
		return ret;
	sample_params(rec, t, &p);
	ret = pmc__backend_sample_open(rec->ops, rec->evlist, &p, &rec->s);
	if (!ret && rec->child && rec->pidfd < 0)
		rec->pidfd = (int)syscall(SYS_pidfd_open, rec->child->pid, 0);
	if (ret)
		return ret;
	rec->s->ops = rec->ops;
	ret = open_writer(rec);
	return ret ? ret : synthesize(rec, t);
}

int pmc_record__open(struct pmc_evlist *evlist, const struct pmc_target *target,
		     const struct pmc_record_opts *opts, struct pmc_record **out)
{
	struct pmc_record *rec = calloc(1, sizeof(*rec));
	struct pmc_target t;
	int ret;

	if (!rec)
		return -ENOMEM;
	rec->pidfd = -1;
	rec->evlist = evlist;
	rec->ops = evlist->backend;
	/* The copies are complete: fields that an older caller's structs lack read as zero. */
	ret = target ? PMC_OPTS_COPY(pmc_target, &t, target, cpus) : -EINVAL;
	if (!ret)
		ret = PMC_OPTS_COPY(pmc_record_opts, &rec->opts, opts, sz);
	if (ret) {
		pmc_record__delete(rec);
		return ret;
	}
	if (t.kind == PMC_TARGET_TID) {
		pr_err("sampling threads by id is not supported: sample their process (-p)\n");
		pmc_record__delete(rec);
		return -EOPNOTSUPP;
	}
	rec->kind = t.kind;
	rec->argv0 = t.argv && t.argv[0] ? t.argv[0] : "the command";
	rec->output = strdup(rec->opts.output ? rec->opts.output : "perf.data");
	ret = rec->output ? do_open(rec, &t) : -ENOMEM;
	if (ret || evlist->dry_run) {
		pmc_record__delete(rec);
		if (!ret)
			*out = NULL;
		return ret;
	}
	*out = rec;
	return 0;
}

int pmc_record__start(struct pmc_record *rec)
{
	int exec_errno = 0, ret;

	rec->started = true;
	/* A COMMAND's events start at its exec (enable_on_exec); the others' start now. */
	if (rec->kind != PMC_TARGET_COMMAND) {
		ret = pmc__backend_sample_enable(rec->ops, rec->s);
		if (ret || !rec->child)
			return ret;
	}
	ret = pmc__child_start(rec->child, &exec_errno);
	if (ret == -PMC_E_EXEC)
		pr_err("cannot start '%s': %s\n", rec->argv0, strerror(exec_errno));
	return ret;
}

static bool child_exited(struct pmc_record *rec)
{
	struct pollfd p = {.fd = rec->pidfd, .events = POLLIN};
	siginfo_t si = {0};

	if (rec->s->target_exited)
		return true;
	if (rec->pidfd >= 0)
		return poll(&p, 1, 0) == 1;
	/*
	 * No pidfd (an old kernel): ask without reaping. A command's events also hang up when
	 * it exits, but CPU events do not, so their recording would never end otherwise.
	 */
	return !rec->child->reaped &&
	       !waitid(P_PID, (id_t)rec->child->pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
	       si.si_pid == rec->child->pid;
}

/* One drain of every buffer, closed by a FINISHED_ROUND so readers can sort by time. */
static int drain(struct pmc_record *rec)
{
	int n = pmc__backend_sample_drain(rec->ops, rec->s, record_sink, rec);

	if (n < 0)
		return n;
	if (n > 0)
		rec->nr_round++;
	return pmc__perfdata_writer_round(rec->w, n > 0);
}

int pmc_record__run(struct pmc_record *rec, int *status)
{
	int ret = 0;

	*status = 0;
	while (!ret) {
		ret = drain(rec);
		if (ret || rec->stop || (rec->child && child_exited(rec)))
			break;
		ret = pmc__backend_sample_poll(rec->ops, rec->s, 1000);
		if (ret == -EINTR)
			ret = 0;
	}
	pmc__backend_sample_disable(rec->ops, rec->s);
	if (!ret)
		ret = drain(rec);
	/*
	 * The recording cannot go on (its reader went away: -EPIPE): the command is ended
	 * (SIGTERM) rather than waited for, and its status reported as usual.
	 */
	if (ret && rec->child && !rec->child->reaped)
		kill(rec->child->pid, SIGTERM);
	if (rec->child) {
		int wret;
		while ((wret = pmc__child_wait(rec->child, status)) == -EINTR)
			;
		if (!ret)
			ret = wret;
	}
	return ret;
}

void pmc_record__stop(struct pmc_record *rec)
{
	rec->stop = 1;
}

int pmc_record__kill(struct pmc_record *rec, int sig)
{
	if (!rec->child || rec->child->reaped)
		return -ESRCH;
	return kill(rec->child->pid, sig) < 0 ? -errno : 0;
}

int pmc_record__finish(struct pmc_record *rec)
{
	/* The build ids of the objects with samples, and their copies (docs/sample-file.md). */
	int ret = pmc__hits_write(&rec->hits, rec->w, rec->opts.no_buildid_cache);

	if (!ret)
		ret = pmc__perfdata_writer_finish(rec->w);

	rec->finished = !ret;
	return ret;
}

void pmc_record__delete(struct pmc_record *rec)
{
	if (!rec)
		return;
	if (rec->s)
		pmc__backend_sample_close(rec->ops, rec->s);
	pmc__perfdata_writer_delete(rec->w);
	pmc__child_delete(rec->child);
	if (rec->pidfd >= 0)
		close(rec->pidfd);
	pmc__hits_free(&rec->hits);
	free(rec->attrs);
	free(rec->output);
	free(rec);
}

pid_t pmc_record__child_pid(const struct pmc_record *rec)
{
	return rec->child ? rec->child->pid : -1;
}

uint64_t pmc_record__nr_samples(const struct pmc_record *rec)
{
	return rec->nr_samples;
}

uint64_t pmc_record__nr_lost(const struct pmc_record *rec)
{
	return rec->nr_lost;
}

uint64_t pmc_record__bytes(const struct pmc_record *rec)
{
	return rec->w ? pmc__perfdata_writer_data_size(rec->w) : 0;
}

const char *pmc_record__output(const struct pmc_record *rec)
{
	return rec->output;
}
