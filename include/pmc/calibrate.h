/* SPDX-License-Identifier: MIT */
/*
 * Calibration (docs/accuracy.md, "`pmc calibrate`"): what measuring costs on this machine,
 * per event and backend. An empty program runs under the runner (its counts per run), the
 * empty regions of pmc-calibrate-regions run under the runner in both marker forms (a
 * process's first entry and the later entries' count per entry), and where the backend
 * counts this process an empty region pair, a read and a start/stop are timed in a child of
 * it. The results go to this machine's calibration file, which pmc stat --subtract-overhead
 * reads.
 */
#ifndef PMC_CALIBRATE_H
#define PMC_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A distribution's histogram: 8 equal bins from its min to its p99, then the rest (> p99). */
#define PMC_CALIBRATE_BINS 9

struct pmc_calibrate_dist {
	size_t n; /* samples (0: not measured; the other fields are 0) */
	double min, median, p90, p99, max;
	double edges[PMC_CALIBRATE_BINS]; /* each bin's lower edge */
	uint64_t counts[PMC_CALIBRATE_BINS];
};

/* One marker form under the runner: counts over the runs. */
struct pmc_calibrate_form {
	struct pmc_calibrate_dist first_entry; /* a process's first entry (lazy binding) */
	struct pmc_calibrate_dist region_pair; /* the later entries' count per entry */
};

/* The empty program under the runner: its count in each run and their summary. */
struct pmc_calibrate_empty {
	int runs;
	double *values; /* [runs] */
	double mean, ci, ci_pct, median, stddev;
};

/*
 * One event's calibration, an entry of the file. Entries belong to their struct
 * pmc_calibrate and are read-only for the caller; fields are only appended in later versions.
 */
struct pmc_calibrate_entry {
	const char *event;   /* as the event list names it */
	const char *backend; /* perf or vpmu */
	unsigned priv;	     /* PMC_PRIV_* the events without :u/:k counted at */
	bool timed;	     /* measured in this process too: the *_ns distributions are set */
	/* an empty region pair, counts per entry: measured in this process where timed, else
	 * the markers by id under the runner (id.region_pair) */
	struct pmc_calibrate_dist pair_counts;
	struct pmc_calibrate_dist pair_ns, read_ns, start_stop_ns; /* ns; timed only */
	struct pmc_calibrate_form id;	 /* pmc_region_begin_n() under the runner */
	struct pmc_calibrate_form named; /* pmc_region_begin(name) under the runner */
	struct pmc_calibrate_empty empty_program;
	const char **set; /* --set: the events counted together, sorted ([nr_set]); else NULL */
	size_t nr_set;
};

struct pmc_calibrate_results {
	size_t nr_entries;
	const struct pmc_calibrate_entry *entries; /* in the order of the events */
	size_t samples;				   /* timed samples per distribution */
	int runs;				   /* runs of each program under the runner */
	const char *empty_program;		   /* its argv[0] */
};

/* What the library has to say while measuring; the caller words it (the library prints nothing). */
enum pmc_calibrate_msg_kind {
	PMC_CALIBRATE_MSG_PLAN,	     /* the passes cannot be planned: err */
	PMC_CALIBRATE_MSG_SKIP,	     /* event cannot be counted here: why (said once) */
	PMC_CALIBRATE_MSG_RUN,	     /* running program failed: err */
	PMC_CALIBRATE_MSG_NO_REGION, /* event: no empty region was counted */
	PMC_CALIBRATE_MSG_MEASURE,   /* event: measuring in this process failed: err */
	PMC_CALIBRATE_MSG_SET_SIZE,  /* set: fewer than two events can be counted here */
};

struct pmc_calibrate_msg {
	enum pmc_calibrate_msg_kind kind;
	const char *event;   /* SKIP, NO_REGION, MEASURE */
	const char *program; /* RUN */
	const char *why;     /* SKIP */
	int err;	     /* PLAN, RUN, MEASURE: negative errno */
};

struct pmc_calibrate_opts {
	size_t sz;		     /* sizeof(struct pmc_calibrate_opts) */
	const char *const *events;   /* the events, each as pmc_evlist__parse() takes it */
	size_t nr_events;	     /* those the empty program cannot count are skipped, said */
	size_t samples;		     /* timed samples per distribution (0: 2000) */
	size_t warmup;		     /* untimed iterations before them (0: 200) */
	int runs;		     /* runs of each program under the runner (0: 20) */
	char *const *empty_argv;     /* the empty program (NULL: true) */
	const char *regions_program; /* pmc-calibrate-regions (required) */
	unsigned region_entries;     /* its empty regions after the first (0: 100) */
	const char *backend;	     /* perf or vpmu (NULL: perf) */
	unsigned priv;		     /* PMC_PRIV_* of events without :u/:k (0: user) */
	bool set; /* the events as one set: each one's region costs beside the others (counts
		   * only; pmc stat --subtract-overhead uses them when it counts exactly these) */
	void (*message)(const struct pmc_calibrate_msg *m, void *arg);
	void *message_arg;
};

struct pmc_calibrate;

/*
 * Recipe:
 *
 *	const char *ev[] = {"page-faults"};
 *	struct pmc_calibrate_opts o = {.sz = sizeof(o), .events = ev, .nr_events = 1,
 *				       .regions_program = path};
 *	err = pmc_calibrate__new(&o, &c);
 *	err = pmc_calibrate__measure(c);
 *	pmc_calibrate__results(c)->entries[0].pair_counts.median ...
 *	err = pmc_calibrate__save(c, NULL);   // this machine's calibration file
 *	pmc_calibrate__delete(c);
 */

/*
 * Parses the events (each alone, then all checked together) with the options' backend and
 * levels. opts is copied; its strings are borrowed until pmc_calibrate__delete(). Returns 0
 * with *out to delete, -EINVAL (no events, no regions program), -ENOMEM, or the parser's
 * error (-PMC_E_PARSE, -PMC_E_UNKNOWN_EVENT, ...).
 */
PMC_API int pmc_calibrate__new(const struct pmc_calibrate_opts *opts, struct pmc_calibrate **out);
PMC_API void pmc_calibrate__delete(struct pmc_calibrate *c);

/*
 * Measures: the empty program, then each event it counted (in a child of this process forked
 * with pmc_fork() where the backend counts this process, and in the regions program under
 * the runner), or with opts.set all of them together. What goes wrong is handed to
 * opts.message. Returns 0, or the first error (nothing is kept then): -PMC_E_EXEC when a
 * program failed, -ENOENT when an event's empty regions were not counted, -EINVAL (--set:
 * fewer than two events), -ENOMEM, or the runner's error.
 */
PMC_API int pmc_calibrate__measure(struct pmc_calibrate *c);

/* The entries measured (none before pmc_calibrate__measure()), owned by c. */
PMC_API const struct pmc_calibrate_results *pmc_calibrate__results(const struct pmc_calibrate *c);

/*
 * Merges the entries into the calibration file at path (NULL: this machine's,
 * pmc_calibration_default_path(); "-": stdout, nothing merged): earlier entries for other
 * events, backends, levels or sets are kept. The file gets this machine's description, the
 * empty program and the schema the entries need ("pmc-calibrate/3" where one is of a set,
 * else /2), in the format of docs/accuracy.md, "`pmc calibrate`"; it is written whole or not at
 * all. Returns 0, -ENOMEM, or the write's error (-ENOSPC, -EACCES, ...).
 */
PMC_API int pmc_calibrate__save(const struct pmc_calibrate *c, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* PMC_CALIBRATE_H */
