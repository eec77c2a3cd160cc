/* SPDX-License-Identifier: MIT */
/*
 * Metrics in pmc stat and pmc metrics (docs/metrics.md, "In pmc stat"): the set the options
 * select and its messages, and the one printer of both commands; libpmc computes each metric's
 * value and interval (pmc_metric__summarize(), pmc_run__metrics()).
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

/*
 * Adds the events the selected metrics need to evlist (made with eo): pmc_metrics__add_events(),
 * its refusal of a one-off definition's name printed with a caret under it. Returns 0, 2 (that
 * refusal) or 1 (no memory).
 */
int metric_set__add_events(struct pmc_metrics *m, struct pmc_evlist *evlist,
			   const struct pmc_evlist_opts *eo, const char *cmd);

/*
 * The comment of a metric, "#  value unit  name  ( +- x%, method )" and toplev's "<==" when its
 * threshold holds, into buf. Returns buf.
 */
char *metric_comment(char *buf, size_t len, const struct pmc_metric_summary *s);

struct json_t;
/*
 * The metrics of a run (pmc_run__metrics()) or of a file (pmc_run_saved__metrics()): each
 * selected metric for the whole program, each region (thread -1) and each region's thread, and
 * each unit's (unit >= 0), which only the _unit printers print.
 */
struct metric_rows {
	const struct pmc_run_metric_row *v;
	size_t nr;
};

/* Frees rows of one's own (stat_metrics__of()). */
void metric_rows__free(struct metric_rows *rows);
/* The rows of one scope as a JSON array (NULL: no memory). */
struct json_t *metric_rows__json(const struct metric_rows *rows, const char *region, int thread);
/* Every row as CSV lines after a header. */
void metric_rows__csv(FILE *f, const struct metric_rows *rows, const char *sep);
/* The rows of one scope on lines of their own, each after indent, but those printed[i]. */
void metric_rows__print(FILE *f, const struct metric_rows *rows, const char *region, int thread,
			const char *indent, const bool *printed);
/* The rows of unit (its index) on lines of their own, each after indent; as a JSON array. */
void metric_rows__print_unit(FILE *f, const struct metric_rows *rows, long unit,
			     const char *indent);
struct json_t *metric_rows__json_unit(const struct metric_rows *rows, long unit);

#endif /* PMC_TOOLS_STAT_METRIC_H */
