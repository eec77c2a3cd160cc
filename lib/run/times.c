// SPDX-License-Identifier: MIT
/*
 * Each run's wall, user and system time, and their summaries pass by pass: the passes of one
 * repetition count different events and may do different work (a region workload replanned,
 * a pass whose events slow the command), so no interval is ever taken over runs of different
 * passes (docs/stat-output.md, "The footer").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "count/counting.h"
#include "run/runner.h"

/* Makes room for n run slots and pass + 1 passes; false when out of memory. */
static bool grow(struct pmc_run *run, size_t n, int pass)
{
	struct pmc_run_results *res = &run->res;
	double **arr[] = {&res->run_wall_s, &res->run_user_s, &res->run_sys_s};
	int *pn;

	for (size_t a = 0; a < 3 && (int)n > res->nr_runs; a++) {
		double *v = realloc(*arr[a], n * sizeof(double));

		if (!v)
			return false;
		*arr[a] = v;
		for (size_t i = (size_t)res->nr_runs; i < n; i++)
			v[i] = 0;
	}
	if ((int)n > res->nr_runs)
		res->nr_runs = (int)n;
	if (pass < run->nr_pass_runs)
		return true;
	pn = realloc(run->pass_runs, (size_t)(pass + 1) * sizeof(int));
	if (!pn)
		return false;
	for (int p = run->nr_pass_runs; p <= pass; p++)
		pn[p] = 0;
	run->pass_runs = pn;
	run->nr_pass_runs = pass + 1;
	return true;
}

void pmc__run_times_store(struct pmc_run *run, int pass, int rep)
{
	struct pmc_run_results *res = &run->res;
	size_t slot = (size_t)pass * (size_t)run->opts.repeat + (size_t)rep;
	struct pmc__run_times t;

	if (pmc__counting_times(run->evlist, &t) || !grow(run, slot + 1, pass))
		return;
	res->run_wall_s[slot] = (double)t.wall_ns * 1e-9;
	res->run_user_s[slot] = (double)t.user_ns * 1e-9;
	res->run_sys_s[slot] = (double)t.sys_ns * 1e-9;
	res->have_rusage = t.have_rusage;
	if (rep + 1 > run->pass_runs[pass])
		run->pass_runs[pass] = rep + 1;
}

/* Forgets every run's times (the passes were planned again). */
void pmc__run_times_reset(struct pmc_run *run)
{
	run->res.nr_runs = 0;
	for (int p = 0; p < run->nr_pass_runs; p++)
		run->pass_runs[p] = 0;
}

void pmc__run_times_summarize(struct pmc_run *run)
{
	struct pmc_run_results *res = &run->res;
	double level = run->opts.level;
	int np = res->nr_passes > run->nr_pass_runs ? res->nr_passes : run->nr_pass_runs;

	free(res->pass_wall);
	res->pass_wall = np > 0 ? calloc((size_t)np, sizeof(*res->pass_wall)) : NULL;
	res->wall_pass = -1;
	for (int p = 0; p < run->nr_pass_runs; p++) {
		size_t first = (size_t)p * (size_t)run->opts.repeat, n = (size_t)run->pass_runs[p];

		if (!n || (int)(first + n) > res->nr_runs)
			continue;
		if (res->pass_wall)
			pmc_summarize(res->run_wall_s + first, n, level, &res->pass_wall[p]);
		if (res->wall_pass >= 0)
			continue;
		res->wall_pass = p;
		pmc_summarize(res->run_wall_s + first, n, level, &res->wall);
		pmc_summarize(res->run_user_s + first, n, level, &res->user);
		pmc_summarize(res->run_sys_s + first, n, level, &res->sys);
	}
}

void pmc__run_times_free(struct pmc_run *run)
{
	free(run->res.run_wall_s);
	free(run->res.run_user_s);
	free(run->res.run_sys_s);
	free(run->res.pass_wall);
	free(run->pass_runs);
}
