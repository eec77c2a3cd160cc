/* SPDX-License-Identifier: MIT */
/*
 * Validation (docs/accuracy.md): kernels whose counts follow from their construction run at
 * several sizes through the runner; each event's counts are fitted against the predictions,
 * reported = factor x predicted + overhead, and classified. The verdicts go to this machine's
 * trust file ("pmc-trust/1"), where pmc stat, libpmc-mpi and any library user look them up.
 */
#ifndef PMC_VALIDATE_H
#define PMC_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pmc/common.h>
#include <pmc/report.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The verdicts of docs/accuracy.md, "Classes", worst last among the first four. */
enum pmc_validate_class {
	PMC_VALIDATE_EXACT,
	PMC_VALIDATE_BIAS,
	PMC_VALIDATE_MULTIPLICATIVE,
	PMC_VALIDATE_RANDOM,
	PMC_VALIDATE_UNKNOWN,
	PMC_VALIDATE_UNSUPPORTED,
};

/* The class's name in the outputs and the trust file ("exact", ...); "?" out of range. */
PMC_API const char *pmc_validate_class_name(enum pmc_validate_class c);

#define PMC_VALIDATE_MAX_SIZES 8

/*
 * One prediction of one kernel (a row of pmc-kernels --list) and what was made of it. Rows
 * belong to their struct pmc_validate and are read-only for the caller; fields are only
 * appended in later versions.
 */
struct pmc_validate_row {
	char *kernel, *event;
	char *quantity;	 /* what the kernel predicts: a quantity of data/validate/events.tsv, or
			  * the event itself; event is what counts it here */
	bool no_event;	 /* the CPU has no event for the quantity (an unsupported row) */
	char backend[8]; /* the backend the row is for: any, perf or vpmu */
	double per_size; /* predicted count per unit of the size; NAN: reported, not predicted */
	double startup;	 /* what the start-up adds; NAN: an unknown constant */
	unsigned priv;	 /* the levels the event counted at (pmc_evsel__priv()), the trust key */
	long sizes[PMC_VALIDATE_MAX_SIZES], quick[PMC_VALIDATE_MAX_SIZES];
	int nr_sizes, nr_quick;
	/* filled by pmc_validate__count(): one point per size and repetition */
	int nr;
	double *x, *y; /* predicted, reported */
	double *pf;    /* page-faults counted alongside ([nr]), or NULL */
	double *irq;   /* interrupts counted alongside ([nr]), or NULL */
	/* filled by pmc_validate__fit() */
	enum pmc_validate_class cls;
	char why[320]; /* unsupported or unknown: why; else a note (may be empty) */
	double factor, factor_ci, overhead, overhead_ci, resid_sd;
	double bias;			/* overhead - startup (NAN when the start-up is unknown) */
	double big_x, big_mean, big_ci; /* the largest size's prediction and reported mean */
	double pf_r, irq_r;		/* the residuals' correlation with pf and irq; NAN: none */
};

/*
 * Before each size of each kernel is counted (event NULL), and before each row is sampled
 * (event set: seeds runs at each of periods periods).
 */
struct pmc_validate_progress {
	const char *kernel;
	long size;
	int repeat;
	const char *event;
	int seeds, periods;
};

struct pmc_validate_opts {
	size_t sz;	     /* sizeof(struct pmc_validate_opts) */
	const char *backend; /* perf or vpmu (NULL: perf) */
	const char *kernels; /* the kernels program (NULL: pmc_validate_kernels_path()) */
	unsigned priv;	     /* PMC_PRIV_* of events without :u/:k (0: user, as pmc stat's) */
	double level;	     /* confidence level of the intervals (0: 0.95) */
	int repeat;	     /* repetitions at each size (0: 3, quick 1) */
	bool quick;	     /* the quick plan: fewer sizes (docs/accuracy.md) */
	bool largest_only;   /* count each kernel at its largest size only (sampling mode) */
	void (*progress)(const struct pmc_validate_progress *p, void *arg);
	void *progress_arg;
};

struct pmc_validate;

/*
 * Recipe:
 *
 *	struct pmc_validate_opts o = {.sz = sizeof(o), .backend = "vpmu"};
 *	err = pmc_validate__new(&o, &v);               // the kernels' plan
 *	err = pmc_validate__select(v, keep, arg);       // optional: some kernels or events
 *	err = pmc_validate__count(v);                   // the runs
 *	pmc_validate__fit(v);                           // the classes
 *	pmc_validate__row(v, i)->cls ...
 *	err = pmc_validate__write(v, f, PMC_VALIDATE_FORMAT_JSON);
 *	err = pmc_validate__save_trust(v, NULL);        // this machine's trust file
 *	pmc_validate__delete(v);
 *
 * Every call that fails leaves a message in pmc_validate__why(v).
 */

/*
 * The kernels program: $PMC_KERNELS, else the install tree's libexec/pmc/pmc-kernels found
 * relative to libpmc, else the build tree's. A static string.
 */
PMC_API const char *pmc_validate_kernels_path(void);

/*
 * Reads the kernels' predictions (pmc-kernels --list) and resolves each one's event on the
 * backend (data/validate/events.tsv): a quantity without an event on this CPU makes its row
 * unsupported. Every kernel's rows are kept, those of the other backend too (see
 * pmc_validate__select()). Returns 0 with *out to delete, -ENOMEM, or -PMC_E_EXEC when the
 * program cannot be run or prints a malformed list; why (len bytes, may be NULL) says what.
 */
PMC_API int pmc_validate__new(const struct pmc_validate_opts *opts, struct pmc_validate **out,
			      char *why, size_t len);
PMC_API void pmc_validate__delete(struct pmc_validate *v);

/*
 * Keeps the rows keep() says yes to (keep NULL: all) among those of the backend in use; the
 * others are dropped. Returns 0.
 */
PMC_API int pmc_validate__select(struct pmc_validate *v,
				 bool (*keep)(const struct pmc_validate_row *r, void *arg),
				 void *arg);

PMC_API size_t pmc_validate__nr_rows(const struct pmc_validate *v);
/* Row idx (< pmc_validate__nr_rows()), owned by v. */
PMC_API const struct pmc_validate_row *pmc_validate__row(const struct pmc_validate *v, size_t idx);
/* The confidence level, and how interrupts were counted alongside (NULL: not counted). */
PMC_API double pmc_validate__level(const struct pmc_validate *v);
PMC_API const char *pmc_validate__irq_source(const struct pmc_validate *v);
/* The last failure's message (empty when none). */
PMC_API const char *pmc_validate__why(const struct pmc_validate *v);

/*
 * Runs each kernel at each size through the runner, counting its events with page-faults and
 * interrupts alongside. A row the backend refuses becomes unsupported, a kernel that cannot
 * start or crashes makes its rows unknown, each with why. Returns 0, or -ENOMEM, -EINVAL (a
 * kernel with more than 64 events) or the runner's error when nothing can go on.
 */
PMC_API int pmc_validate__count(struct pmc_validate *v);

/*
 * Fits reported = factor x predicted + overhead over each row's points and classifies them
 * (docs/accuracy.md, "Classes"), noting residuals that follow the page faults or interrupts.
 */
PMC_API void pmc_validate__fit(struct pmc_validate *v);

/*
 * Writes what each kernel would count without counting anything: its events and the calls
 * that count them at its first size, as pmc stat --dry-run does (attrs: with their attrs).
 * Returns 0, or -EOPNOTSUPP where the backend cannot describe its calls, or the error.
 */
PMC_API int pmc_validate__dry_run(struct pmc_validate *v, FILE *f, bool attrs);

enum pmc_validate_format {
	PMC_VALIDATE_FORMAT_CSV,
	PMC_VALIDATE_FORMAT_JSON, /* schema "pmc-validate/1" */
};

/* The results as CSV or JSON (docs/accuracy.md, "Output"). Returns 0 or -EIO, -ENOMEM. */
PMC_API int pmc_validate__write(const struct pmc_validate *v, FILE *f,
				enum pmc_validate_format fmt);

/*
 * pmc stat's JSON provenance of the first run that counted, with the kernels program for its
 * command, as JSON text; NULL before any. Owned by v.
 */
PMC_API const char *pmc_validate__provenance(const struct pmc_validate *v);

/*
 * Merges the verdicts into the trust file at path (NULL: this machine's,
 * pmc_trust_default_path()): this machine's entries for other backends, kernels, events or
 * levels are kept, a file made on another CPU or kernel is replaced whole; the file is
 * written whole or not at all. Rows without an event are left out. Returns 0, -ENOMEM, or the
 * write's error (-ENOSPC, -EACCES, ...).
 */
PMC_API int pmc_validate__save_trust(struct pmc_validate *v, const char *path);

/*
 * Sampling mode (docs/accuracy.md, "Sampling mode"): each row counted once at its kernel's
 * largest size (a plan made with largest_only, then pmc_validate__count()), then recorded at
 * PMC_VALIDATE_NR_PERIODS periods (the count over 25, 100 and 400 samples a run) and seeds
 * seeds; each recording's k*S estimate is checked against the count, the checks of a period
 * summarised; under vpmu a precise and an imprecise recording measure the skid.
 */
#define PMC_VALIDATE_NR_PERIODS 3
/* vpmu's jitter in sampling mode, percent of the period: the estimator's Poisson condition. */
#define PMC_VALIDATE_JITTER 50

struct pmc_validate_period {
	uint64_t period;
	int nr;				   /* runs checked */
	struct pmc_count_estimate *est;	   /* [nr] */
	struct pmc_sampling_check *checks; /* [nr] */
	struct pmc_sampling_summary sum;
	double mean_samples;
};

/* One row's sampling, owned by its struct pmc_validate; fields are only appended. */
struct pmc_validate_sampling {
	const struct pmc_validate_row *row;
	long size;
	double counted;
	struct pmc_validate_period periods[PMC_VALIDATE_NR_PERIODS];
	bool have_skid;
	struct pmc_skid skid;
	int skid_instructions; /* vpmu's --skid of the imprecise recording */
	char why[320];	       /* not sampled, or a run that failed: why */
};

struct pmc_validate_sampling_opts {
	size_t sz; /* sizeof(struct pmc_validate_sampling_opts) */
	int seeds; /* runs a period, seeds 1 to seeds under vpmu (0: 10) */
	int skid;  /* vpmu: the imprecise recording's skid in instructions (0: 3) */
};

/*
 * Samples each counted row (pmc_validate__count() first). Recordings go to a temporary folder
 * removed at the end; under vpmu the skid's recordings set PMC_VPMU_ARGS for their time (not
 * thread-safe). Returns 0 (a row that could not be sampled says why), or -ENOMEM or the
 * folder's error with pmc_validate__why().
 */
PMC_API int pmc_validate__sample(struct pmc_validate *v,
				 const struct pmc_validate_sampling_opts *opts);
/* Row idx's sampling, owned by v; NULL before pmc_validate__sample(). */
PMC_API const struct pmc_validate_sampling *pmc_validate__sampling(const struct pmc_validate *v,
								   size_t idx);
/* Whether s has estimates to show (a row with a failed last period may still have some). */
PMC_API bool pmc_validate_sampling__sampled(const struct pmc_validate_sampling *s);
/* Sampling mode's results as CSV or JSON ("pmc-validate/1", "mode": "sampling"). */
PMC_API int pmc_validate__write_sampling(const struct pmc_validate *v, FILE *f,
					 enum pmc_validate_format fmt);

/* A trust file read back: the verdicts of this machine. */
struct pmc_trust;

/*
 * Loads path (NULL: this machine's default, read only from a data folder no one else can
 * write): a regular file of a schema version this pmc reads, whose entries have a backend,
 * kernel, event, known class, levels from 1 to 7 and finite numbers. Returns 0 with *out to
 * delete, or -errno, -PMC_E_FORMAT or -PMC_E_VERSION with why (len bytes) saying what.
 */
PMC_API int pmc_trust__load(const char *path, struct pmc_trust **out, char *why, size_t len);
PMC_API void pmc_trust__delete(struct pmc_trust *t);
/* The path it was read from, owned by t. */
PMC_API const char *pmc_trust__path(const struct pmc_trust *t);

/*
 * Whether it was made on another machine than cpu_model and kernel (pmc_caps()'s): why (len
 * bytes) then names which, with what the file holds.
 */
PMC_API bool pmc_trust__stale(const struct pmc_trust *t, const char *cpu_model, const char *kernel,
			      char *why, size_t len);

/*
 * The verdict on event counted by backend at the levels priv, the worst over every kernel
 * that validated the same event at the same levels (random, multiplicative, bias, exact; the
 * levels in event's modifiers do not count, priv does): *cls, and *value the per-run bias for
 * a bias or the factor for a multiplicative verdict (else 0); mark (len bytes, may be NULL)
 * gets "exact", "bias +4 per run", "factor 1.02", "random" or "not validated here". Returns 0,
 * or -ENOENT when no kernel validated it.
 */
PMC_API int pmc_trust__lookup(const struct pmc_trust *t, const char *backend, const char *event,
			      unsigned priv, enum pmc_validate_class *cls, double *value,
			      char *mark, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PMC_VALIDATE_H */
