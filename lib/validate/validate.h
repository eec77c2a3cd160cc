/* SPDX-License-Identifier: MIT */
/* Validation's state (include/pmc/validate.h): the kernels' plan, its runs and its fit. */
#ifndef PMC_LIB_VALIDATE_VALIDATE_H
#define PMC_LIB_VALIDATE_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include <pmc/pmc.h>
#include <pmc/validate.h>

/* The interrupts counted alongside: on the run's CPU, from these tracepoints where they can be
 * opened (their sum), else the system's /proc/interrupts around each repetition. */
#define VALIDATE_IRQ_EVENTS "irq:irq_handler_entry", "irq_vectors:local_timer_entry"
#define VALIDATE_IRQ_TP "irq:irq_handler_entry + irq_vectors:local_timer_entry"
#define VALIDATE_IRQ_PROC "/proc/interrupts (every CPU)"

struct pmc_validate {
	struct pmc_validate_opts opts; /* the caller's, with defaults filled in */
	const char *prog;	       /* the kernels program */
	struct pmc_validate_row *rows;
	size_t nr_rows;
	const char *irq_source; /* how interrupts were counted (VALIDATE_IRQ_*), or NULL */
	json_t *provenance;	/* pmc stat's, from the first run that counted, or NULL */
	char *provenance_text;
	struct pmc_validate_sampling *sampling; /* [nr_rows], after pmc_validate__sample() */
	int seeds, skid;			/* sampling mode's */
	char why[512];
};

/* Reads prog --list into v->rows. Returns 0, or -ENOMEM or -PMC_E_EXEC with v->why. */
int pmc__validate_load(struct pmc_validate *v);
/*
 * Each row's event for the backend (vpmu) or the perf backend's CPU model
 * (data/validate/events.tsv); a quantity without one here makes its row unsupported, "no event
 * for QUANTITY on this CPU (MODEL)". Returns 0 or -ENOMEM.
 */
int pmc__validate_resolve(struct pmc_validate *v);
/* Frees rows[0..nr) and what each owns. */
void pmc__validate_rows_free(struct pmc_validate_row *rows, size_t nr);

/*
 * Runs rows[first..end) (one kernel's) at each size through the runner and stores their
 * points. Returns 0, or a negative errno with v->why when nothing can go on.
 */
int pmc__validate_run_kernel(struct pmc_validate *v, size_t first, size_t end);
/* --dry-run of rows[first..end): their events and the calls at the first size, to f. */
int pmc__validate_dry_run_kernel(struct pmc_validate *v, size_t first, size_t end, FILE *f,
				 bool attrs);

/* Frees v's sampling results. */
void pmc__validate_sampling_free(struct pmc_validate *v);

/* Fits reported = factor x predicted + overhead over r's points and classifies them; notes
 * residuals that follow the page faults or interrupts (counted as irq_source says). */
void pmc__validate_fit_row(struct pmc_validate_row *r, double level, const char *irq_source);

/* A CSV field, quoted where it must be (a comma, a quote or a line break in it); last: the
 * row's end. A number's field: empty for NAN. */
void pmc__validate_csv_field(FILE *f, const char *s, bool last);
void pmc__validate_csv_num(FILE *f, double v);
/* A JSON number, or null for NAN. */
json_t *pmc__validate_json_num(double v);
/* Writes root (a results file: dropped) indented, then a newline. 0, -ENOMEM or -EIO. */
int pmc__validate_json_write(FILE *f, json_t *root);

#endif
