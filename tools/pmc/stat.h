/* SPDX-License-Identifier: MIT */
/* pmc stat: options, the runner's results, and the output writers. */
#ifndef PMC_TOOLS_STAT_H
#define PMC_TOOLS_STAT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <pmc/pmc.h>
#include "stat-derived.h"
#include "stat-metric.h"
#include "stat-num.h"

/* The limit of -r, PMC_RUN_MAX_REPEAT as a string for messages. */
#define STAT_MAX_REPEAT PMC_RUN_MAX_REPEAT
#define STAT_MAX_REPEAT_STR "1000000"
_Static_assert(PMC_RUN_MAX_REPEAT == 1000000, "STAT_MAX_REPEAT_STR names the limit");

enum stat_format { FMT_TEXT, FMT_CSV, FMT_JSON };

struct stat_opts {
	char **events; /* -e strings, in order */
	size_t nr_events;
	bool default_events; /* no -e: perf stat's default set */
	int repeat;	     /* -r */
	bool no_warmup;
	bool plan_only;
	bool dry_run; /* --dry-run: print the perf_event_open calls (-vv: with attrs), make none */
	bool multiplex;
	double level; /* confidence level, 0.95 */
	bool all_results;
	bool strict;	    /* --strict: a user-named event that cannot be counted is an error */
	unsigned priv;	    /* PMC_PRIV_* default for events without modifiers */
	const char *output; /* -o FILE, NULL: stderr, "-": stdout */
	enum stat_format format;
	bool format_set;     /* --format was given */
	const char *csv_sep; /* -x SEP: perf's CSV lines instead of the summary, or NULL */
	bool json_lines;     /* -j: perf's JSON lines instead of the summary */
	int big_num;	     /* -B 1, --no-big-num 0, -1: the default (separators) */
	bool append;	     /* --append: -o's file keeps what it had */
	int log_fd;	     /* --log-fd N: where stderr's outputs go instead, -1: none */
	int verbose;
	const char *backend;
	pid_t pid;	  /* -p */
	bool system_wide; /* -a */
	const char *cpus; /* -C */
	bool no_inherit;
	bool per_thread; /* regions: values per thread too */
	bool subtract_overhead;
	const char *calibration;    /* --calibration=FILE, NULL: this machine's default */
	char **argv;		    /* the command */
	struct metric_opts metrics; /* -M, --metrics-file, --topdown */
};

/* pmc stat's state: the options, the event list, and the library's runner over it. */
struct stat_run {
	const struct stat_opts *opts;
	struct pmc_evlist *evlist;
	bool *user_named; /* [pmc_evlist__nr()]: named with -e (an error when unsupported
			     and --strict) */
	struct pmc_target target;
	struct pmc_run *runner;
	const struct pmc_run_results *res;
	bool strict_stop; /* --strict stopped the run at an event the kernel refused at open */
	struct pmc_metrics *metrics;  /* the selected metrics, NULL when none */
	struct metric_absent *absent; /* events of metrics that the backend does not know */
	size_t nr_absent;
	struct metric_rows rows; /* every metric of the run, after it (stat_metrics__compute()) */
};

/* The metric set of the options and its events in the list; 0 or an exit status. */
int stat_metrics__build(struct stat_run *run);
/* The metrics' rows from the results: whole program, regions, threads. 0 or -ENOMEM. */
int stat_metrics__compute(struct stat_run *run);
void stat_metrics__delete(struct stat_run *run);

/* One event as every output prints it (stat-view.c). */
struct stat_view {
	const struct pmc_run_event *e;
	const char *name;
	char generic[64]; /* pmc_evsel__generic_name(), "" when none */
	const char *unit; /* "msec" (clocks), "ns" (tool events) or "" */
	double scale;	  /* value = mean * scale */
	bool counted;	  /* supported, with values */
	double value;
	double running_pct; /* mean share of its enabled time it counted */
	bool has_derived;
	struct stat_derived derived; /* the comment column */
};

/* The views of run's events, [nr_events]; free() them. Returns 0 or -1 (no memory). */
int stat_views__new(const struct stat_run *run, struct stat_view **out);

/* Builds the event list, runs every pass and repetition, prints; returns the exit status. */
int cmd_stat_run(const struct stat_opts *opts);
void stat_print_plan(FILE *f, const struct stat_run *run);
/*
 * The outputs: the terminal summary or the -x/-j lines on stderr (or --log-fd), the results
 * file (-o, --format; stat-write.c); 0 or 1.
 */
int stat_write(const struct stat_run *run);
/* The terminal summary (stat-out.c), numbers written as nf says. */
void stat_print_summary(FILE *f, const struct stat_run *run, const struct stat_numfmt *nf);
/* The summary's header: the command, repetitions, passes, confidence, levels, backend. */
void stat_print_header(FILE *f, const struct stat_run *run);
/* perf's -x lines (sep) or -j lines (sep NULL) (stat-machine.c). */
void stat_print_machine(FILE *f, const struct stat_run *run, const char *sep);
/* The regions' terminal summary (stat-region-out.c). */
void stat_regions__print(FILE *f, const struct stat_run *run);
void stat_print_overhead(FILE *f, const struct stat_run *run);

#endif /* PMC_TOOLS_STAT_H */
