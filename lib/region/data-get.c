// SPDX-License-Identifier: MIT
/* The getters of struct pmc_region_data: events, regions in output order, threads. */
#include <errno.h>
#include "region/data.h"

size_t pmc_region_data__nr_events(const struct pmc_region_data *d)
{
	return d->nr_events;
}

const char *pmc_region_data__event(const struct pmc_region_data *d, size_t idx)
{
	return idx < d->nr_events ? d->events[idx] : NULL;
}

size_t pmc_region_data__nr_regions(const struct pmc_region_data *d)
{
	return d->nr_regions;
}

size_t pmc_region_data__nr_threads(const struct pmc_region_data *d)
{
	return d->nr_threads;
}

int pmc_region_data__thread(const struct pmc_region_data *d, size_t idx, int *pid, int *tid)
{
	const struct rd_thread *t;

	if (idx >= d->nr_threads)
		return -EINVAL;
	t = &d->threads[d->thread_order[idx]];
	if (pid)
		*pid = t->pid;
	if (tid)
		*tid = t->tid;
	return 0;
}

int pmc_region_data__get(const struct pmc_region_data *d, size_t idx, int thread,
			 struct pmc_region_values *out)
{
	const struct rd_region *r;
	const uint64_t *cell;

	if (idx >= d->nr_regions || (thread >= 0 && (size_t)thread >= d->nr_threads))
		return -EINVAL;
	r = &d->regions[d->region_order[idx]];
	cell = thread < 0 ? r->total : r->cells + d->thread_order[thread] * (RD_HDR + d->nr_events);
	*out = (struct pmc_region_values){
		.name = r->name,
		.entered = cell[RD_ENTERED],
		.exited = cell[RD_EXITED],
		.open_at_exit = cell[RD_OPEN],
		.unmatched_end = cell[RD_UNMATCHED],
		.values = cell + RD_HDR,
	};
	return 0;
}

int pmc_region_data__named_entries(const struct pmc_region_data *d, size_t idx, int thread,
				   uint64_t *named)
{
	struct pmc_region_values v;
	int err = pmc_region_data__get(d, idx, thread, &v);

	if (!err) /* the cell's words before the values: docs of RD_* in data.h */
		*named = (v.values - RD_HDR)[RD_NAMED];
	return err;
}

void pmc_region_data__problems(const struct pmc_region_data *d, uint64_t *bad_ids,
			       uint64_t *failed_reads)
{
	if (bad_ids)
		*bad_ids = d->bad_ids;
	if (failed_reads)
		*failed_reads = d->failed_reads;
}

/*
 * Records that could not be read, and processes that said they started to count but wrote
 * no record after (they left with _exit(), crashed or were killed: docs/regions.md).
 */
uint64_t pmc_region_data__nr_lost(const struct pmc_region_data *d)
{
	uint64_t lost = d->nr_lost;

	for (size_t i = 0; i < d->nr_started; i++) {
		bool seen = false;

		for (size_t k = 0; k < d->nr_reported && !seen; k++)
			seen = d->reported[k] == d->started[i];
		lost += !seen;
	}
	return lost;
}

uint64_t pmc_region_data__nr_recovered(const struct pmc_region_data *d)
{
	return d->nr_recovered;
}
