// SPDX-License-Identifier: MIT
/*
 * pmc stat's interval lines (-I) as they come: -x and -j lines (libpmc's, through
 * stat-machine.c), or each event's line of the summary after the interval's time, per unit too
 * (stat-out.c) (docs/stat-output.md, "Intervals").
 */
#include <stdio.h>
#include "common/cli.h"
#include "stat.h"

/* "# pass 2/3, repetition 1/5" before a run's first interval, when there are several runs. */
static void print_run(FILE *f, struct stat_run *run, const struct pmc_run_interval *iv)
{
	const struct pmc_run_results *res = run->res;

	if (run->iv_pass < 0)
		fprintf(f,
			"# every %d ms: the time since the run began counting, then what each "
			"event counted since the line before\n",
			run->opts->interval_ms);
	if (run->iv_pass == iv->pass && run->iv_rep == iv->rep)
		return;
	run->iv_pass = iv->pass;
	run->iv_rep = iv->rep;
	if (res->nr_passes > 1 || run->opts->repeat > 1)
		fprintf(f, "# pass %d/%d, repetition %d/%d\n", iv->pass + 1, res->nr_passes,
			iv->rep + 1, run->opts->repeat);
}

void stat_print_interval(const struct pmc_run_interval *iv, void *arg)
{
	struct stat_run *run = arg;
	char time[32];
	FILE *f = stderr;

	if (iv->rep < 0) /* the warm-up run's values are not results */
		return;
	if (run->log)
		f = run->log;
	if (run->opts->csv_sep || run->opts->json_lines) {
		stat_print_machine_interval(f, run, iv,
					    run->opts->json_lines ? NULL : run->opts->csv_sep);
		fflush(f);
		return;
	}
	print_run(f, run, iv);
	snprintf(time, sizeof(time), "%15.9f  ", iv->t_s);
	stat_print_units(f, run, time, iv->units, iv->nr_units, iv->span_s * 1e9, &run->nf);
	stat_print_events(f, run, time, iv->events, iv->nr_events, iv->span_s * 1e9, &run->nf);
	fflush(f);
}
