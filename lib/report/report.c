// SPDX-License-Identifier: MIT
/*
 * pmc report: reading a sample file, replaying its records in time order through the
 * ordered-events queue (perfdata/ordered.h), side-band records (mmap, comm, fork) decoded by the
 * record codec (perfdata/records.h) into the machine's maps and threads, samples symbolized.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/log.h"
#include "core/opts.h"
#include "perfdata/records.h"
#include "report/report.h"
#include "symbol/buildid.h"
#include "symbol/vdso.h"

int pmc_report__new(const struct pmc_report_opts *opts, struct pmc_report **out)
{
	struct pmc_report *r = calloc(1, sizeof(*r));
	struct pmc__symtab_opts so = {0};
	int ret;

	if (!r)
		return -ENOMEM;
	ret = PMC_OPTS_COPY(pmc_report_opts, &r->opts, opts, sz);
	if (!ret)
		ret = pmc__report_parse_keys(r, r->opts.sort);
	/* The HTML page shows source lines and data addresses whatever the sort keys. */
	if (!ret && r->opts.html)
		r->want_srclines = r->want_data = true;
	so.srclines = r->want_srclines || r->opts.srclines;
	so.kallsyms = r->opts.kallsyms;
	so.no_demangle = r->opts.no_demangle;
	if (!ret)
		ret = pmc__symtab_new(&so, &r->st);
	if (!ret)
		ret = pmc__machine_new(r->st, &r->m);
	if (ret) {
		pmc_report__delete(r);
		return ret;
	}
	*out = r;
	return 0;
}

/*
 * An object's zero-initialised globals (.bss) past its file's last page are mapped
 * anonymously, right after the object's own data mapping: an address there is named from
 * that object's symbols (a global), when its segment's tail holds it. True when named.
 */
static bool bss_symbol(struct pmc_report *r, uint32_t pid, const struct pmc__map *anon,
		       struct rctx *c)
{
	/* As it was when the anonymous map was made: a later mprotect (RELRO) may have
	 * replaced the data mapping's record by one of its first pages. */
	const struct pmc__map *prev = pmc__machine_find(r->m, pid, anon->start - 1, anon->born);
	const struct pmc__symres *res;
	uint64_t vaddr;

	if (!prev || prev->end != anon->start || prev->dso->path[0] != '/' ||
	    pmc__dso_bss_vaddr(prev->dso, prev->pgoff + (c->daddr - prev->start), &vaddr))
		return false;
	res = pmc__dso_resolve(prev->dso, vaddr);
	if (!res || res->sym->unnamed)
		return false;
	c->ddso = prev->dso;
	c->dres = res;
	return true;
}

static void data_address(struct pmc_report *r, const struct pmc__sample *s, struct rctx *c)
{
	const struct pmc__map *map;
	uint64_t off, vaddr;

	c->data_src = s->data_src;
	c->weight = s->weight;
	if ((s->sample_type & PERF_SAMPLE_ADDR) && s->addr) {
		c->has_daddr = true;
		c->daddr = s->addr;
	} else if (!r->opts.no_reconstruct && !c->frame.kernel &&
		   (s->intr_regs_abi || s->user_regs_abi) &&
		   pmc__daddr_reconstruct(c->frame.dso, c->frame.res->addr, s, &c->daddr)) {
		c->has_daddr = c->reconstructed = true;
		r->nr_reconstructed++;
	}
	if (!c->has_daddr || !(map = pmc__machine_find(r->m, s->pid, c->daddr, s->time)))
		return;
	c->ddso = map->dso;
	if (!strcmp(map->dso->path, "//anon") && bss_symbol(r, s->pid, map, c))
		return;
	off = c->daddr - map->start + map->pgoff;
	/* Past the file's bytes in a data segment's last page: a global in .bss. */
	if (pmc__dso_bss_vaddr(map->dso, off, &vaddr))
		vaddr = pmc__dso_offset_to_vaddr(map->dso, off);
	c->dres = pmc__dso_resolve(map->dso, vaddr);
	/* An address outside any named object groups under its mapping instead. */
	if (c->dres && c->dres->sym->unnamed)
		c->dres = NULL;
}

static int on_sample(struct pmc_report *r, const struct pmc__perfdata_event *ev,
		     struct pmc_file_error *err)
{
	struct rframe frames[MAX_FRAMES];
	struct pmc__sample s;
	struct rctx c = {0};
	size_t n;
	int ret = pmc__perfdata_sample(r->f, ev, &s, err);

	if (ret)
		return ret;
	r->nr_samples++;
	c.thread = r->last_thread;
	if (!c.thread || c.thread->pid != s.pid || c.thread->tid != s.tid)
		c.thread = r->last_thread = pmc__machine_thread(r->m, s.pid, s.tid);
	n = pmc__report_frames(r, &s, frames);
	if (!c.thread || !n)
		return -ENOMEM;
	/* perf report --hide-unresolved: a sample no symbol holds is left out of the report. */
	if (r->opts.hide_unresolved && frames[0].res->sym->unnamed) {
		r->nr_hidden++;
		return 0;
	}
	/* A later COMM renames the thread; this sample keeps the name it ran under. */
	c.comm = c.thread->comm;
	c.frame = frames[0];
	c.rank = r->rank;
	if (r->want_data)
		data_address(r, &s, &c);
	if (r->branch_mode)
		return pmc__report_branch_sample(r, ev->attr_idx, &s, &c);
	return pmc__report_add(r, ev->attr_idx, &s, frames, n, &c);
}

/* A name for an event a file does not name (no EVENT_DESC): perf's generic names. */
static const char *event_name(const struct perf_event_attr *a)
{
	static const char *const sw[] = {
		"cpu-clock",	    "task-clock",	"page-faults",
		"context-switches", "cpu-migrations",	"minor-faults",
		"major-faults",	    "alignment-faults", "emulation-faults"};
	static const char *const hw[] = {"cycles",
					 "instructions",
					 "cache-references",
					 "cache-misses",
					 "branches",
					 "branch-misses",
					 "bus-cycles",
					 "stalled-cycles-frontend",
					 "stalled-cycles-backend",
					 "ref-cycles"};

	if (a->type == PERF_TYPE_SOFTWARE && a->config < sizeof(sw) / sizeof(sw[0]))
		return sw[a->config];
	if (a->type == PERF_TYPE_HARDWARE && a->config < sizeof(hw) / sizeof(hw[0]))
		return hw[a->config];
	return "event";
}

static bool is_kernel_path(const char *p)
{
	return !strncmp(p, "[kernel.kallsyms]", 17) || !strncmp(p, "[guest.kernel", 13);
}

/* A record's string (records.h: bounded by the record) copied into buf of len bytes. */
static const char *rec_string(const struct pmc__record *rec, char *buf, size_t len)
{
	size_t n = rec->str_len < len ? rec->str_len : len - 1;

	memcpy(buf, rec->str, n);
	buf[n] = 0;
	return buf;
}

/* path becomes the saved vDSO image's (symbol/vdso.h), when there is one. */
static void vdso_path(struct pmc_report *r, char *path, size_t len)
{
	const char *id = pmc__perfdata_vdso_build_id(r->f);
	char buf[4096];

	if (id && !pmc__vdso_cache_path(id, buf, sizeof(buf)) && !access(buf, R_OK) &&
	    strlen(buf) < len)
		strcpy(path, buf);
}

/*
 * An object whose build id the file names is read only if it is still that object, else
 * from a copy that is (symbol/buildid.h); with neither, its samples are marked.
 */
static void expect_build_id(struct pmc_report *r, const char *path)
{
	const char *want = pmc__perfdata_build_id(r->f, path);
	struct pmc__dso *d = want ? pmc__symtab_dso(r->st, path) : NULL;

	if (d)
		(void)pmc__dso_expect_build_id(d, want);
}

/* Kernel samples are named from the recorded kernel's symbols (symbol/buildid.h). */
static int expect_kernel(struct pmc_report *r)
{
	const char *want = pmc__perfdata_build_id(r->f, "[kernel.kallsyms]");

	return want && pmc__symtab_expect_kernel(r->st, want) == -ENOMEM ? -ENOMEM : 0;
}

/* Memory no file backs, as perf's is_anon_memory() names it. */
static bool is_anon_path(const char *path)
{
	return !strncmp(path, "//anon", 6) || !strncmp(path, "/dev/zero", 9) ||
	       !strncmp(path, "/anon_hugepage", 14);
}

static int on_mmap(struct pmc_report *r, const struct pmc__record *rec)
{
	uint64_t pgoff = rec->pgoff;
	char path[4096];

	rec_string(rec, path, sizeof(path));
	/* Kernel addresses are resolved with kallsyms, not through maps. */
	if (rec->pid == UINT32_MAX || is_kernel_path(path))
		return 0;
	/* The vDSO: the image pmc record saved, found by the build id the file names. */
	if (!strcmp(path, "[vdso]"))
		vdso_path(r, path, sizeof(path));
	else if (path[0] == '/')
		expect_build_id(r, path);
	/* Anonymous code is a JIT's: named by its /tmp/perf-PID.map, at absolute addresses
	 * (perf's map__new does the same). */
	if (!(rec->misc & PERF_RECORD_MISC_MMAP_DATA) && is_anon_path(path)) {
		snprintf(path, sizeof(path), "/tmp/perf-%u.map", rec->pid);
		pgoff = rec->start;
	}
	return pmc__machine_mmap(r->m, rec->pid, rec->start, rec->len, pgoff, path,
				 rec->has_sid ? rec->sid.time : 0);
}

/* A side-band record, decoded by the record codec (records.h), which checks its size. */
static int on_side_band(struct pmc_report *r, const struct pmc__perfdata_event *ev,
			struct pmc_file_error *err)
{
	struct pmc__record rec;
	char comm[64];
	int ret = pmc__perfdata_record(r->f, ev, &rec, err);

	if (ret)
		return ret;
	switch (rec.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return on_mmap(r, &rec);
	case PERF_RECORD_COMM:
		return pmc__machine_comm(
			r->m, rec.pid, rec.tid, rec_string(&rec, comm, sizeof(comm)),
			rec.misc & PERF_RECORD_MISC_COMM_EXEC, rec.has_sid ? rec.sid.time : 0);
	case PERF_RECORD_FORK:
		return pmc__machine_fork(r->m, rec.pid, rec.ppid, rec.tid, rec.ptid);
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		r->nr_lost += rec.lost;
		return 0;
	case PERF_RECORD_THROTTLE: /* its id names the event; UNTHROTTLE ends the pause */
		if (ev->attr_idx < r->nr_attrs)
			r->throttled[ev->attr_idx]++;
		return 0;
	}
	return 0;
}

static int on_event(void *arg, const struct pmc__perfdata_event *ev, struct pmc_file_error *err)
{
	struct pmc_report *r = arg;

	switch (ev->hdr->type) {
	case PERF_RECORD_SAMPLE:
		return on_sample(r, ev, err);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_THROTTLE:
		return on_side_band(r, ev, err);
	}
	return 0;
}

static int copy_attrs(struct pmc_report *r)
{
	size_t n = pmc__perfdata_nr_attrs(r->f);

	r->nr_attrs = n;
	r->attrs = calloc(n, sizeof(*r->attrs));
	r->names = calloc(n, sizeof(*r->names));
	r->total_period = calloc(n, sizeof(uint64_t));
	r->total_samples = calloc(n, sizeof(uint64_t));
	r->throttled = calloc(n, sizeof(uint64_t));
	if (!r->attrs || !r->names || !r->total_period || !r->total_samples || !r->throttled)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *name = pmc__perfdata_attr_name(r->f, i);
		r->attrs[i] = *pmc__perfdata_attr(r->f, i);
		r->names[i] = strdup(name && *name ? name : event_name(&r->attrs[i]));
		if (!r->names[i])
			return -ENOMEM;
		r->has_callchains |= !!(r->attrs[i].sample_type & PERF_SAMPLE_CALLCHAIN);
	}
	return 0;
}

int pmc_report__load(struct pmc_report *r, const char *path, struct pmc_file_error *err)
{
	struct pmc__perfdata_event ev;
	int ret;

	ret = pmc__report_next_file(r, path);
	if (!ret)
		ret = pmc__perfdata_open(path, &r->f, err);
	if (ret)
		return ret;
	pmc__ordered_free(&r->q);
	pmc__ordered_init(&r->q, r->f, on_event, r);
	ret = r->attrs ? pmc__report_check_events(r, err) : copy_attrs(r);
	if (!ret)
		ret = pmc__report_branch_check(r, err);
	r->ordered = false;
	for (size_t i = 0; !ret && i < r->nr_attrs; i++)
		r->ordered |= !!(pmc__perfdata_attr(r->f, i)->sample_type & PERF_SAMPLE_TIME);
	if (!ret)
		ret = expect_kernel(r);
	if (!ret && pmc__perfdata_was_interrupted(r->f))
		pr_warn("%s: the recording was interrupted; reading the data up to the end\n",
			path);
	/*
	 * Records replay in time order when they have times: per-CPU ring buffers are drained
	 * one after another, so a file holds a thread's samples before its FORK, COMM or MMAP.
	 */
	while (!ret && (ret = pmc__perfdata_next(r->f, &ev, err)) == 1)
		ret = r->ordered ? pmc__ordered_queue(&r->q, &ev, err) : on_event(r, &ev, err);
	if (!ret && r->ordered) {
		ret = pmc__ordered_drain(&r->q, err);
		if (r->q.nr_late)
			pr_warn("%s: %llu records are older than records already replayed (the "
				"file "
				"is not in time order within its rounds); they were replayed "
				"late\n",
				r->path ? r->path : "report", (unsigned long long)r->q.nr_late);
	}
	if (ret == -ENOMEM && err) {
		err->offset = 0;
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	}
	pmc__report_sort(r);
	return ret;
}

size_t pmc_report__nr_entries(const struct pmc_report *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr_ents; i++)
		n += pmc__report_visible(r, r->ents[i]);
	return n;
}

/* The entry's keys as text, made once. */
const char *pmc__report_entry_text(struct pmc_report *r, struct hent *e)
{
	char buf[2048];

	if (!e->text) {
		pmc__report_key_text(r, e, buf, sizeof(buf));
		e->text = strdup(buf);
	}
	return e->text ? e->text : "?";
}

int pmc_report__entry(struct pmc_report *r, size_t idx, struct pmc_report_entry *out)
{
	pmc__report_sort(r);
	for (size_t i = 0; i < r->nr_ents; i++) {
		struct hent *e = r->ents[i];
		double total;
		if (!pmc__report_visible(r, e) || idx--)
			continue;
		total = (double)(r->total_period[e->attr_idx] ? r->total_period[e->attr_idx] : 1);
		*out = (struct pmc_report_entry){
			.event_idx = e->attr_idx,
			.key = pmc__report_entry_text(r, e),
			.overhead = 100.0 * (double)e->period / total,
			.children = 100.0 * (double)e->children / total,
			.samples = e->samples,
			.period = e->period,
		};
		return 0;
	}
	return -ERANGE;
}

uint64_t pmc_report__nr_samples(const struct pmc_report *r)
{
	return r->nr_samples;
}

uint64_t pmc_report__nr_lost(const struct pmc_report *r)
{
	return r->nr_lost;
}

uint64_t pmc_report__nr_reconstructed(const struct pmc_report *r)
{
	return r->nr_reconstructed;
}

void pmc_report__delete(struct pmc_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_ents; i++) {
		free(r->ents[i]->callers);
		free(r->ents[i]->text);
		free(r->ents[i]);
	}
	pmc__report_stacks_free(r);
	for (size_t i = 0; r->names && i < r->nr_attrs; i++)
		free(r->names[i]);
	for (size_t i = 0; i < r->ip_hist.cap; i++)
		free(r->ip_hist.vals[i]);
	pmc__addrmap_free(&r->ip_hist);
	pmc__unwind_free(&r->unwind);
	pmc__report_frames_free(r);
	pmc__ordered_free(&r->q);
	pmc__addrmap_free(&r->hmap);
	pmc__report_dview_free(r);
	pmc__report_bblock_free(r);
	free(r->ents);
	free(r->seq);
	free(r->names);
	free(r->attrs);
	free(r->total_period);
	free(r->total_samples);
	free(r->throttled);
	pmc__report_settle_free(r);
	free(r->path);
	pmc__report_files_free(r);
	pmc__perfdata_close(r->f);
	pmc__machine_delete(r->m);
	pmc__symtab_delete(r->st);
	free(r);
}
