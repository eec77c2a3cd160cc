/* SPDX-License-Identifier: MIT */
/* The runner's state (include/pmc/run.h), shared by its files: runs, regions, outputs. */
#ifndef PMC_LIB_RUN_RUNNER_H
#define PMC_LIB_RUN_RUNNER_H

#include <signal.h>
#include <pmc/pmc.h>
#include <pmc/run.h>
#include "core/log.h"

struct calib;

struct pmc_run {
	struct pmc_run_opts opts; /* defaults filled in */
	struct pmc_target target;
	struct pmc_evlist *evlist;
	struct pmc_run_results res;
	volatile sig_atomic_t stop_sig; /* pmc_run__stop() */
	/* regions (regions.c) */
	int region_fd; /* the memfd handed to the command, -1 */
	size_t region_cap;
	struct calib *calib; /* subtract_overhead */
	bool *warned;	     /* [nr_events]: said that regions could not count it */
};

/* The runner's warnings, prefixed with opts.who ("pmc stat: ..."). */
#define run_warn(run, fmt, ...) pmc__log(PMC_LOG_WARN, "%s: " fmt, (run)->opts.who, ##__VA_ARGS__)

#endif /* PMC_LIB_RUN_RUNNER_H */
