/* SPDX-License-Identifier: MIT */
/* pmc validate: the options, the text table, and sampling mode (include/pmc/validate.h does the
 * rest). */
#ifndef PMC_TOOLS_VALIDATE_H
#define PMC_TOOLS_VALIDATE_H

#include <stdbool.h>
#include <stdio.h>
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

/* The results as the text table of docs/accuracy.md. Returns 0, or -EIO. */
int validate_write_text(FILE *f, const struct pmc_validate *v);

/* Sampling mode's results (pmc_validate__sample()) as the table, else libpmc's CSV or JSON. */
int validate_sampling_write(FILE *f, const struct validate_opts *o, const struct pmc_validate *v);

#endif
