/* SPDX-License-Identifier: MIT */
/* pmc calibrate's measurements: what a region pair, a read, a start/stop and an empty program cost.
 */
#ifndef PMC_TOOLS_CALIB_MEASURE_H
#define PMC_TOOLS_CALIB_MEASURE_H

#include <jansson.h>
#include <pmc/pmc.h>

struct calib_params {
	size_t samples; /* timed samples per distribution */
	size_t warmup;	/* untimed iterations first */
	int runs;	/* runs of the empty program */
	const char *backend;
	unsigned priv;
	char **empty_argv;   /* the empty program */
	char **regions_argv; /* pmc-calibrate-regions N */
	bool in_process;     /* the backend counts this process (not vpmu) */
};

/* Sorts v[0..n) and returns {n, min, median, p90, p99, max, histogram{edges, counts}}. */
json_t *calib_distribution(double *v, size_t n);

/*
 * In a process of its own (it configures regions once): region_pair{counts, ns}, read{ns},
 * start_stop{ns} for event. NULL with *err set on failure.
 */
json_t *calib_measure_inprocess(const struct calib_params *p, const char *event, int *err);

#endif /* PMC_TOOLS_CALIB_MEASURE_H */
