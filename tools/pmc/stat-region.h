/* SPDX-License-Identifier: MIT */
/* What pmc stat keeps of region results: per region, thread and event, one value per repetition. */
#ifndef PMC_TOOLS_STAT_REGION_H
#define PMC_TOOLS_STAT_REGION_H

#include "stat.h"

struct calib;

/* One region, thread (or all threads) and event over the repetitions of its pass. */
struct sr_cell {
	int nr;		 /* repetitions stored */
	double *values;	 /* [repeat], overhead subtracted after summarizing */
	double *entered; /* [repeat]: entries in that run */
	struct pmc_summary sum;
	double per_entry; /* mean / mean entries */
};

struct sr_region {
	char *name;
	bool counted;
	bool varies;			      /* entered/exited differ between runs */
	uint64_t entered, exited;	      /* in the first counted run */
	uint64_t open_at_exit, unmatched_end; /* over every run */
	int nr_threads;			      /* --per-thread: threads that entered it */
	size_t nr_slots;		      /* 1 + threads with cells */
	struct sr_cell *cells; /* [nr_slots * nr_ev]: slot 0 = all threads, then thread t */
};

struct stat_regions {
	int fd;	      /* the memfd handed to the command, -1 */
	size_t nr_ev; /* pmc_evlist__nr() */
	size_t nr, cap;
	struct sr_region *r;
	uint64_t bad_ids, failed_reads;
	int bad_runs;
	struct calib *calib; /* --subtract-overhead */
	double *oh_entry;    /* [nr_ev]: subtracted per region entry */
	double *oh_run;	     /* [nr_ev]: subtracted per run from whole-program values */
	bool *warned;	     /* [nr_ev]: said that regions could not count it */
};

static inline struct sr_cell *sr_cell(const struct stat_regions *s, const struct sr_region *r,
				      int thread, size_t idx)
{
	size_t slot = (size_t)(thread + 1);

	return slot < r->nr_slots ? &r->cells[slot * s->nr_ev + idx] : NULL;
}

#endif /* PMC_TOOLS_STAT_REGION_H */
