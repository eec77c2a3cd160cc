// SPDX-License-Identifier: MIT
/* The ordered-events queue: records replayed in time order (ordered.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/ordered.h"
#include "perfdata/records.h"

#define ORDERED_MAX ((size_t)1 << 22)

void pmc__ordered_init(struct pmc__ordered *q, struct pmc__perfdata *f, pmc__ordered_fn fn,
		       void *arg)
{
	memset(q, 0, sizeof(*q));
	q->f = f;
	q->fn = fn;
	q->arg = arg;
	q->max = ORDERED_MAX;
}

static bool before(const struct pmc__ordered_ent *a, const struct pmc__ordered_ent *b)
{
	return a->time < b->time || (a->time == b->time && a->offset < b->offset);
}

static size_t run_end(const struct pmc__ordered_ent *v, size_t i, size_t n)
{
	while (i + 1 < n && !before(&v[i + 1], &v[i]))
		i++;
	return i + 1;
}

static void merge(const struct pmc__ordered_ent *a, size_t na, const struct pmc__ordered_ent *b,
		  size_t nb, struct pmc__ordered_ent *out)
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
static void sort_queue(struct pmc__ordered *q)
{
	while (!q->sorted) {
		size_t i = 0, runs = 0;
		struct pmc__ordered_ent *t;
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
static int flush(struct pmc__ordered *q, uint64_t limit, struct pmc_file_error *err)
{
	struct pmc__perfdata_event ev;
	size_t i;
	int ret = 0;

	if (!q->nr)
		return 0;
	sort_queue(q);
	for (i = 0; i < q->nr && q->v[i].time <= limit && !ret; i++) {
		pmc__perfdata_event_at(q->f, q->v[i].offset, q->v[i].attr_idx, &ev);
		ret = q->fn(q->arg, &ev, err);
		q->flushed = q->v[i].time;
	}
	memmove(q->v, q->v + i, (q->nr - i) * sizeof(*q->v));
	q->nr -= i;
	/* The reader holds what is still queued: of a -z file, in memory (pmc__perfdata_keep). */
	q->keep = UINT64_MAX;
	for (i = 0; i < q->nr; i++)
		q->keep = q->v[i].offset < q->keep ? q->v[i].offset : q->keep;
	pmc__perfdata_keep(q->f, q->keep);
	return ret;
}

/* The newest time among the records queued from before offset below. */
static uint64_t time_before(const struct pmc__ordered *q, uint64_t below)
{
	uint64_t t = 0;

	for (size_t i = 0; i < q->nr; i++)
		if (q->v[i].offset < below && q->v[i].time > t)
			t = q->v[i].time;
	return t;
}

static int grow(struct pmc__ordered *q)
{
	size_t n = q->alloc ? q->alloc * 2 : 4096;
	struct pmc__ordered_ent *v = realloc(q->v, n * sizeof(*v)), *t;

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
static int finished_round(struct pmc__ordered *q, struct pmc_file_error *err)
{
	int ret = flush(q, q->next_flush, err);

	q->next_flush = q->round_max;
	return ret;
}

int pmc__ordered_queue(struct pmc__ordered *q, const struct pmc__perfdata_event *ev,
		       struct pmc_file_error *err)
{
	struct pmc__ordered_ent e = {q->last_time, ev->offset, ev->attr_idx};
	uint64_t hold;

	if (ev->hdr->type == PERFDATA_RECORD_FINISHED_ROUND)
		return finished_round(q, err);
	/* perf's own record types (attrs, build ids, ...) carry no time and no state we replay. */
	if (ev->hdr->type >= PERFDATA_RECORD_HEADER_ATTR)
		return q->fn(q->arg, ev, err);
	if (pmc__record_time(pmc__perfdata_attr(q->f, ev->attr_idx), ev->hdr, &e.time))
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
		pmc__perfdata_keep(q->f, q->keep = e.offset);
	q->v[q->nr++] = e;
	/*
	 * A -z file's records are held in memory from the oldest queued (pmc__perfdata_hold_max):
	 * past that, what was queued before the last half is replayed.
	 */
	hold = pmc__perfdata_hold_max(q->f);
	if (q->nr < q->max && e.offset - q->keep <= hold)
		return 0;
	if (q->nr < q->max)
		return flush(q, time_before(q, e.offset - hold / 2), err);
	sort_queue(q);
	return flush(q, q->v[q->nr / 2].time, err);
}

int pmc__ordered_drain(struct pmc__ordered *q, struct pmc_file_error *err)
{
	return flush(q, UINT64_MAX, err);
}

void pmc__ordered_free(struct pmc__ordered *q)
{
	free(q->v);
	free(q->tmp);
	q->v = q->tmp = NULL;
	q->nr = q->alloc = 0;
}
