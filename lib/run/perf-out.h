/* SPDX-License-Identifier: MIT */
/*
 * perf stat's -x and -j lines (perf-out.c), the metrics' lines after them (perf-metrics.c) and
 * the fields both lead with (perf-fields.c).
 */
#ifndef PMC_LIB_RUN_PERF_OUT_H
#define PMC_LIB_RUN_PERF_OUT_H

#include <stdbool.h>
#include <stdio.h>
#include <pmc/run.h>

/* What a line is of: the run's total, a unit's (-A, --per-*), an interval's (-I). */
struct pmc__perf_line {
	double t_s;			 /* the interval's time, or < 0 */
	const struct pmc_run_unit *unit; /* or NULL */
	double wall_ns;			 /* the time it covers: one run's, the interval's */
};

/* perf-fields.c: whether the units are cores, sockets or dies (their CPUs are a field). */
bool pmc__perf_aggregated(const struct pmc_run *run);
/* perf-fields.c: perf's leading fields: the interval's time, the unit, the CPUs of a core or
 * socket.
 */
void pmc__perf_lead(FILE *f, const struct pmc_run *run, const struct pmc__perf_line *l,
		    const char *sep);
/* perf-fields.c: perf's key of a unit, "cpu", "core", "socket" or "thread", its value into val. */
const char *pmc__perf_unit_key(const struct pmc_run *run, const struct pmc_run_unit *u, char *val,
			       size_t len);

/* perf-metrics.c: the header's text as one '#' line, ahead of the CSV lines. */
void pmc__perf_header(FILE *f, const char *header);
/* perf-metrics.c: the '#' line naming the fields of a unit's or an interval's metric lines. */
void pmc__perf_metric_header(FILE *f, const struct pmc_run *run, bool interval, const char *sep);
/*
 * perf-metrics.c: the run's metrics after the events (whole program, regions, threads): with
 * sep a '#' line naming the fields, then one line per metric; without, one object per metric.
 * 0 or -ENOMEM.
 */
int pmc__perf_metrics(FILE *f, const struct pmc_run *run, const char *sep);
/*
 * perf-metrics.c: the metrics of a unit's or an interval's events after its event lines, each
 * led by the lines' fields; those with an input it did not count are left out. 0 or -ENOMEM.
 */
int pmc__perf_line_metrics(FILE *f, const struct pmc_run *run, const struct pmc__perf_line *l,
			   const struct pmc_run_event *events, const char *sep);

#endif /* PMC_LIB_RUN_PERF_OUT_H */
