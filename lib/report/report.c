// SPDX-License-Identifier: MIT
/*
 * pmc report: reading a sample file, replaying its side-band records (mmap, comm, fork) in time
 * order through the ordered-events queue, symbolizing samples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/log.h"
#include "core/opts.h"
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

/* A record's string at body offset off, bounded by the record (the file may lie). */
static const char *rec_string(const struct perf_event_header *h, size_t off, char *buf, size_t len)
{
	size_t n;

	if (off >= h->size)
		return NULL;
	n = strnlen((const char *)h + off, h->size - off);
	if (n >= len)
		n = len - 1;
	memcpy(buf, (const char *)h + off, n);
	buf[n] = 0;
	return buf;
}

static uint64_t rec_time(struct pmc_report *r, const struct pmc__perfdata_event *ev)
{
	struct pmc__sample id;

	/* Without sample_id_all the record has no trailer: its last bytes are its own. */
	const struct perf_event_attr *a = pmc__perfdata_attr(r->f, ev->attr_idx);

	if (!a->sample_id_all)
		return 0;
	if (pmc__sample_decode_id(a, ev->hdr, ev->hdr->size, &id))
		return 0;
	return id.time;
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

static int on_mmap(struct pmc_report *r, const struct pmc__perfdata_event *ev, bool v2)
{
	const struct perf_event_header *h = ev->hdr;
	struct {
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
	} b;
	char path[4096];

	if (h->size < 8 + sizeof(b) + (v2 ? 32 : 0))
		return 0;
	memcpy(&b, (const uint8_t *)h + 8, sizeof(b));
	if (!rec_string(h, 8 + sizeof(b) + (v2 ? 32 : 0), path, sizeof(path)))
		return 0;
	/* Kernel addresses are resolved with kallsyms, not through maps. */
	if (b.pid == UINT32_MAX || is_kernel_path(path))
		return 0;
	/* The vDSO: the image pmc record saved, found by the build id the file names. */
	if (!strcmp(path, "[vdso]"))
		vdso_path(r, path, sizeof(path));
	else if (path[0] == '/')
		expect_build_id(r, path);
	/* Anonymous code is a JIT's: named by its /tmp/perf-PID.map, at absolute addresses
	 * (perf's map__new does the same). */
	if (!(h->misc & PERF_RECORD_MISC_MMAP_DATA) && is_anon_path(path)) {
		snprintf(path, sizeof(path), "/tmp/perf-%u.map", b.pid);
		b.pgoff = b.start;
	}
	return pmc__machine_mmap(r->m, b.pid, b.start, b.len, b.pgoff, path, rec_time(r, ev));
}

static int on_comm(struct pmc_report *r, const struct pmc__perfdata_event *ev)
{
	uint32_t ids[2];
	char comm[64];

	if (ev->hdr->size < 16 || !rec_string(ev->hdr, 16, comm, sizeof(comm)))
		return 0;
	memcpy(ids, (const uint8_t *)ev->hdr + 8, 8);
	return pmc__machine_comm(r->m, ids[0], ids[1], comm,
				 ev->hdr->misc & PERF_RECORD_MISC_COMM_EXEC, rec_time(r, ev));
}

static int on_fork(struct pmc_report *r, const struct pmc__perfdata_event *ev)
{
	uint32_t v[4];

	if (ev->hdr->size < 24)
		return 0;
	memcpy(v, (const uint8_t *)ev->hdr + 8, 16);
	return pmc__machine_fork(r->m, v[0], v[1], v[2], v[3]);
}

static int on_event(struct pmc_report *r, const struct pmc__perfdata_event *ev,
		    struct pmc_file_error *err)
{
	const struct perf_event_header *h = ev->hdr;
	uint64_t lost;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		return on_sample(r, ev, err);
	case PERF_RECORD_MMAP:
		return on_mmap(r, ev, false);
	case PERF_RECORD_MMAP2:
		return on_mmap(r, ev, true);
	case PERF_RECORD_COMM:
		return on_comm(r, ev);
	case PERF_RECORD_FORK:
		return on_fork(r, ev);
	case PERF_RECORD_LOST:
		if (h->size >= 24) {
			memcpy(&lost, (const uint8_t *)h + 16, 8);
			r->nr_lost += lost;
		}
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		if (h->size >= 16) {
			memcpy(&lost, (const uint8_t *)h + 8, 8);
			r->nr_lost += lost;
		}
		return 0;
	case PERF_RECORD_THROTTLE: /* its id names the event; UNTHROTTLE ends the pause */
		if (ev->attr_idx < r->nr_attrs)
			r->throttled[ev->attr_idx]++;
		return 0;
	}
	return 0;
}

/*
 * Without FINISHED_ROUND records the queue would hold the whole file; past this many
 * records the older half is replayed (perf's OE_FLUSH__HALF), bounding memory at the cost
 * of exact order for records delayed by more than half a window.
 */
#define QUEUE_MAX ((size_t)1 << 22)

/* The record's time, when it has one: samples with PERF_SAMPLE_TIME, side-band with a trailer. */
static bool record_time(const struct pmc_report *r, const struct pmc__perfdata_event *ev,
			uint64_t *time)
{
	const struct perf_event_attr *a = pmc__perfdata_attr(r->f, ev->attr_idx);
	struct pmc__sample id;
	size_t off;

	if (!(a->sample_type & PERF_SAMPLE_TIME))
		return false;
	if (ev->hdr->type != PERF_RECORD_SAMPLE) {
		if (!a->sample_id_all || pmc__sample_decode_id(a, ev->hdr, ev->hdr->size, &id))
			return false;
		*time = id.time;
		return true;
	}
	/* The time follows the identifier, ip and pid/tid words (docs/sample-file.md). */
	off = sizeof(struct perf_event_header) +
	      8 * (size_t)(!!(a->sample_type & PERF_SAMPLE_IDENTIFIER) +
			   !!(a->sample_type & PERF_SAMPLE_IP) +
			   !!(a->sample_type & PERF_SAMPLE_TID));
	if (off + 8 > ev->hdr->size)
		return false; /* a short sample: decoding it reports the fault */
	memcpy(time, (const uint8_t *)ev->hdr + off, 8);
	return true;
}

static bool before(const struct qent *a, const struct qent *b)
{
	return a->time < b->time || (a->time == b->time && a->offset < b->offset);
}

static size_t run_end(const struct qent *v, size_t i, size_t n)
{
	while (i + 1 < n && !before(&v[i + 1], &v[i]))
		i++;
	return i + 1;
}

static void merge(const struct qent *a, size_t na, const struct qent *b, size_t nb,
		  struct qent *out)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb)
		*out++ = before(&b[j], &a[i]) ? b[j++] : a[i++];
	memcpy(out, a + i, (na - i) * sizeof(*a));
	memcpy(out + (na - i), b + j, (nb - j) * sizeof(*b));
}

/*
 * A natural merge sort: a round holds one time-ordered run per ring buffer (plus what the
 * previous round left, already sorted), so a few linear passes sort it.
 */
static void sort_queue(struct rqueue *q)
{
	while (!q->sorted) {
		size_t i = 0, runs = 0;
		struct qent *t;
		while (i < q->nr) {
			size_t m = run_end(q->v, i, q->nr);
			size_t e = m < q->nr ? run_end(q->v, m, q->nr) : m;
			merge(q->v + i, m - i, q->v + m, e - m, q->tmp + i);
			i = e;
			runs++;
		}
		t = q->v;
		q->v = q->tmp;
		q->tmp = t;
		q->sorted = runs <= 1;
	}
}

/* Replays the queued records up to limit, in time order; later ones stay queued. */
static int flush(struct pmc_report *r, uint64_t limit, struct pmc_file_error *err)
{
	struct rqueue *q = &r->q;
	struct pmc__perfdata_event ev;
	size_t i;
	int ret = 0;

	if (!q->nr)
		return 0;
	sort_queue(q);
	for (i = 0; i < q->nr && q->v[i].time <= limit && !ret; i++) {
		pmc__perfdata_event_at(r->f, q->v[i].offset, q->v[i].attr_idx, &ev);
		ret = on_event(r, &ev, err);
		q->flushed = q->v[i].time;
	}
	memmove(q->v, q->v + i, (q->nr - i) * sizeof(*q->v));
	q->nr -= i;
	/* The reader holds what is still queued: of a -z file, in memory (pmc__perfdata_keep). */
	q->keep = UINT64_MAX;
	for (i = 0; i < q->nr; i++)
		q->keep = q->v[i].offset < q->keep ? q->v[i].offset : q->keep;
	pmc__perfdata_keep(r->f, q->keep);
	return ret;
}

/* The newest time among the records queued from before offset below. */
static uint64_t time_before(const struct rqueue *q, uint64_t below)
{
	uint64_t t = 0;

	for (size_t i = 0; i < q->nr; i++)
		if (q->v[i].offset < below && q->v[i].time > t)
			t = q->v[i].time;
	return t;
}

static int grow(struct rqueue *q)
{
	size_t n = q->alloc ? q->alloc * 2 : 4096;
	struct qent *v = realloc(q->v, n * sizeof(*v)), *t;

	if (!v)
		return -ENOMEM;
	q->v = v;
	t = realloc(q->tmp, n * sizeof(*t));
	if (!t)
		return -ENOMEM;
	q->tmp = t;
	q->alloc = n;
	return 0;
}

/*
 * perf's rule for FINISHED_ROUND: every record of the next round was written after this
 * round's drain began, so it is newer than everything the previous round held. What is
 * not newer than the previous round's newest time can be replayed now.
 */
static int finished_round(struct pmc_report *r, struct pmc_file_error *err)
{
	int ret = flush(r, r->q.next_flush, err);

	r->q.next_flush = r->q.round_max;
	return ret;
}

/* Queues a record (or acts on a FINISHED_ROUND). */
static int enqueue(struct pmc_report *r, const struct pmc__perfdata_event *ev,
		   struct pmc_file_error *err)
{
	struct rqueue *q = &r->q;
	struct qent e = {q->last_time, ev->offset, ev->attr_idx};

	if (ev->hdr->type == PERFDATA_RECORD_FINISHED_ROUND)
		return finished_round(r, err);
	/* perf's own record types (attrs, build ids, ...) carry no time and no state we replay. */
	if (ev->hdr->type >= PERFDATA_RECORD_HEADER_ATTR)
		return on_event(r, ev, err);
	/* A record without a time replays right after the record before it in the file. */
	if (record_time(r, ev, &e.time))
		q->last_time = e.time;
	if (e.time < q->flushed)
		q->nr_late++;
	if (e.time > q->round_max)
		q->round_max = e.time;
	if (q->nr == q->alloc && grow(q))
		return -ENOMEM;
	if (q->nr && before(&e, &q->v[q->nr - 1]))
		q->sorted = false;
	if (!q->nr)
		pmc__perfdata_keep(r->f, q->keep = e.offset);
	q->v[q->nr++] = e;
	/*
	 * A -z file's records are held in memory from the oldest queued (pmc__perfdata_hold_max):
	 * past that, what was queued before the last half is replayed.
	 */
	if (q->nr < QUEUE_MAX && e.offset - q->keep <= pmc__perfdata_hold_max(r->f))
		return 0;
	if (q->nr < QUEUE_MAX)
		return flush(r, time_before(q, e.offset - pmc__perfdata_hold_max(r->f) / 2), err);
	sort_queue(q);
	return flush(r, q->v[q->nr / 2].time, err);
}

/* Replays all that is left in the queue. */
static int drain(struct pmc_report *r, struct pmc_file_error *err)
{
	int ret = flush(r, UINT64_MAX, err);

	if (r->q.nr_late)
		pr_warn("%s: %llu records are older than records already replayed (the file is "
			"not in time order within its rounds); they were replayed late\n",
			r->path ? r->path : "report", (unsigned long long)r->q.nr_late);
	return ret;
}

static void queue_free(struct pmc_report *r)
{
	free(r->q.v);
	free(r->q.tmp);
	memset(&r->q, 0, sizeof(r->q));
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
	queue_free(r);
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
		ret = r->ordered ? enqueue(r, &ev, err) : on_event(r, &ev, err);
	if (!ret && r->ordered)
		ret = drain(r, err);
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
	queue_free(r);
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
