/* SPDX-License-Identifier: MIT */
/* pmc stat: options, the runner's results, and the output writers. */
#ifndef PMC_TOOLS_STAT_H
#define PMC_TOOLS_STAT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <pmc/pmc.h>

/* The limit of -r: each event keeps a value per repetition. */
#define STAT_MAX_REPEAT 1000000
#define STAT_MAX_REPEAT_STR "1000000"

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

/* One event's values over the repetitions of its pass. */
struct stat_event {
	struct pmc_evsel *evsel;
	bool supported;
	char why[512];	 /* when !supported */
	bool user_named; /* named with -e (an error when unsupported) */
	int nr;		 /* repetitions counted */
	double *values;	 /* [repeat], scaled when multiplexed */
	double *ratio;	 /* [repeat]: running / enabled */
	bool scaled;
	struct pmc_summary sum;
};

struct stat_run {
	const struct stat_opts *opts;
	struct pmc_evlist *evlist;
	struct stat_event *ev; /* [pmc_evlist__nr()] */
	int nr_passes;
	int status; /* wait status of the last run */
	bool have_status;
	bool interrupted; /* Ctrl-C: stopped early */
	bool exec_failed;
	bool in_warmup;	   /* the last run was the warm-up run */
	bool regions_seen; /* the command reported regions (it opens counters of its own) */
	bool replanned;	   /* the passes were planned again to leave it room */
	double elapsed_s;  /* wall time of all measured runs */
	struct stat_regions *regions; /* stat-region.c: what region markers reported */
};

/* Builds the event list, runs every pass and repetition, prints; returns the exit status. */
int cmd_stat_run(const struct stat_opts *opts);
int stat_run__execute(struct stat_run *run);
void stat_run__summarize(struct stat_run *run);
void stat_print_plan(FILE *f, const struct stat_run *run);
int stat_write(const struct stat_run *run);

/*
 * Regions (stat-region.c): before each run, hand the command a results descriptor and the
 * pass's events (docs/regions.md); after it, collect what its markers reported (rep < 0:
 * the warm-up, discarded). Then summarise, subtract calibrated overhead, and print.
 */
int stat_regions__prepare(struct stat_run *run, int pass, struct pmc_target *t);
void stat_regions__collect(struct stat_run *run, int pass, int rep);
void stat_regions__summarize(struct stat_run *run);
void stat_regions__print(FILE *f, const struct stat_run *run);
/* With --subtract-overhead, one line saying what was subtracted, after prefix. */
void stat_regions__print_overhead(FILE *f, const struct stat_run *run, const char *prefix);
/* What was subtracted from event idx per run (0 without --subtract-overhead). */
double stat_regions__overhead_run(const struct stat_run *run, size_t idx);
void stat_regions__write_text(FILE *f, const struct stat_run *run);
void stat_regions__write_csv(FILE *f, const struct stat_run *run);
void stat_regions__free(struct stat_run *run);

#endif /* PMC_TOOLS_STAT_H */
