/* SPDX-License-Identifier: MIT */
/*
 * What perf stat prints of each event of a run, as a library: its mean in perf's unit and
 * scale (task-clock in msec, tool events in ns, a PMU alias's .unit and .scale), the share of
 * its enabled time it ran, and perf 6.1's shadow value (the comment column: "insn per cycle",
 * "of all branches", "CPUs utilized", "K/sec"), with the lines of merged PMU units and core
 * types (pmc_run_events__merge_one()). Printers ask it per event and never pair events
 * themselves; docs/stat-output.md lists the rules.
 */
#ifndef PMC_STAT_VIEW_H
#define PMC_STAT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <pmc/common.h>
#include <pmc/run.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One event as the shadow rules see it. */
struct pmc_stat_shadow_event {
	const char *generic; /* pmc_evsel__generic_name(), "" or NULL if none */
	unsigned priv; /* pmc_evsel__priv(): values pair only with the same levels, as perf's */
	bool counted;  /* supported, with values */
	double mean;   /* in the event's own unit (ns for clocks and tool events) */
};

/* A shadow value: the value, how perf writes it (width, decimals, what follows) and its unit. */
struct pmc_stat_shadow {
	double value;
	int width, decimals;
	const char *suffix; /* "", " ", "%" or " %", written right after the value (static) */
	char unit[32];	    /* "insn per cycle", "K/sec", ... */
};

/*
 * The shadow value of events[idx] over the nr events of a run whose mean wall time per run
 * is wall_ns: 1 with *out filled, 0 when the event has none (or what it needs was not
 * counted, or idx >= nr).
 */
PMC_API int pmc_stat_shadow__compute(const struct pmc_stat_shadow_event *events, size_t nr,
				     size_t idx, double wall_ns, struct pmc_stat_shadow *out);

/* One event as every output of pmc stat prints it. */
struct pmc_stat_view {
	const struct pmc_run_event *e; /* the event, or own when it heads merged members */
	const char *name;
	char generic[64]; /* pmc_evsel__generic_name(), "" when none */
	const char *unit; /* "msec" (clocks), "ns" (tool events), the alias's, or "" */
	double scale;	  /* value = mean * scale */
	bool counted;	  /* supported, with values */
	double value;
	double running_pct; /* mean share of its enabled time it counted */
	bool has_shadow;
	struct pmc_stat_shadow shadow; /* the comment column */
	const char *trust;	       /* pmc validate's verdict (results->trust), or NULL */
	bool bias_subtracted;	       /* its validated bias was subtracted */
	/*
	 * Merged into an earlier view (perf's merging of units and of core types:
	 * pmc_run_events__merge_first()): not printed, its values are in that view's.
	 */
	bool merged;
	/* The line this view heads, its members summed (e points here when it has several). */
	struct pmc_run_event own;
	bool has_own;
	char own_name[192]; /* without PMC_RUN_MERGE_UNITS: pmc_evsel__unit_name() (name here) */
};

/*
 * The views of any events[nr] (a run's, a unit's, an interval's) over wall_ns of mean wall
 * time per run (what "CPUs utilized" and rates divide by); by: what is merged into one view
 * (enum pmc_run_merge), the merged lines summarised at level. Without PMC_RUN_MERGE_UNITS
 * each event is named by its unit (perf's --no-merge). *out is [nr], the caller's, freed with
 * pmc_stat_views__delete(). 0 or -ENOMEM.
 */
PMC_API int pmc_stat_views__of(const struct pmc_run_event *events, size_t nr, double wall_ns,
			       unsigned by, double level, struct pmc_stat_view **out);
/*
 * The same of a run's results, over its mean wall time, with each event's trust verdict and
 * whether its validated bias was subtracted. *out is [res->nr_events]. 0 or -ENOMEM.
 */
PMC_API int pmc_stat_views__new(const struct pmc_run_results *res, unsigned by, double level,
				struct pmc_stat_view **out);
/* Frees views[nr] and the merged lines they own. Accepts NULL. */
PMC_API void pmc_stat_views__delete(struct pmc_stat_view *views, size_t nr);

/*
 * How pmc_run__write_perf() writes perf stat's machine lines (docs/stat-output.md, "-x and
 * -j"). The units (opts.aggr), the confidence level and the metrics (opts.metrics) are the
 * run's.
 */
struct pmc_run_perf_opts {
	const char *sep;    /* -x's separator between fields; NULL: -j's JSON lines */
	unsigned merge;	    /* what is merged into one line (enum pmc_run_merge) */
	const char *header; /* with sep: written first as one line "# pmc stat: HEADER" (its line
			       breaks as spaces); NULL: none */
};

/*
 * Writes a run's results as perf stat's -x or -j lines to f: one line per event (per unit
 * instead with opts.aggr, each unit's metrics after its lines), then the metrics of the whole
 * program, regions and threads. Returns 0 or -ENOMEM (what was written stays).
 */
PMC_API int pmc_run__write_perf(const struct pmc_run *run, FILE *f,
				const struct pmc_run_perf_opts *o);
/*
 * The same lines of one interval (pmc_run_opts.on_interval's), each led by its time, then its
 * metrics; with sep a '#' line naming the metrics' fields comes first unless *said_header,
 * which is then set (false before the first interval of the command). Returns 0 or -ENOMEM.
 */
PMC_API int pmc_run__write_perf_interval(const struct pmc_run *run, FILE *f,
					 const struct pmc_run_interval *iv,
					 const struct pmc_run_perf_opts *o, bool *said_header);

#ifdef __cplusplus
}
#endif

#endif /* PMC_STAT_VIEW_H */
