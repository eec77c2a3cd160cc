// SPDX-License-Identifier: MIT
/* Opening and closing the perf backend's counters on a thread, command, process or CPUs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <pmc/caps.h>
#include <pmc/error.h>
#include "backend/perf/perf.h"
#include "core/cpulist.h"
#include "core/log.h"
#include "count/child.h"
#include "event/evsel.h"
#include "event/pmu.h"

#define READ_FORMAT (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* The units counters attach to: one thread, the threads of a process, or CPUs. */
static int setup_units(struct perf_counting *pc, const struct pmc_target *t)
{
	int n = pmc__perf_units_setup(pc, t); /* the modes of units.c */

	if (n)
		return n < 0 ? n : 0;
	n = 1;
	switch (t->kind) {
	case PMC_TARGET_CPUS:
		n = pmc__cpu_list(t->cpus, &pc->cpus, NULL, 0);
		if (n < 0)
			return n;
		pc->pids = calloc((size_t)n, sizeof(*pc->pids));
		if (!pc->pids)
			return -ENOMEM;
		for (int i = 0; i < n; i++)
			pc->pids[i] = -1;
		break;
	case PMC_TARGET_PID:
		n = pmc__perf_thread_list(t->pid, &pc->pids);
		if (n < 0)
			return n;
		break;
	default:
		pc->pids = calloc(1, sizeof(*pc->pids));
		if (!pc->pids)
			return -ENOMEM;
		pc->pids[0] = 0;
		if (t->kind == PMC_TARGET_COMMAND)
			pc->pids[0] = pc->base.child ? pc->base.child->pid : PMC__DRY_RUN_CHILD_PID;
		break;
	}
	if (!pc->cpus) {
		pc->cpus = malloc((size_t)n * sizeof(*pc->cpus));
		if (!pc->cpus)
			return -ENOMEM;
		for (int i = 0; i < n; i++)
			pc->cpus[i] = -1;
	}
	pc->nr_units = n;
	return 0;
}

static void setup_attr(struct perf_counting *pc, const struct pmc_evsel *ev,
		       struct perf_event_attr *a)
{
	const struct pmc_target *t = &pc->base.target;
	bool leader = ev->leader == ev;

	*a = ev->attr;
	a->size = sizeof(*a);
	a->read_format = READ_FORMAT;
	if (leader && pc->grouped[ev->idx])
		a->read_format |= PERF_FORMAT_GROUP;
	/* Members follow their leader's enable state. */
	a->disabled = leader;
	a->inherit =
		(t->kind == PMC_TARGET_COMMAND || t->kind == PMC_TARGET_SELF) && !t->no_inherit;
	a->enable_on_exec = leader && t->kind == PMC_TARGET_COMMAND && !t->start_disabled;
	/* Counting only: a sample period in the encoding is for pmc record. */
	a->sample_period = 0;
	a->freq = 0;
	if (pc->threads)
		pmc__perf_threads_attr(pc, ev, a);
	pmc__perf_uncore_attr(pc, ev, a);
}

/* A tracepoint's filter (pmc_evsel__set_filter(), tried then): fd, or -errno with fd closed. */
static int set_filter(int fd, const struct pmc_evsel *ev)
{
	int err;

	if (!ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ev->filter))
		return fd;
	err = -errno;
	pr_warn("the kernel refuses the filter '%s' of '%s': %s\n", ev->filter, ev->name,
		strerror(-err));
	close(fd);
	return err;
}

static int open_one(struct perf_counting *pc, struct pmc_evsel *ev)
{
	struct perf_event_attr a;

	if ((ev->attr.type == PERF_TYPE_TRACEPOINT || ev->attr.type == PERF_TYPE_SOFTWARE) &&
	    !pc->dry.fn)
		pmc__perf_pin(ev->attr.type, ev->attr.config); /* best effort: cheap closes */
	for (int u = 0; u < pc->nr_units; u++) {
		int group_fd = ev->leader == ev ? -1 : *perf_fd(pc, ev->leader->idx, u);
		int fd;

		if (!pmc__perf_uncore_opens(pc, ev, u))
			continue; /* another PMU's units: uncore events open on their cpumask */
		if (group_fd < 0 && ev->leader != ev)
			continue; /* a thread that ended before its leader opened */
		if (!pmc__pmu_cpu_in(ev->pmu, pc->cpus[u]))
			continue; /* a core PMU counts on its `cpus` only (docs/pmus.md) */
		setup_attr(pc, ev, &a);
		fd = pmc__perf_open_call(&pc->dry, &a, pc->pids[u], pc->cpus[u], group_fd,
					 pc->open_flags);
		if (fd == -EINVAL && (a.read_format & PERF_FORMAT_GROUP)) {
			/* Older kernels refuse group reads of inherited events: read one by one. */
			pc->grouped[ev->idx] = false;
			setup_attr(pc, ev, &a);
			fd = pmc__perf_event_open(&a, pc->pids[u], pc->cpus[u], group_fd,
						  pc->open_flags);
		}
		if (fd == -ESRCH && pc->skip_gone)
			continue;
		if (fd >= 0 && ev->filter && !pc->dry.fn && (fd = set_filter(fd, ev)) < 0)
			return fd; /* judged when set: nothing to learn from a refusal here */
		if (fd < 0) {
			pr_debug("opening '%s' on pid %d cpu %d failed: %d\n", ev->name,
				 (int)pc->pids[u], pc->cpus[u], fd);
			pmc__perf_judge_refusal(pc, ev, u, fd);
			return fd;
		}
		*perf_fd(pc, ev->idx, u) = fd;
	}
	return 0;
}

/*
 * The mmap page of a self-monitoring counter lets reads use rdpmc where allowed. Where the
 * kernel forbids user-space reads altogether (pmc__perf_machine()->rdpmc, probed once) no page is
 * mapped, so that reads go straight to read(2) without touching it.
 */
static void map_page(struct perf_counting *pc, size_t idx)
{
	void *p;

	if (pc->base.target.kind != PMC_TARGET_SELF || pc->nr_units != 1 || !pc->pages ||
	    pc->dry.fn || !pmc__perf_machine()->rdpmc)
		return;
	p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, *perf_fd(pc, idx, 0),
		 0);
	pc->pages[idx] = p == MAP_FAILED ? NULL : p;
}

static int alloc_state(struct perf_counting *pc, struct pmc_evlist *evlist)
{
	size_t nr = evlist->nr ? evlist->nr : 1;

	pc->fds = malloc(nr * (size_t)pc->nr_units * sizeof(*pc->fds));
	pc->grouped = calloc(nr, sizeof(*pc->grouped));
	pc->pages = calloc(nr, sizeof(*pc->pages));
	if (!pc->fds || !pc->grouped || !pc->pages)
		return -ENOMEM;
	memset(pc->fds, -1, nr * (size_t)pc->nr_units * sizeof(*pc->fds));
	pc->group_words = 3 + 1;
	for (size_t i = 0; i < evlist->nr; i++) {
		const struct pmc_evsel *ev = evlist->entries[i];

		/* Per thread of a command, each event writes its own exit records: no groups. */
		pc->grouped[i] = ev->leader == ev && ev->nr_members > 1 && !pc->threads;
		if (pc->grouped[i] && 3 + ev->nr_members > pc->group_words)
			pc->group_words = 3 + ev->nr_members;
	}
	pc->group_buf = calloc(pc->group_words, sizeof(*pc->group_buf));
	return pc->group_buf ? 0 : -ENOMEM;
}

/* A dry run's fds are placeholders, not the caller's to close. */
static void dry_run_forget(struct perf_counting *pc)
{
	size_t nr = pc->base.evlist->nr;

	for (size_t i = 0; pc->dry.fn && pc->fds && i < nr * (size_t)pc->nr_units; i++)
		pc->fds[i] = -1;
}

static int spawn(struct perf_counting *pc, const struct pmc_target *t)
{
	struct pmc_child_opts o = {.keep_fd = -1};

	/* t is pmc_evlist__open()'s complete copy: child_fd is 0 for callers that predate it. */
	if (t->child_fd > 0) {
		o.keep_fd = t->child_fd;
		o.keep_fd_env = t->child_fd_env;
	}
	return pmc__child_spawn(t->argv, &o, &pc->base.child);
}

int pmc__perf_open(struct pmc_evlist *evlist, const struct pmc_target *target, int pass,
		   struct pmc_counting **out)
{
	struct perf_counting *pc = calloc(1, sizeof(*pc));
	int err;

	if (!pc)
		return -ENOMEM;
	pmc__perf_dry_run_init(&pc->dry, evlist);
	err = pmc__counting_init(&pc->base, evlist, target, pass);
	if (!err && target->kind == PMC_TARGET_COMMAND && !pc->dry.fn)
		err = spawn(pc, target);
	pc->cgroup_fd = -1;
	if (!err)
		err = setup_units(pc, target);
	if (!err)
		err = pmc__perf_uncore_units(pc);
	if (!err)
		err = alloc_state(pc, evlist);
	if (!err && pmc__perf_units_kept(pc))
		err = pmc__perf_units_describe(pc);
	for (size_t i = 0; !err && i < evlist->nr; i++) {
		struct pmc_evsel *ev = evlist->entries[i];

		if (!pmc__counting_selects(&pc->base, ev))
			continue;
		err = open_one(pc, ev);
		pc->base.open[i] = !err;
		if (!err)
			map_page(pc, i);
	}
	if (!err && pc->threads && !pc->dry.fn)
		err = pmc__perf_threads_open(pc);
	if (err || pc->dry.fn) {
		dry_run_forget(pc);
		pmc__perf_close(&pc->base);
		return err;
	}
	*out = &pc->base;
	return 0;
}

int pmc__perf_start_child(struct pmc_counting *c)
{
	int exec_errno = 0;
	int err = pmc__perf_uncore_enable(to_perf(c)); /* system-wide: no exec enables them */

	if (!err)
		err = pmc__child_start(c->child, &exec_errno);
	if (err == -PMC_E_EXEC)
		pr_err("cannot run '%s': %s\n", c->target.argv[0], strerror(exec_errno));
	return err;
}

void pmc__perf_close(struct pmc_counting *c)
{
	struct perf_counting *pc = to_perf(c);
	size_t nr = c->evlist->nr;

	pmc__perf_threads_close(pc); /* its buffers first: they map some of the fds */
	pmc__perf_units_close(pc);
	for (size_t i = 0; pc->fds && i < nr * (size_t)pc->nr_units; i++)
		if (pc->fds[i] >= 0)
			close(pc->fds[i]);
	for (size_t i = 0; pc->pages && i < nr; i++)
		if (pc->pages[i])
			munmap(pc->pages[i], (size_t)sysconf(_SC_PAGESIZE));
	pmc__counting_fini(c);
	free(pc->fds);
	free(pc->grouped);
	free(pc->pages);
	free(pc->group_buf);
	free(pc->pids);
	free(pc->cpus);
	free(pc);
}
