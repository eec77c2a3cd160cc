/* SPDX-License-Identifier: MIT */
/* pmc_merge's state: each rank's values by event, metric and region, and their statistics. */
#ifndef PMC_LIB_MERGE_MERGE_H
#define PMC_LIB_MERGE_MERGE_H

#include <stdbool.h>
#include <jansson.h>
#include <pmc/merge.h>

/* Names in the order first seen (events in the first file's order). */
struct merge_names {
	size_t nr, cap;
	char **names;
	size_t *idx, cap_idx; /* by hash (open addressing): an index into names plus 1, 0 empty */
};

/* One rank's file: its values, NAN where it counted nothing. */
struct merge_file {
	char *path;
	int rank;
	bool stopped_early;
	char stopped_by[32]; /* "SIGTERM", or "" */
	json_t *provenance;  /* the file's own (owned) */
	double *events;	     /* [m->events.nr] */
	double *metrics;     /* [nr_metrics] by m->metrics's index */
	size_t nr_metrics;
	double **regions; /* [nr_regions] by m->regions's index: [m->events.nr] or NULL */
	size_t nr_regions;
};

struct pmc_merge {
	size_t nr_files, cap_files;
	struct merge_file *files; /* sorted by rank at write time */
	char *version, *backend, *launcher;
	bool tagged; /* the files carry MPI tags (all or none) */
	int size;    /* the job's size, -1 when unknown */
	struct merge_names events, metrics, regions;
};

/* The statistics of one series over the ranks that have a value. */
#define MERGE_NR_PCT 5
extern const double pmc__merge_pct[MERGE_NR_PCT]; /* 10, 25, 50, 75, 90 */

struct merge_stat {
	size_t n;
	double sum, min, max, mean, stddev, cv, imbalance, load_balance;
	int min_rank, max_rank;
	double pct[MERGE_NR_PCT];
};

/*
 * stats.c: the statistics of values[i] of rank ranks[i] (NAN: none), n of them, with
 * scratch[n] to sort in. Returns s->n, the values counted.
 */
size_t pmc__merge_stat(const double *values, const int *ranks, size_t n, double *scratch,
		       struct merge_stat *s);

/* read.c: the index of name among names, or -1 (by hash: a file of n names reads in O(n)). */
long pmc__merge_find(const struct merge_names *names, const char *name);

/* One series over the ranks: the values in rank order (NAN: none), and their statistics. */
struct series {
	double *values, *scratch;
	int *ranks;
	struct merge_stat st;
};

/*
 * series.c: fn called for every series in order (events, metrics, each region's events; kind
 * 'e', 'm', 'r', r the region, idx the event or metric), with the files sorted by rank.
 * Returns 0 or -ENOMEM.
 */
typedef void (*pmc__merge_series_fn)(const struct pmc_merge *m, char kind, size_t r, size_t idx,
				     const struct series *s, void *arg);
int pmc__merge_for_series(const struct pmc_merge *m, pmc__merge_series_fn fn, void *arg);
/*
 * Calls fn for each run of missing ranks, first to last (below the job's size, in no file): as
 * many calls as files and one, whatever size a file claims. Files sorted by rank.
 */
#define PMC_MERGE_MAX_LISTED 1000 /* ranks JSON's missing_ranks lists one by one */
void pmc__merge_for_missing(const struct pmc_merge *m, void (*fn)(int first, int last, void *arg),
			    void *arg);

/*
 * per-host.c: the events the files name as counting their whole host (provenance.mpi's
 * per_host_events, counted by each host's local rank 0 only), or NULL; and the text's line
 * that says so.
 */
const json_t *pmc__merge_per_host(const struct pmc_merge *m);
void pmc__merge_per_host_text(const struct pmc_merge *m, FILE *f);

int pmc__merge_write_json(struct pmc_merge *m, FILE *f);

/*
 * The value of series idx of file i: kind 'e' event idx, 'm' metric idx, 'r' region r's
 * event idx; NAN when the file has none.
 */
double pmc__merge_value(const struct merge_file *f, char kind, size_t r, size_t idx);

/* read.c: what doc.c's walk of one file gives the merge. */
struct merge_events {
	char **names;
	double *values;
	size_t nr, cap;
};
/*
 * Checks file f (its provenance and events) against the files before it and keeps
 * its events' values and provenance. Returns 0, -PMC_E_FORMAT, -EINVAL (why says why), -ENOMEM.
 */
int pmc__merge_check(struct pmc_merge *m, struct merge_file *f, json_t *prov,
		     const struct merge_events *ev, char *why, size_t len);
/* Region name's row of values in f, made NAN-filled; NULL with *err (a region twice, -ENOMEM). */
double *pmc__merge_region_row(struct pmc_merge *m, struct merge_file *f, const char *name,
			      int *err);
/* f's value v of metric name. Returns 0 or -ENOMEM. */
int pmc__merge_metric(struct pmc_merge *m, struct merge_file *f, const char *name, double v);
/* read.c: frees what f holds (not f itself). */
void pmc__merge_file_free(struct merge_file *f);
/* read.c: forgets what a first file refused left (names, provenance): the merge as new. */
void pmc__merge_forget(struct pmc_merge *m);
/*
 * doc.c: reads the document buf[len] into f (through the three above). Returns as
 * pmc__merge_check(); a document that is not JSON also fills bad[blen] with where.
 */
int pmc__merge_read(struct pmc_merge *m, struct merge_file *f, const char *buf, size_t len,
		    char *why, size_t why_len, char *bad, size_t blen);

#endif /* PMC_LIB_MERGE_MERGE_H */
