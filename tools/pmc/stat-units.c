// SPDX-License-Identifier: MIT
/*
 * pmc stat's rows per unit (-A, --per-core, --per-socket, --per-thread) and its interval
 * lines (-I), each an event's line of the summary (stat_print_events()) after a prefix: the
 * unit's label, the interval's time (docs/stat-output.md, "Units", "Intervals").
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "stat.h"

/* The label column: as wide as the widest label. */
static int label_width(const struct pmc_run_unit *u, size_t n)
{
	int w = 0;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(u[i].label) > w)
			w = (int)strlen(u[i].label);
	return w;
}

/* "S0-D0-C1   2  " (a core or socket with its CPUs, as perf), "CPU3  ", "prog-1234  ". */
static void unit_prefix(char *buf, size_t len, const char *before, const struct pmc_run_unit *u,
			int w, enum pmc_run_aggr aggr)
{
	if (aggr == PMC_RUN_AGGR_CORE || aggr == PMC_RUN_AGGR_SOCKET || aggr == PMC_RUN_AGGR_DIE)
		snprintf(buf, len, "%s%-*s %3d  ", before, w, u->label, u->nr_cpus);
	else
		snprintf(buf, len, "%s%-*s  ", before, w, cli_show(u->label));
}

static void print_units(FILE *f, const struct stat_run *run, const char *before,
			const struct pmc_run_unit *units, size_t nr, double wall_ns,
			const struct stat_numfmt *nf)
{
	int w = label_width(units, nr);
	char prefix[128];

	for (size_t u = 0; u < nr; u++) {
		unit_prefix(prefix, sizeof(prefix), before, &units[u], w, run->opts->aggr);
		stat_print_events(f, run, prefix, units[u].events, run->res->nr_events, wall_ns,
				  nf);
	}
}

void stat_units__print(FILE *f, const struct stat_run *run, const struct stat_numfmt *nf)
{
	const struct pmc_run_results *res = run->res;

	if (run->opts->aggr == PMC_RUN_AGGR_GLOBAL)
		return;
	print_units(f, run, "", res->units, res->nr_units, res->nr_runs ? res->wall.mean * 1e9 : 0,
		    nf);
	if (res->lost_threads)
		fprintf(f,
			"(the values of %llu threads were lost, the kernel's buffer full: the "
			"main thread's row holds them)\n",
			(unsigned long long)res->lost_threads);
	fputc('\n', f);
}

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

void stat_units__interval(const struct pmc_run_interval *iv, void *arg)
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
	print_units(f, run, time, iv->units, iv->nr_units, iv->span_s * 1e9, &run->nf);
	stat_print_events(f, run, time, iv->events, iv->nr_events, iv->span_s * 1e9, &run->nf);
	fflush(f);
}
