// SPDX-License-Identifier: MIT
/* pmc report's ordered-events queue: records replayed in time order, round by round. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "report/report.h"

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
	const struct perf_event_attr *a = &r->attrs[ev->attr_idx];
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
		ret = pmc__report_on_event(r, &ev, err);
		q->flushed = q->v[i].time;
	}
	memmove(q->v, q->v + i, (q->nr - i) * sizeof(*q->v));
	q->nr -= i;
	return ret;
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

int pmc__report_queue(struct pmc_report *r, const struct pmc__perfdata_event *ev,
		      struct pmc_file_error *err)
{
	struct rqueue *q = &r->q;
	struct qent e = {q->last_time, ev->offset, ev->attr_idx};

	if (ev->hdr->type == PERFDATA_RECORD_FINISHED_ROUND)
		return finished_round(r, err);
	/* perf's own record types (attrs, build ids, ...) carry no time and no state we replay. */
	if (ev->hdr->type >= PERFDATA_RECORD_HEADER_ATTR)
		return pmc__report_on_event(r, ev, err);
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
	q->v[q->nr++] = e;
	if (q->nr < QUEUE_MAX)
		return 0;
	sort_queue(q);
	return flush(r, q->v[q->nr / 2].time, err);
}

int pmc__report_drain(struct pmc_report *r, struct pmc_file_error *err)
{
	int ret = flush(r, UINT64_MAX, err);

	if (r->q.nr_late)
		pr_warn("%s: %llu records are older than records already replayed (the file is "
			"not in time order within its rounds); they were replayed late\n",
			r->path ? r->path : "report", (unsigned long long)r->q.nr_late);
	return ret;
}

void pmc__report_queue_free(struct pmc_report *r)
{
	free(r->q.v);
	free(r->q.tmp);
	memset(&r->q, 0, sizeof(r->q));
}
