/* SPDX-License-Identifier: MIT */
/* pmc validate: the kernels' predictions, the fit of what was counted, and its verdict. */
#ifndef PMC_TOOLS_VALIDATE_H
#define PMC_TOOLS_VALIDATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include <pmc/pmc.h>

#define VALIDATE_MAX_SIZES 8

/* The verdicts of docs/accuracy.md, "Classes". */
enum vclass {
	VCLASS_EXACT,
	VCLASS_BIAS,
	VCLASS_MULTIPLICATIVE,
	VCLASS_RANDOM,
	VCLASS_UNKNOWN,
	VCLASS_UNSUPPORTED,
};

/* One prediction of one kernel (a row of pmc-kernels --list) and what was made of it. */
struct vrow {
	char *kernel, *event;
	char *quantity;	 /* what the kernel predicts: a quantity of data/validate/events.tsv, or
			  * the event itself; event is what counts it here (validate_resolve()) */
	bool no_event;	 /* the CPU has no event for the quantity (an unsupported row)
			  */
	char backend[8]; /* the backend the row is for: any, perf or vpmu */
	double per_size; /* predicted count per unit of the size; NAN: reported, not predicted */
	double startup;	 /* what the start-up adds; NAN: an unknown constant */
	unsigned priv;	 /* the levels the event counted at (pmc_evsel__priv()), the trust key */
	long sizes[VALIDATE_MAX_SIZES], quick[VALIDATE_MAX_SIZES];
	int nr_sizes, nr_quick;
	/* filled by the run: one point per size and repetition */
	int nr;
	double *x, *y; /* predicted, reported */
	double *pf;    /* page-faults counted alongside ([nr]), or NULL */
	double *irq;   /* interrupts counted alongside ([nr], plan->irq_source), or NULL */
	/* filled by validate_fit() */
	enum vclass cls;
	char why[320]; /* unsupported or unknown: why; else a note (may be empty) */
	double factor, factor_ci, overhead, overhead_ci, resid_sd;
	double bias;			/* overhead - startup (NAN when the start-up is unknown) */
	double big_x, big_mean, big_ci; /* the largest size's prediction and reported mean */
	double pf_r, irq_r;		/* the residuals' correlation with pf and irq; NAN: none */
};

struct vplan {
	struct vrow *rows;
	size_t nr_rows;
	double level;
	const char *irq_source; /* how interrupts were counted (VALIDATE_IRQ_*), or NULL */
};

/* The interrupts counted alongside: on the run's CPU, from these tracepoints where they can be
 * opened (their sum), else the system's /proc/interrupts around each repetition. */
#define VALIDATE_IRQ_EVENTS "irq:irq_handler_entry", "irq_vectors:local_timer_entry"
#define VALIDATE_IRQ_TP "irq:irq_handler_entry + irq_vectors:local_timer_entry"
#define VALIDATE_IRQ_PROC "/proc/interrupts (every CPU)"

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
	const struct vrow *row;
	long size;
	double counted;
	struct vperiod periods[VALIDATE_NR_PERIODS];
	bool have_skid;
	struct pmc_skid skid;
	char why[320]; /* not sampled, or a run that failed: why */
};

/*
 * Runs plan->rows[first..end) (one kernel's) at each size through the library's runner and
 * stores their points; a row the backend refuses becomes unsupported, a kernel that cannot
 * start or crashes makes its rows unknown with why. *provenance: pmc stat's, from the first
 * run that counted. Returns 0, or 1 when nothing can go on.
 */
int validate_run_kernel(const struct validate_opts *o, const char *prog, struct vplan *plan,
			size_t first, size_t end, json_t **provenance);

/*
 * The trust file (o->trust, else this machine's) made ready before anything runs
 * (pmc_data_file_prepare()). Returns 0, or 1 with a message.
 */
int validate_check_trust(const struct validate_opts *o);
/* Merges the verdicts into the trust file (o->trust). Returns 0, or 1 with a message. */
int validate_save_trust(const struct validate_opts *o, const struct vplan *plan);

/* The kernels program: $PMC_KERNELS, else the install tree's, else the build tree's. */
const char *validate_kernels_path(void);
/* Reads pmc-kernels --list into plan->rows. Returns 0 or 1 with a message on stderr. */
int validate_load(const char *prog, struct vplan *plan);
void validate_free(struct vplan *plan);
/*
 * Each row's event for the backend (vpmu) or the perf backend's CPU model
 * (data/validate/events.tsv); a quantity without one here makes its row unsupported, "no event
 * for QUANTITY on this CPU (MODEL)". Returns 0 or -ENOMEM.
 */
int validate_resolve(struct vplan *plan, const char *backend);
/* --dry-run: each kernel's events, planned as pmc stat --dry-run plans them. Returns 0 or 1. */
int validate_dry_run(const struct validate_opts *o, const char *prog, struct vplan *plan);

/* Fits reported = factor x predicted + overhead over r's points and classifies them; notes
 * residuals that follow the page faults or interrupts (counted as irq_source says). */
void validate_fit(struct vrow *r, double level, const char *irq_source);
const char *vclass_name(enum vclass c);

/* The results as a table, CSV or JSON ("pmc-validate/1"; provenance is pmc stat's). */
int validate_write(FILE *f, const struct vplan *plan, int fmt, json_t *provenance);

/* A CSV field (quoted where it must be), a number's field (empty for NAN), a JSON number or null
 * for NAN. */
void validate_csv_field(FILE *f, const char *s, bool last);
void validate_csv_num(FILE *f, double v);
json_t *validate_json_num(double v);
/* Writes root (a results file) indented, then a newline, and drops it. Returns 0 or -1. */
int validate_json_dump(FILE *f, json_t *root);

/*
 * Sampling mode: counts each row at its kernel's largest size, then records it at
 * VALIDATE_NR_PERIODS periods x o->seeds seeds (*out[i] for plan->rows[i]); under vpmu also
 * the skid. Returns 0, or 1 when nothing can go on.
 */
int validate_sampling(const struct validate_opts *o, struct vplan *plan, struct vsampling **out,
		      json_t **provenance);
void validate_sampling_free(struct vsampling *s, size_t n);
/* Its results as a table, CSV or JSON (pmc-validate/1 with "mode": "sampling"). */
int validate_sampling_write(FILE *f, const struct validate_opts *o, const struct vplan *plan,
			    const struct vsampling *s, json_t *provenance);

#endif
