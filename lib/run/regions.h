/* SPDX-License-Identifier: MIT */
/* The runner's regions: the results descriptor, the collection, the summary (regions.c). */
#ifndef PMC_LIB_RUN_REGIONS_H
#define PMC_LIB_RUN_REGIONS_H

#include "run/runner.h"

/*
 * Regions (regions.c): before each run, hand the command a results descriptor and the
 * pass's events (docs/regions.md); after it, collect what its markers reported (rep < 0:
 * the warm-up, which only tells whether the command uses regions). Then subtract the
 * calibrated overhead and summarise; free drops what was collected (a new plan starts over).
 */
int pmc__run_regions_prepare(struct pmc_run *run, int pass, struct pmc_target *t);
void pmc__run_regions_collect(struct pmc_run *run, int pass, int rep);
void pmc__run_regions_summarize(struct pmc_run *run);
void pmc__run_regions_free(struct pmc_run *run);

#endif /* PMC_LIB_RUN_REGIONS_H */
