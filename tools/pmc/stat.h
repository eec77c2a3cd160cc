/* SPDX-License-Identifier: MIT */
/* pmc stat: options, the runner's results, and the output writers. */
#ifndef PMC_TOOLS_STAT_H
#define PMC_TOOLS_STAT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <pmc/pmc.h>

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
	int verbose;
	const char *backend;
	pid_t pid;	  /* -p */
	bool system_wide; /* -a */
	const char *cpus; /* -C */
	bool no_inherit;
	bool per_thread; /* regions: values per thread too */
	bool subtract_overhead;
	const char *calibration; /* --calibration=FILE, NULL: this machine's default */
	char **argv;		 /* the command */
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
};

/* Builds the event list, runs every pass and repetition, prints; returns the exit status. */
int cmd_stat_run(const struct stat_opts *opts);
void stat_print_plan(FILE *f, const struct stat_run *run);
/* The terminal summary on stderr, and the results file (-o, --format); 0 or 1. */
int stat_write(const struct stat_run *run);
/* The regions' terminal summary (stat-region-out.c). */
void stat_regions__print(FILE *f, const struct stat_run *run);
void stat_print_overhead(FILE *f, const struct stat_run *run);

#endif /* PMC_TOOLS_STAT_H */
