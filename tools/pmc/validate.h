/* SPDX-License-Identifier: MIT */
/* pmc validate: the options, the text table, and sampling mode (include/pmc/validate.h does the
 * rest). */
#ifndef PMC_TOOLS_VALIDATE_H
#define PMC_TOOLS_VALIDATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include <pmc/pmc.h>
#include <pmc/validate.h>

enum { VALIDATE_TEXT, VALIDATE_CSV, VALIDATE_JSON };

struct validate_opts {
	const char *backend, *output, *kernels_arg;
	const char *trust; /* --trust: NULL this machine's file, "none" none */
	unsigned priv;	   /* --user/--kernel: levels of events without :u/:k (pmc stat's: user) */
	char **events;
	size_t nr_events;
	bool quick, sampling; /* sampling: --mode=sampling */
	bool dry_run;	      /* --dry-run: print the perf_event_open calls, count nothing */
	int verbose;	      /* -v: with --dry-run -vv, the attrs too */
	int repeat, fmt;      /* fmt: VALIDATE_* */
	int seeds, skid;      /* sampling: runs per period; vpmu's --skid for the imprecise run */
};

/* Sampling mode: periods per event (the count over 25, 100 and 400 samples a run). */
#define VALIDATE_NR_PERIODS 3
/* vpmu's jitter in sampling mode, percent of the period: the estimator's Poisson condition. */
#define VALIDATE_JITTER 50

struct vperiod {
	uint64_t period;
	int nr; /* runs checked */
	struct pmc_count_estimate *est;
	struct pmc_sampling_check *checks;
	struct pmc_sampling_summary sum;
	double mean_samples;
};

/* Sampling mode's result for one row (one event of one kernel). */
struct vsampling {
	const struct pmc_validate_row *row;
	long size;
	double counted;
	struct vperiod periods[VALIDATE_NR_PERIODS];
	bool have_skid;
	struct pmc_skid skid;
	char why[320]; /* not sampled, or a run that failed: why */
};

/* The results as the text table of docs/accuracy.md. Returns 0, or -EIO. */
int validate_write_text(FILE *f, const struct pmc_validate *v);

/* A CSV field (quoted where it must be), a number's field (empty for NAN), a JSON number or null
 * for NAN. */
void validate_csv_field(FILE *f, const char *s, bool last);
void validate_csv_num(FILE *f, double v);
json_t *validate_json_num(double v);
/* Writes root (a results file) indented, then a newline, and drops it. Returns 0 or -1. */
int validate_json_dump(FILE *f, json_t *root);

/*
 * Sampling mode: counts each row at its kernel's largest size (v made with largest_only), then
 * records it at VALIDATE_NR_PERIODS periods x o->seeds seeds (*out[i] for row i); under vpmu also
 * the skid. Returns 0, or 1 when nothing can go on.
 */
int validate_sampling(const struct validate_opts *o, struct pmc_validate *v,
		      struct vsampling **out);
void validate_sampling_free(struct vsampling *s, size_t n);
/* Its results as a table, CSV or JSON (pmc-validate/1 with "mode": "sampling"). */
int validate_sampling_write(FILE *f, const struct validate_opts *o, const struct pmc_validate *v,
			    const struct vsampling *s);

#endif
