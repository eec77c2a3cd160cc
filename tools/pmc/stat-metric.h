/* SPDX-License-Identifier: MIT */
/*
 * Metrics in pmc stat and pmc metrics (docs/metrics.md, "In pmc stat"): the set the options
 * select, the events it adds to the list, each metric's value and interval from the counts
 * of a run or of a saved results file, and the one printer of both commands.
 */
#ifndef PMC_TOOLS_STAT_METRIC_H
#define PMC_TOOLS_STAT_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <pmc/pmc.h>

/* What -M, --metrics-file, --likwid-group and --topdown said, in order given. */
struct metric_opts {
	char **select; /* -M strings: "name = expr" defines, else names and groups */
	size_t nr_select;
	char **files; /* --metrics-file */
	size_t nr_files;
	char **likwid; /* --likwid-group */
	size_t nr_likwid;
	bool topdown; /* --topdown */
	int td_level; /* --td-level: its level, 0 for 1 */
	const char *backend;
	double level; /* confidence level */
};

/* Whether any metric was asked for. */
bool metric_opts__any(const struct metric_opts *o);
/* Adds one -M or --metrics-file value; 0 or -1 (no memory). */
int metric_opts__add(char ***list, size_t *nr, const char *arg);

/*
 * The set of o: the shipped files (and o's files), the definitions, the selection. Prints
 * what is wrong to stderr, prefixed with cmd. Returns 0, 2 (a usage error: unknown name,
 * bad definition, no top-down group) or 1.
 */
int metric_set__new(const struct metric_opts *o, const char *cmd, struct pmc_metrics **out);

/* An event a metric needs that the backend does not know, and why. */
struct metric_absent {
	char event[128];
	char why[256];
};

/*
 * Adds the events the selected metrics need to evlist (made with eo), each not already there:
 * a metric's counter events as one weak group ({...}:W, together in a pass when they fit),
 * the tool events and the counters the backend refuses alone. An event that does not parse
 * on this backend is not added but appended to *absent (free() it), and its metrics show
 * unavailable; a name of a one-off definition (-M 'name = expression') that is no event here
 * is refused first, with a caret under it, and nothing is added. Returns 0, 2 (that refusal)
 * or 1 (no memory).
 */
int metric_set__add_events(struct pmc_metrics *m, struct pmc_evlist *evlist,
			   const struct pmc_evlist_opts *eo, const char *cmd,
			   struct metric_absent **absent, size_t *nr_absent);

/* One event's counts as the computations read them: of a run, a region cell, a saved file. */
struct metric_input {
	const char *name; /* as the list names it ("instructions:W" of a weak group) */
	int pass;
	bool counted;
	const char *why; /* when !counted, or NULL */
	int nr;
	const double *values; /* [nr] */
	bool scaled;	      /* multiplexed: values scaled by running time */
};

struct metric_counts {
	size_t nr;
	const struct metric_input *in;
	double level;
	/* The '#' literals of the machine that counted (pmc metrics: the file's), as
	 * pmc_metric_eval_opts.literal gives them; NULL: this machine's. */
	pmc_metric_literal_fn literal;
	void *literal_arg;
};

enum metric_method {
	METRIC_ONE_RUN, /* one repetition: no interval */
	METRIC_PER_REP, /* inputs of one pass: the interval of the repetitions' values */
	METRIC_DELTA,	/* inputs of several passes, or scaled: the delta method */
};

/* A metric's value over counts. */
struct metric_result {
	const struct pmc_metric *metric;
	struct pmc_metric_value v; /* value, unit, flagged, status and why */
	double ci, ci_pct; /* half-width of the interval, in the metric's unit; % of value */
	enum metric_method method;
	int n;		  /* the repetitions it comes from */
	double *values;	  /* per-repetition: each repetition's value (n of them), else NULL */
	long first;	  /* the input printed first: its index in counts, -1 when none */
	char inputs[512]; /* the events it reads, ", "-separated, as the formula names them */
	/* The model's exact answer (PmcExactExpr, under vpmu) at the inputs' means, when the
	 * metric has one: its value (status OK) or why it has none. */
	bool has_exact;
	struct pmc_metric_value exact;
};

/* Computes metric over c into *out (its values are out's: metric_result_free()). Returns 0
 * or -ENOMEM, and then out holds nothing to free. */
int metric_compute(const struct pmc_metric *metric, const struct metric_counts *c,
		   struct metric_result *out);
/* Frees what metric_compute() allocated in r. */
void metric_result_free(struct metric_result *r);
/* The method's name in the outputs: "one run", "per-repetition", "delta method". */
const char *metric_method__name(enum metric_method m);

/*
 * The comment of a metric, "#  value unit  name  ( +- x%, method )" and toplev's "<==" when its
 * threshold holds, into buf. Returns buf.
 */
char *metric_comment(char *buf, size_t len, const struct metric_result *r);

/* A metric as a JSON object of docs/stat-output.md's fields ("n" included); NULL: no memory. */
struct json_t;
struct json_t *metric_json(const struct metric_result *r);
/* A text field: as it is, unless it holds the separator, a quote or a line break (RFC 4180). */
void stat_csv_field(FILE *f, const char *s, const char *sep);
/* The CSV header of metric_csv()'s fields, and one metric as a line (thread -1: all). */
void metric_csv_header(FILE *f, const char *sep);
void metric_csv(FILE *f, const struct metric_result *r, const char *sep, const char *region,
		int thread);

/* The metrics of a run or a file: each selected metric for the whole program, each region
 * (thread -1) and each region's thread. region is NULL for the whole program, and is the
 * caller's (it outlives the rows). */
struct metric_row {
	const char *region;
	int thread;
	struct metric_result r;
};
struct metric_rows {
	struct metric_row *v;
	size_t nr;
};

/* Adds a row per selected metric of m over c. Returns 0 or -ENOMEM. */
int metric_rows__add(struct metric_rows *rows, const struct pmc_metrics *m,
		     const struct metric_counts *c, const char *region, int thread);
void metric_rows__free(struct metric_rows *rows);
/* The rows of one scope as a JSON array (NULL: no memory). */
struct json_t *metric_rows__json(const struct metric_rows *rows, const char *region, int thread);
/* Every row as CSV lines after a header. */
void metric_rows__csv(FILE *f, const struct metric_rows *rows, const char *sep);
/* The rows of one scope on lines of their own, each after indent, but those printed[i]. */
void metric_rows__print(FILE *f, const struct metric_rows *rows, const char *region, int thread,
			const char *indent, const bool *printed);

/* pmc list metrics [WORD] (list-metrics.c): the backend's metrics, as text or JSON. */
int list_metrics(const char *backend, const char *word, bool json);

#endif /* PMC_TOOLS_STAT_METRIC_H */
