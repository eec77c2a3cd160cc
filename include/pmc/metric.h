/* SPDX-License-Identifier: MIT */
/*
 * Metrics: formulas over event counts, in perf's metric-file schema and expression grammar
 * (docs/metrics.md), from the shipped files, users' files and one-off definitions.
 */
#ifndef PMC_METRIC_H
#define PMC_METRIC_H

#include <stdio.h>
#include <pmc/common.h>
#include <pmc/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Usage: a set is made once, before counting; its selection says what to count; each
 * selected metric is evaluated from the counts, as often as there are counts (per
 * repetition, per region):
 *
 *   struct pmc_metrics_opts o = {.sz = sizeof(o), .backend = "perf"};
 *   struct pmc_metric_error err;
 *   struct pmc_metrics *m;
 *
 *   pmc_metrics__new(&o, &err, &m);                          the shipped files
 *   pmc_metrics__load(m, "mine.json", &err);                 --metrics-file FILE
 *   pmc_metrics__define(m, "ipc2 = instructions / cycles", &err); -M 'name = expression'
 *   pmc_metrics__select(m, "insn_per_cycle,Cache", &err);    -M names and groups
 *   pmc_metrics__add_events(m, evlist, &eo, &err);          what to count
 *   ... count: with pmc_run_opts.metrics = m, the runner computes every metric per scope
 *       (pmc_run__metrics()); or, from counts the caller has:
 *   for (size_t i = 0; i < pmc_metrics__nr_selected(m); i++)
 *       pmc_metric__summarize(pmc_metrics__selected(m, i), counts, nr, &so, &summary);
 *       (or pmc_metric__eval() of one value per event)
 *   pmc_metrics__delete(m);
 *
 * A set is not safe for concurrent use: evaluation caches what names resolve to.
 */
struct pmc_metrics; /* a set of metric definitions and the selection made from it */
struct pmc_metric;  /* one definition, owned by its set */

/*
 * Where and why a file, definition, selection or literal was refused. parse is as an event
 * string's error: parse.offset is a byte offset into text (-1 when the fault is not at a
 * place in a text), parse.msg says what was found and expected, parse.suggest holds the
 * closest names to an unknown metric, group, literal, key or constraint. where names the
 * file, entry, metric and field ("my.json: entry 3 (metric 'ipc'): MetricExpr"), or is
 * empty. text is the expression, definition or list the offset is into, for printing a
 * caret under the fault; of a text longer than text holds, the part around the fault (the
 * offset then counts from that part's start).
 */
struct pmc_metric_error {
	struct pmc_parse_error parse;
	char where[256];
	char text[1024];
};

/* Options of pmc_metrics__new() (sz: see "Options structs" in pmc/common.h). */
struct pmc_metrics_opts {
	size_t sz;	     /* sizeof(struct pmc_metrics_opts) */
	const char *backend; /* "perf" (NULL) or "vpmu": which shipped files apply, and #slots */
	/*
	 * A folder to read the shipped files from instead (its index.tsv lists them; a copy of
	 * data/metrics, installed as share/pmc/metrics). NULL: $PMC_METRICS_DIR, else the files
	 * as this libpmc was built with them (compiled in: nothing is read).
	 */
	const char *dir;
	bool no_shipped; /* load no shipped file: only pmc_metrics__load() and __define() */
	/* #slots, issue slots per cycle; 0: the backend's issue width (4 unless it declares one).
	 */
	double slots;
	/* #core_wide: the counts cover whole CPUs (pmc stat -a or -C), and which CPUs (NULL: all).
	 */
	bool system_wide;
	const char *cpu_list;
	/* The value that stands for '?' in event names (perf's runtime parameter); 0 default. */
	int runtime;
};

/*
 * Creates a set holding the shipped files that apply to the backend (data/metrics/index.tsv;
 * docs/metrics.md, "Shipped files"), or none with opts->no_shipped. Returns 0; -ENOMEM;
 * -PMC_E_NOBACKEND; -ENOENT when the folder named by opts->dir or $PMC_METRICS_DIR holds no
 * index.tsv; for a file of that folder that does not load, the code of pmc_metrics__load().
 * err (may be NULL) says what failed. The caller frees the set with pmc_metrics__delete().
 */
PMC_API int pmc_metrics__new(const struct pmc_metrics_opts *opts, struct pmc_metric_error *err,
			     struct pmc_metrics **out);

/* Frees the set and every metric in it (pointers to them become invalid). Accepts NULL. */
PMC_API void pmc_metrics__delete(struct pmc_metrics *m);

/*
 * Adds the metrics of a file in perf's schema: a JSON list of objects with MetricName,
 * MetricExpr, MetricGroup, ScaleUnit, MetricThreshold, BriefDescription, PublicDescription
 * and MetricConstraint (docs/metrics.md, "Files"); objects that describe events (EventName,
 * no MetricName) are skipped. A metric of a name the set already has replaces it (a user's
 * file overrides the shipped one); a name twice in one file is an error. Returns 0; -errno
 * (-ENOENT, -EACCES) or -PMC_E_NOTREG for the file itself; -PMC_E_FORMAT for JSON or
 * schema faults; -PMC_E_EXPR for an expression that does not parse; -ENOMEM. On failure
 * the set is as it was, and err (may be NULL) names the entry and field.
 */
PMC_API int pmc_metrics__load(struct pmc_metrics *m, const char *path,
			      struct pmc_metric_error *err);

/*
 * Adds the metrics of a LIKWID performance group and selects them (docs/metrics.md, "LIKWID
 * groups"): group is the group's file (a path, holding '/' or ".txt"), or a group NAME looked
 * up in $PMC_LIKWID_GROUPS_DIR (default /usr/share/likwid/perfgroups), in the folder of the
 * backend's CPU family (nehalem for vpmu's Core i7 model). Each METRICS line becomes a metric
 * named as the line names it, in a group named as the file, its formula in the engine's
 * grammar: each counter (PMC0, FIXC1) as its EVENTSET event under the backend's name for it
 * (LIKWID's name where the backend has none: the metric is then unavailable with that name),
 * time as duration_time in seconds, inverseClock as 1 / #system_tsc_freq (on vpmu, whose
 * model has no clock, as the name inverseClock: unavailable). A metric of a name the set has
 * replaces it. Returns 0; -errno (-ENOENT, -EACCES) for the file, or -ENOENT for a NAME when
 * no LIKWID CPU family is known for the backend's CPU; -PMC_E_FORMAT with err naming the
 * file and line for a fault in the file, a formula that does not translate or parse
 * included; -ENOMEM. On failure the set is as it was.
 */
PMC_API int pmc_metrics__load_likwid(struct pmc_metrics *m, const char *group,
				     struct pmc_metric_error *err);

/*
 * Defines a one-off metric from "name = expression" (pmc stat -M 'name = expression') and
 * selects it. The name is a letter or '_' then letters, digits, '_' or '.', and replaces a
 * metric of that name. Returns 0; -PMC_E_EXPR with err's offset into def (a name that is
 * not one, no '=', an expression that does not parse); -PMC_E_METRIC_CYCLE when the metric
 * would refer to itself through others (the cycle in err); -ENOMEM. On failure the set is
 * as it was.
 */
PMC_API int pmc_metrics__define(struct pmc_metrics *m, const char *def,
				struct pmc_metric_error *err);

/*
 * Selects metrics by a comma-separated list of names and groups (MetricGroup, whose ';'
 * separates a metric's groups), compared without regard to case; "all" selects every
 * metric. A name matches the metric and, when a group is also so named, the group. Metrics
 * already selected stay selected, in the order first selected. Returns 0;
 * -PMC_E_UNKNOWN_METRIC for a name that is neither, with err's offset into list and the
 * closest names; -PMC_E_METRIC_CYCLE when a selected metric refers to itself through other
 * metrics, with the cycle in err ("a -> b -> a"); -ENOMEM. On failure nothing is selected
 * by this call.
 */
PMC_API int pmc_metrics__select(struct pmc_metrics *m, const char *list,
				struct pmc_metric_error *err);

/* The number of metrics in the set, and the idx-th (definition order), or NULL. */
PMC_API size_t pmc_metrics__nr(const struct pmc_metrics *m);
PMC_API struct pmc_metric *pmc_metrics__at(const struct pmc_metrics *m, size_t idx);
/* The metric of that name (compared without regard to case), or NULL. */
PMC_API struct pmc_metric *pmc_metrics__find(const struct pmc_metrics *m, const char *name);
/* The number of selected metrics, and the idx-th (selection order), or NULL. */
PMC_API size_t pmc_metrics__nr_selected(const struct pmc_metrics *m);
PMC_API struct pmc_metric *pmc_metrics__selected(const struct pmc_metrics *m, size_t idx);

/*
 * The top-down levels the set holds metrics of (perf's groups TopdownL1 to TopdownL9 in a
 * metric's MetricGroup, compared without regard to case): bit N - 1 is set for level N, so
 * that a caller offers only the levels that exist for the backend and CPU. 0 when none.
 */
PMC_API unsigned pmc_metrics__topdown_levels(const struct pmc_metrics *m);

/*
 * The value of a '#' literal on this machine ("#smt_on", "#num_cores", "#slots", ...: the
 * list is in docs/metrics.md), as the set's expressions see it. Returns 0, or -ENOENT for a
 * name that is not a literal, or a negative errno when the machine does not say (the
 * topology of sysfs, read under $PMC_SYSFS_ROOT).
 */
PMC_API int pmc_metrics__literal(struct pmc_metrics *m, const char *name, double *value);

/* What a file or definition says of a metric. Strings are owned by the metric. */
struct pmc_metric_info {
	const char *name;	/* MetricName */
	const char *expr;	/* MetricExpr */
	const char *groups;	/* MetricGroup, ';'-separated; "" when none */
	const char *brief;	/* BriefDescription, or NULL */
	const char *desc;	/* PublicDescription, or NULL */
	double scale;		/* ScaleUnit's factor (100 of "100%"); 1 when none */
	const char *unit;	/* ScaleUnit's unit ("%", "GHz"); "" when none */
	const char *threshold;	/* MetricThreshold, or NULL */
	const char *constraint; /* MetricConstraint ("NO_NMI_WATCHDOG"), or NULL */
	const char *file;	/* the file it was loaded from; NULL for pmc_metrics__define() */
	bool selected;
	/*
	 * PmcExactExpr (pmc's key; docs/metrics.md, "Ground truth"): the same quantity from the
	 * model's exact attribution (vpmu's VPMU_STALLS.*), which pmc_metric__eval() gives with
	 * pmc_metric_eval_opts.exact; NULL when the metric has none.
	 */
	const char *exact;
};

/* The metric's definition; owned by the metric, fields appended in later versions. */
PMC_API const struct pmc_metric_info *pmc_metric__info(const struct pmc_metric *metric);

/* One event a metric needs (pmc_metric__for_each_event()); valid during the call only. */
struct pmc_metric_event {
	/* In pmc's event grammar: perf's '@' as '/', its '\' escapes and '?' resolved. */
	const char *event;
	/*
	 * A value the runner supplies, not a counter: duration_time (wall-clock ns of the
	 * measurement), user_time and system_time (CPU ns of the measured processes).
	 */
	bool tool;
	const struct pmc_metric *metric; /* the (first) selected metric that needs it */
	/*
	 * Only the exact value (PmcExactExpr) needs it, not the formula or its threshold: a
	 * caller that will not show the ground truth may leave it uncounted.
	 */
	bool exact;
};
typedef int (*pmc_metric_event_fn)(const struct pmc_metric_event *ev, void *arg);

/*
 * Walks the events the metric needs, through the metrics it refers to and its threshold, then
 * those its exact value alone needs (marked exact), each once, in the order the formulas name
 * them. An 'A if COND else B' whose COND needs no event ('#smt_on') contributes the branch
 * COND takes on this machine only. A non-zero return of fn stops the walk and is returned;
 * else 0, or -PMC_E_METRIC_CYCLE, -ENOMEM.
 */
PMC_API int pmc_metric__for_each_event(const struct pmc_metric *metric, pmc_metric_event_fn fn,
				       void *arg);
/* pmc_metric__for_each_event() over every selected metric, each event once in all. */
PMC_API int pmc_metrics__for_each_event(const struct pmc_metrics *m, pmc_metric_event_fn fn,
					void *arg);

/*
 * Checks the names the metric's own formula and threshold give (not those of the metrics they
 * refer to) against evlist's backend: each that is neither a metric of the set nor a tool value
 * (duration_time, user_time, system_time) must parse as an event; each is parsed into evlist, a
 * scratch list the caller owns and deletes. For a one-off definition (pmc_metrics__define()),
 * whose names the user typed, an unknown name is a mistake to refuse before anything is
 * counted, where a file's metric is merely unavailable. Returns 0; -PMC_E_UNKNOWN_EVENT (or the
 * parser's other code) with err's offset into the formula or threshold (err->text), the
 * parser's message and closest names; when the name and its neighbours written with '-'
 * between them name an event ('page-faults', which the grammar reads as page minus faults),
 * the message says so and gives the escape to write (page\-faults); -EINVAL; -ENOMEM.
 */
PMC_API int pmc_metric__check_events(const struct pmc_metric *metric, struct pmc_evlist *evlist,
				     struct pmc_metric_error *err);

/*
 * Writes the metric's MetricThreshold as it reads beside the metric's value: each number that
 * a comparison (<, >) sets against a metric with a ScaleUnit is written in that metric's unit
 * ("branch_miss_rate > 0.05" of a metric in 100% as "branch_miss_rate > 5 %"; a threshold
 * reads the unscaled values). buf holds len bytes; "" when the metric has no threshold.
 * Returns 0; -ENOSPC when it was cut; -EINVAL.
 */
PMC_API int pmc_metric__threshold_shown(const struct pmc_metric *metric, char *buf, size_t len);

/* An event's counts, as pmc_metric__eval() asks for them. */
struct pmc_metric_input {
	double value; /* the count (scaled when it was multiplexed) */
	/* source_count(): how many counters were summed into value (uncore units); 0 means 1. */
	double nr_sources;
};
/*
 * Fills *in with the counts of event (as pmc_metric_event's event names it). Returns 0, or
 * a negative code when the event has no count (the backend lacks it, it was not counted),
 * with the reason in why (len bytes) where it has one.
 */
typedef int (*pmc_metric_input_fn)(const char *event, struct pmc_metric_input *in, char *why,
				   size_t len, void *arg);
/*
 * Gives the value of a '#' literal for counts made elsewhere (another machine's saved
 * counts); literal is spelt as docs/metrics.md lists it ("#smt_on", however the formula
 * wrote it). Returns 0, or -ENOENT to take this machine's value.
 */
typedef int (*pmc_metric_literal_fn)(const char *literal, double *value, void *arg);

/* Options of pmc_metric__eval() (sz: see "Options structs" in pmc/common.h). */
struct pmc_metric_eval_opts {
	size_t sz;		       /* sizeof(struct pmc_metric_eval_opts) */
	pmc_metric_input_fn input;     /* required */
	pmc_metric_literal_fn literal; /* optional */
	void *arg;		       /* passed to both */
	/*
	 * Evaluate the metric's exact value (its PmcExactExpr) instead of its formula: the metrics
	 * it refers to give their exact values where they have one, their formulas' otherwise.
	 * A metric without PmcExactExpr is then PMC_METRIC_UNAVAILABLE with the reason.
	 */
	bool exact;
};

enum pmc_metric_status {
	PMC_METRIC_OK,
	/* An input has no count: the backend lacks an event, or it was not counted. */
	PMC_METRIC_UNAVAILABLE,
	/* The formula has no value for these counts: a division by zero, a value out of range. */
	PMC_METRIC_NA,
};

/* A metric's value. The caller sets sz to sizeof; fields past it are not written. */
struct pmc_metric_value {
	size_t sz;
	enum pmc_metric_status status;
	double value;	  /* OK: the formula's value times the ScaleUnit's factor */
	double raw;	  /* OK: the formula's value */
	const char *unit; /* the ScaleUnit's unit, "" when none; owned by the metric */
	/* MetricThreshold: 1 when it holds, 0 when not, -1 when there is none or it has no value.
	 */
	int flagged;
	/* UNAVAILABLE, NA: why, naming the event or the part of the formula ("" when OK). */
	char why[256];
};

/*
 * Evaluates the metric from the counts opts->input gives: status, value with the ScaleUnit
 * applied, and the threshold's verdict (a threshold reads the metrics' unscaled values).
 * A division by zero (but d_ratio(a, 0), which is 0) or a result that is not a finite number
 * is NA with the reason, never an infinity; only the branch an 'if' takes is evaluated.
 * With opts->exact, the same for the metric's exact value (the ground truth under vpmu: the
 * estimate minus it is the formula's error). Returns 0 with *out filled; -EINVAL (no input
 * function, a bad sz); -ENOMEM.
 */
PMC_API int pmc_metric__eval(const struct pmc_metric *metric,
			     const struct pmc_metric_eval_opts *opts, struct pmc_metric_value *out);

/*
 * A metric's value and interval over repetitions (docs/metrics.md, "Statistics").
 *
 * Usage: one pmc_metric_counts per event counted (a run's, a region's, a unit's or an
 * interval's, in any order), then one call per selected metric:
 *
 *   struct pmc_metric_summary_opts so = {.sz = sizeof(so), .level = 0.95};
 *   struct pmc_metric_summary s = {.sz = sizeof(s)};
 *
 *   pmc_metric__summarize(metric, counts, nr, &so, &s);
 *   ... s.v.value, s.ci, s.method, s.values[0 .. s.n) ...
 *   pmc_metric_summary__fini(&s);
 */

/* One event's counts over repetitions, as pmc_metric__summarize() reads them. */
struct pmc_metric_counts {
	const char *name; /* as the list names it ("instructions:W" of a weak group) */
	int pass;	  /* the pass that counted it: inputs of different passes are independent */
	bool counted;
	const char *why;      /* when !counted: why not, or NULL */
	int nr;		      /* repetitions */
	const double *values; /* [nr] */
	bool scaled;	      /* multiplexed: values scaled by running time */
};

/* How a summary's interval was found. */
enum pmc_metric_method {
	PMC_METRIC_ONE_RUN, /* one repetition: no interval */
	PMC_METRIC_PER_REP, /* inputs of one pass: the Student-t interval of the repetitions' values
			     */
	PMC_METRIC_DELTA,   /* inputs of several passes, or scaled: the delta method */
};

/* Options of pmc_metric__summarize() (sz: see "Options structs" in pmc/common.h). */
struct pmc_metric_summary_opts {
	size_t sz;    /* sizeof(struct pmc_metric_summary_opts) */
	double level; /* confidence level of the interval (0: 0.95) */
	/* The '#' literals of the machine that counted (saved counts); NULL: this machine's. */
	pmc_metric_literal_fn literal;
	void *literal_arg;
};

/*
 * A metric's value over counts. The caller sets sz to sizeof; the library owns values
 * (pmc_metric_summary__fini()).
 */
struct pmc_metric_summary {
	size_t sz;
	const struct pmc_metric *metric;
	/* Of the inputs' means: value, unit, threshold's verdict, status and why (status
	 * UNAVAILABLE: an input was not counted; NA: the formula has no value). */
	struct pmc_metric_value v;
	double ci;     /* half-width of the interval, in the metric's unit (0: none) */
	double ci_pct; /* ci as a percentage of |value| (0 when the value is 0) */
	enum pmc_metric_method method;
	int n;		/* the repetitions it comes from (the fewest of its inputs) */
	double *values; /* PER_REP: each repetition's value ([n]); else NULL */
	/*
	 * The input printed first: its index into the counts given, -1 when none; nr and above
	 * for an event the backend does not know (pmc_metrics__add_events()), in that order.
	 */
	long first;
	char inputs[512]; /* the events it reads, ", "-separated, as the formula names them */
	/*
	 * The model's exact answer (PmcExactExpr, under vpmu) at the inputs' means, when the
	 * metric has one: its value (exact.status OK) or why it has none. An exact backend's
	 * value has no interval of its own: the estimate's interval is the runs' spread.
	 */
	bool has_exact;
	struct pmc_metric_value exact;
};

/*
 * Computes the metric over counts[0..nr) into *out: the value at the inputs' means; when the
 * inputs were counted in one pass, unscaled, over n >= 2 repetitions, the Student-t interval
 * of each repetition's value at opts->level; otherwise (passes, multiplexing) an interval
 * propagated from each pass's variance by the delta method, with Welch-Satterthwaite's
 * degrees of freedom. An input the counts lack, or an event pmc_metrics__add_events() found
 * unknown to the backend, makes the metric UNAVAILABLE with the reason. opts may be NULL.
 * Returns 0; -EINVAL (a bad sz); -ENOMEM, and then out holds nothing to free.
 */
PMC_API int pmc_metric__summarize(const struct pmc_metric *metric,
				  const struct pmc_metric_counts *counts, size_t nr,
				  const struct pmc_metric_summary_opts *opts,
				  struct pmc_metric_summary *out);
/* Frees what pmc_metric__summarize() allocated in s. Accepts NULL. */
PMC_API void pmc_metric_summary__fini(struct pmc_metric_summary *s);
/* The method's name in the outputs: "one run", "per-repetition", "delta method". */
PMC_API const char *pmc_metric_method__name(enum pmc_metric_method m);

/*
 * A summary as docs/stat-output.md's "Metrics" JSON object (compact, numbers to 17 digits),
 * into *out, which the caller frees with free(). Returns 0, -EINVAL or -ENOMEM.
 */
PMC_API int pmc_metric_summary__json(const struct pmc_metric_summary *s, char **out);
/*
 * docs/stat-output.md's "Metrics" CSV: the header line naming the fields, and a summary's line
 * (region NULL: none; thread -1: all), fields separated by sep and quoted where they hold it, a
 * quote or a line break (RFC 4180).
 */
PMC_API void pmc_metric_summary__csv_header(FILE *f, const char *sep);
PMC_API void pmc_metric_summary__csv(FILE *f, const struct pmc_metric_summary *s, const char *sep,
				     const char *region, int thread);

/*
 * Adds the events the selected metrics of m need to evlist (made with eo; the caller plans
 * it after), each not already there: a metric's counter events as one weak group ({...}:W,
 * together in a pass when they fit), each tool event and each counter the backend refuses
 * alone. An event that does not parse on this backend is not added: the set keeps it with the
 * reason, and the metrics that need it are UNAVAILABLE with it (pmc_metric__summarize()). A
 * name of a one-off definition (pmc_metrics__define()) that is no event here is refused
 * first, and nothing is added: -PMC_E_UNKNOWN_EVENT (or the parser's code) with err (may be
 * NULL) as pmc_metric__check_events() fills it, err->where naming the definition
 * ("-M 'name = ...'"). Returns 0, that error, -EINVAL or -ENOMEM.
 */
PMC_API int pmc_metrics__add_events(struct pmc_metrics *m, struct pmc_evlist *evlist,
				    const struct pmc_evlist_opts *eo, struct pmc_metric_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PMC_METRIC_H */
