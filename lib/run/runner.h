/* SPDX-License-Identifier: MIT */
/* The runner's state (include/pmc/run.h), shared by its files: runs, regions, outputs. */
#ifndef PMC_LIB_RUN_RUNNER_H
#define PMC_LIB_RUN_RUNNER_H

#include <signal.h>
#include <pmc/pmc.h>
#include <pmc/run.h>
#include "core/log.h"

struct calib;
struct json_t;
struct pmc__topo;

/* Units with values of their own (units.c): the results' units, or one interval's. */
struct run_unit_set {
	size_t nr, alloc;
	struct pmc_run_unit *v;
	int64_t *keys; /* [nr]: what units are told apart and sorted by */
	int slots;     /* values per unit event: the repetitions, or 1 for an interval */
	pid_t root;    /* the command's pid, when known: threads sort from it (sort_units) */
};

struct pmc_run {
	struct pmc_run_opts opts; /* defaults filled in */
	struct pmc_target target;
	struct pmc_evlist *evlist;
	struct pmc_run_results res;
	volatile sig_atomic_t stop_sig; /* pmc_run__stop() */
	bool stop_passed;		/* stop_sig was passed on to a running command (live.c) */
	/* regions (regions.c) */
	int region_fd;	   /* the memfd handed to the command, -1 */
	char *pass_header; /* the header written for pass_header_of (regions.c) */
	int pass_header_of;
	bool pass_header_arena; /* whether it names the arena */
	size_t region_cap;
	struct calib *calib; /* subtract_overhead */
	/* [2 * nr_events]: per event, the named markers' per-entry and first-entry costs
	 * subtracted (regions.c), beside res.overhead_entry and overhead_first_entry (by id) */
	double *overhead_named;
	bool regions_named;	 /* some region was entered with the named markers */
	struct pmc_trust *trust; /* opts.trust (trust.c) */
	double *trust_bias;	 /* [nr_events]: each event's validated per-run bias, or NAN */
	char trust_note[400];
	bool *warned;  /* [nr_events]: said that regions could not count it */
	bool null_run; /* an empty list: the command runs, timed, nothing counted */
	int null_reps; /* null_run: the repetitions run */
	struct pmc_run_metric_row *metrics; /* opts.metrics over the results (metrics.c) */
	size_t nr_metrics;
	/* units.c */
	struct run_unit_set units, iv_units;
	struct pmc__topo *topo; /* [nr_topo], by CPU number, read on first use */
	bool *topo_read;
	int nr_topo;
	double *iv_unit_prev; /* [nr_iv_prev]: each counting unit's values at the last interval */
	size_t nr_iv_prev;
	/* live.c: the interval's events (values[0] each) and each event's last total */
	struct pmc_run_event *iv_events;
	double *iv_prev;
	double iv_t0, iv_last;
	/* control.c: a command line read in part */
	char ctl_line[64];
	size_t ctl_len;
	bool ctl_closed; /* the control descriptor reached its end: no longer polled */
	/* times.c: the repetitions of each pass whose times are stored */
	int *pass_runs;
	int nr_pass_runs;
};

/*
 * times.c: a run's wall, user and system times stored at slot pass * repeat + rep (the
 * warm-up in repetition 0's); forgotten when the passes are planned again; summarised pass by
 * pass (results->pass_wall, and wall, user and sys of results->wall_pass's runs alone).
 */
void pmc__run_times_store(struct pmc_run *run, int pass, int rep);
void pmc__run_times_reset(struct pmc_run *run);
void pmc__run_times_summarize(struct pmc_run *run);
void pmc__run_times_free(struct pmc_run *run);

/* trust.c: each event's verdict from opts.trust (results->trust), and its release. */
void pmc__run_trust(struct pmc_run *run);
void pmc__run_trust_free(struct pmc_run *run);
/* Event idx's validated per-run bias (a "bias" verdict): true with *bias, else false. */
bool pmc__run_trust_bias(const struct pmc_run *run, size_t idx, double *bias);

/*
 * metrics.c: opts.metrics computed over the summarised results (every scope; 0 or -ENOMEM);
 * the metrics of one scope (region NULL: the whole program, or unit u >= 0) as a new JSON
 * array, or NULL when the run has none at all; the text file's section of them; the CSV
 * file's tables; their release.
 */
int pmc__run_metrics_compute(struct pmc_run *run);
struct json_t *pmc__run_metrics_json(const struct pmc_run *run, const char *region, int thread,
				     long unit);
void pmc__run_metrics_text(const struct pmc_run *run, FILE *f);
void pmc__run_metrics_csv(const struct pmc_run *run, FILE *f);
void pmc__run_metrics_free(struct pmc_run *run);

/* units.c: values per unit (opts.aggr); see there. */
int pmc__run_units_store(struct pmc_run *run, int pass, int rep);
void pmc__run_units_summarize(struct pmc_run *run);
int pmc__run_units_interval(struct pmc_run *run, int pass, bool first);
void pmc__run_units_interval_view(struct pmc_run *run, size_t *nr, const struct pmc_run_unit **v);
void pmc__run_units_free(struct pmc_run *run);

/*
 * live.c: how a run waits for its end. Plainly (waitpid, or a poll of a process or CPUs) or,
 * with intervals, a delay or control commands, in a loop that wakes for each. Returns 0 or
 * the error that stopped counting.
 */
int pmc__run_wait(struct pmc_run *run, struct pmc_target *t, int pass, int rep, int *status,
		  bool *have_status);
/*
 * interval.c: at a run's start (t0, when it began counting), every last value set to 0; after
 * each read, what each event (and unit) counted since the previous one, to on_interval
 * (last: the run has ended, after its final read). 0 or -ENOMEM.
 */
int pmc__run_interval_begin(struct pmc_run *run, int pass, double t0);
void pmc__run_interval(struct pmc_run *run, int pass, int rep, bool last);
void pmc__run_interval_free(struct pmc_run *run);

/*
 * control.c: reads the control descriptor's pending lines and carries them out (docs/
 * stat-output.md, "Control"); 0, or -1 once the descriptor is closed for good.
 */
int pmc__run_control(struct pmc_run *run);

/* The runner's warnings, prefixed with opts.who ("pmc stat: ..."). */
#define run_warn(run, fmt, ...) pmc__log(PMC_LOG_WARN, "%s: " fmt, (run)->opts.who, ##__VA_ARGS__)

#endif /* PMC_LIB_RUN_RUNNER_H */
