/* SPDX-License-Identifier: MIT */
/* Basic blocks and loops estimated from branch stacks (bblock.c), written by bblock-out.c. */
#ifndef PMC_LIB_REPORT_BBLOCK_H
#define PMC_LIB_REPORT_BBLOCK_H

#include "report/report.h"

struct bblock {
	struct bblock *next; /* chain of equal hashes */
	const struct pmc__symres *start, *end;
	struct pmc__dso *dso;
	double est;    /* estimated executions */
	uint64_t seen; /* times in a stack */
};

struct bloop {
	struct bloop *next;
	const struct pmc__symres *from, *to; /* the back edge: from is after to */
	struct pmc__dso *dso;
	uint64_t instances, trips, min, max; /* whole instances seen, their trips summed */
	double passes, entries; /* by the blocks: runs through the top; of those, from before it */
};

#endif /* PMC_LIB_REPORT_BBLOCK_H */
