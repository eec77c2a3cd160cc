/* SPDX-License-Identifier: MIT */
/* The runner's results files: pmc-stat/1 JSON and HTML (json.c), CSV and text (text.c). */
#ifndef PMC_LIB_RUN_OUTPUT_H
#define PMC_LIB_RUN_OUTPUT_H

#include <stdio.h>
#include "run/runner.h"

#include <jansson.h>

int pmc__run_write_json(const struct pmc_run *run, FILE *f);
int pmc__run_write_html(const struct pmc_run *run, FILE *f);
int pmc__run_write_csv(const struct pmc_run *run, FILE *f);
int pmc__run_write_text(const struct pmc_run *run, FILE *f, unsigned flags);

#endif /* PMC_LIB_RUN_OUTPUT_H */
