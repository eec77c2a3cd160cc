/* SPDX-License-Identifier: MIT */
/* pmc stat: options, the runner's results, and the output writers. */
#ifndef PMC_TOOLS_STAT_H
#define PMC_TOOLS_STAT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <pmc/pmc.h>
#include "common/cli.h"
#include "common/stat-metric.h"
#include "common/stat-num.h"

/* The limit of -r, PMC_RUN_MAX_REPEAT as a string for messages. */
#define STAT_MAX_REPEAT PMC_RUN_MAX_REPEAT
#define STAT_MAX_REPEAT_STR "1000000"
#define STAT_MAX_MS 3600000 /* an hour: -I and -D */
_Static_assert(PMC_RUN_MAX_REPEAT == 1000000, "STAT_MAX_REPEAT_STR names the limit");

enum stat_format { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_HTML };

/*
 * The keys of the options of live counting and units (stat-args.c), past those of cmd-stat.c's
 * own enum so that both can grow.
 */
enum stat_mode_key {
	O_PER_THREAD = CLI_LONG_ONLY + 100,
	O_REGION_PER_THREAD,
	O_PER_CORE,
	O_PER_SOCKET,
	O_PER_DIE,
	O_FILTER,
	O_CONTROL,
	O_PRE,
	O_POST,
	O_CPUTYPE,
	O_HYBRID_MERGE,
};

struct stat_opts {
	char **events; /* -e strings, in order */
	size_t nr_events;
	bool default_events; /* no -e: perf stat's default set */
	int repeat;	     /* -r */
	bool no_warmup;
	bool plan_only;
	bool dry_run; /* --dry-run: print the perf_event_open calls (-vv: with attrs), make none */
	bool multiplex;
	bool no_merge; /* --no-merge: each PMU unit's line (perf's) */
	double level;  /* confidence level, 0.95 */
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
	bool region_per_thread; /* --region-per-thread (PMC_PER_THREAD=1): regions per thread */
	bool subtract_overhead;
	const char *calibration; /* --calibration=FILE, NULL: this machine's default */
	const char *trust;	 /* --trust=FILE, NULL: this machine's default, "none": none */
	char **argv;		 /* the command */
	/* live counting and units (stat-args.c) */
	int interval_ms;	/* -I */
	enum pmc_run_aggr aggr; /* -A, --per-core, --per-socket, --per-thread */
	bool per_thread;	/* --per-thread: perf's, values per thread */
	const char *tids;	/* -t */
	const char *cgroup;	/* -G */
	char **filters;		/* [nr_filters]: --filter after each -e (owned), or NULL */
	size_t nr_filters;
	bool null_run;		    /* --null */
	int detailed;		    /* -d, -dd, -ddd */
	int delay_ms;		    /* -D (-1: until a control "enable") */
	const char *control;	    /* --control */
	const char *pre, *post;	    /* --pre, --post */
	const char *cputype;	    /* --cputype core|atom: generic events on that core type only */
	bool hybrid_merge;	    /* --hybrid-merge: one line for the core types of an event */
	struct metric_opts metrics; /* -M, --metrics-file, --topdown */
	/* under an MPI launcher (stat-mpi.c) */
	bool under_launcher;
	struct pmc_launcher launcher;
	char *output_owned; /* -o with its %r, %h, %p expanded (output points to it) */
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
	bool strict_stop;      /* --strict stopped the run at an event the kernel refused at open */
	int ctl_fd, ack_fd;    /* --control's descriptors, -1 */
	bool ctl_owned;	       /* opened from FIFOs: pmc stat closes them */
	int iv_pass, iv_rep;   /* the run whose intervals were last printed */
	bool hook_failed;      /* --pre or --post failed (said) */
	struct stat_numfmt nf; /* how the interval lines write numbers */
	FILE *log;	       /* -I with --log-fd: where the interval lines go, or NULL */
	struct pmc_metrics *metrics; /* the selected metrics, NULL when none */
	/* The run's metrics of the whole program, regions and threads, after it (the runner's,
	 * pmc_run__metrics(): stat_metrics__compute()) */
	struct metric_rows rows;
	bool iv_metric_header; /* -I -x: the '#' line of the intervals' metrics was printed */
};

/* The metric set of the options and its events in the list; 0 or an exit status. */
int stat_metrics__build(struct stat_run *run, const struct pmc_evlist_opts *eo);
/* The runner's metric rows of the whole program, regions and threads, in run->rows. */
void stat_metrics__compute(struct stat_run *run);
/*
 * The metrics over events[] (a unit's or an interval's, in the results' order: each unit's and
 * each interval's line gets the metrics of its own values) into *rows, empty without metrics;
 * metric_rows__free() them. 0 or -ENOMEM.
 */
int stat_metrics__of(const struct stat_run *run, const struct pmc_run_event *events,
		     struct metric_rows *rows);
void stat_metrics__delete(struct stat_run *run);

/*
 * stat-args.c: the options of live counting and units. stat_args_apply() takes option c
 * of those without a target (0, or the exit status: 2 for a bad value); stat_args_check()
 * says which combinations cannot be (2) once all are read; stat_args_free() frees filters.
 */
int stat_args_apply(struct stat_opts *o, int c, const char *arg);
int stat_args_check(struct stat_opts *o);
void stat_args_free(struct stat_opts *o);
/*
 * stat-mpi.c: under an MPI launcher, stat_mpi_apply() refuses -r above 1, drops the warm-up
 * and names -o's file per rank; stat_mpi_per_host() leaves per-host events to the host's local
 * rank 0; stat_mpi_check_passes() refuses a plan of several passes. Each returns 0, or the exit
 * status (said).
 */
int stat_mpi_apply(struct stat_opts *o);
int stat_mpi_per_host(const struct stat_opts *o, struct pmc_evlist *evlist);
int stat_mpi_check_passes(const struct stat_opts *o, int nr_passes);
/* The target of the options (stat-args.c): COMMAND, PID, TID or CPUS with its modes. */
void stat_fill_target(const struct stat_opts *o, struct pmc_target *t);

/*
 * stat-live.c: --control's descriptors opened (0, or 1 said), and closed; the runner's hooks
 * of --pre, --post and the messages when counting is switched on or off.
 */
int stat_live_open(struct stat_run *run);
void stat_live_close(struct stat_run *run);
void stat_live_hooks(struct stat_run *run, struct pmc_run_opts *ro);

/* stat-interval.c: the interval lines as they come (the runner's on_interval). */
void stat_print_interval(const struct pmc_run_interval *iv, void *arg);
/*
 * stat-out.c: the lines of units[nr] (CPUs, cores, threads, ...), each event's after before and
 * the unit's label, as stat_print_events() prints them.
 */
void stat_print_units(FILE *f, const struct stat_run *run, const char *before,
		      const struct pmc_run_unit *units, size_t nr, double wall_ns,
		      const struct stat_numfmt *nf);
/*
 * stat-out.c: the lines of the counted ones of events[nr] (a unit's, an interval's), each
 * after prefix (its label, its time), as the summary prints them; wall_ns is what "CPUs
 * utilized" and rates divide by.
 */
void stat_print_events(FILE *f, const struct stat_run *run, const char *prefix,
		       const struct pmc_run_event *events, size_t nr, double wall_ns,
		       const struct stat_numfmt *nf);
/* What the outputs merge (enum pmc_run_merge): units unless --no-merge, core types with
 * --hybrid-merge. */
unsigned stat_merge_by(const struct stat_opts *o);
/* libpmc's views (pmc_stat_views__new()) of run's results, merged as the options say. */
int stat_views__new(const struct stat_run *run, struct pmc_stat_view **out);

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
/* perf's -x lines (sep) or -j lines (sep NULL): libpmc's pmc_run__write_perf() (stat-machine.c). */
void stat_print_machine(FILE *f, const struct stat_run *run, const char *sep);
/*
 * stat-write.c: the place of stderr's outputs (stderr, or a stream on a copy of --log-fd's
 * descriptor; NULL, said, when it cannot be had), and its closing: 1 when what was written
 * to --log-fd did not all go (said), else 0.
 */
FILE *stat_log_open(const struct stat_opts *o);
int stat_log_close(FILE *log, const struct stat_opts *o);
/*
 * The same lines of one interval (-I), each led by its time, then its metrics (with -x a '#'
 * line naming their fields before the first interval's).
 */
void stat_print_machine_interval(FILE *f, struct stat_run *run, const struct pmc_run_interval *iv,
				 const char *sep);
/* The regions' terminal summary (stat-region-out.c). */
void stat_regions__print(FILE *f, const struct stat_run *run);
void stat_print_overhead(FILE *f, const struct stat_run *run);

#endif /* PMC_TOOLS_STAT_H */
