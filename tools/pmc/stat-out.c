// SPDX-License-Identifier: MIT
/* pmc stat's outputs: the terminal summary, the pass plan, and the results files. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "cli.h"
#include "stat.h"

void stat_print_plan(FILE *f, const struct stat_run *run)
{
	const struct pmc_run_results *res = run->res;
	size_t nr = res->nr_events;

	fprintf(f, "# pass plan: %d pass%s%s\n", res->nr_passes, res->nr_passes == 1 ? "" : "es",
		run->opts->multiplex ? " (multiplexed: one run, values scaled)" : "");
	for (int pass = 0; pass < res->nr_passes; pass++) {
		fprintf(f, "pass %d:\n", pass);
		for (size_t i = 0; i < nr; i++) {
			const struct pmc_evsel *ev = res->events[i].evsel;
			const char *group = pmc_evsel__group_name(ev);
			bool grouped = pmc_evsel__group_size(pmc_evsel__leader(ev)) > 1;

			if (pmc_evsel__pass(ev) != pass)
				continue;
			fprintf(f, "  %-40s %s%s%s\n", pmc_evsel__name(ev), pmc_evsel__resource(ev),
				!grouped ? ""
				: group	 ? ", group "
					 : ", grouped",
				grouped && group ? group : "");
		}
	}
	for (size_t i = 0; i < nr; i++)
		if (!res->events[i].supported)
			fprintf(f, "not counted: %s: %s\n", pmc_evsel__name(res->events[i].evsel),
				res->events[i].why);
}

static void print_event(FILE *f, const struct stat_run *run, const struct pmc_run_event *e)
{
	const char *name = pmc_evsel__name(e->evsel);

	if (!e->supported) {
		fprintf(f, "%s: <not supported> (%s)\n", name, e->why);
		return;
	}
	if (!e->nr) {
		fprintf(f, "%s: <not counted>\n", name);
		return;
	}
	fprintf(f, "%s: %.1f +/- %.1f (%.3f%%)", name, e->sum.mean, e->sum.ci, e->sum.ci_pct);
	if (e->nr > 1)
		fprintf(f, "   [median %.1f, min %.0f, max %.0f, stddev %.1f]", e->sum.median,
			e->sum.min, e->sum.max, e->sum.stddev);
	if (e->scaled) {
		double r = 0;

		for (int i = 0; i < e->nr; i++)
			r += e->ratio[i];
		fprintf(f, "   (scaled, counted %.1f%% of the time)", 100.0 * r / e->nr);
	}
	if (pmc_evsel__note(e->evsel))
		fprintf(f, "   (%s)", pmc_evsel__note(e->evsel));
	fputc('\n', f);
	for (int i = 0; run->opts->all_results && i < e->nr; i++)
		fprintf(f, "    rep %d: %.0f\n", i + 1, e->values[i]);
}

/*
 * The levels counted: the default privilege's, which applies to events that happen at either
 * level; kernel-side events without :u/:k count where they happen (docs/events.md), which is
 * said when some such event was counted so.
 */
static void print_levels(FILE *f, const struct stat_run *run)
{
	const unsigned uk = PMC_PRIV_USER | PMC_PRIV_KERNEL, priv = run->opts->priv & uk;
	const struct pmc_run_results *res = run->res;
	bool where = false;

	for (size_t i = 0; i < res->nr_events && !where; i++)
		where = res->events[i].supported && pmc_evsel__kernel_side(res->events[i].evsel) &&
			(pmc_evsel__priv(res->events[i].evsel) & uk) != priv;
	fprintf(f, "%s%s",
		priv == PMC_PRIV_USER	  ? "user level"
		: priv == PMC_PRIV_KERNEL ? "kernel level"
					  : "user and kernel levels",
		where ? "; kernel-side events where they happen" : "");
}

static void print_header(FILE *f, const struct stat_run *run)
{
	const struct stat_opts *o = run->opts;
	const struct pmc_run_results *res = run->res;
	int reps = 0;

	for (size_t i = 0; i < res->nr_events; i++)
		if (res->events[i].nr > reps)
			reps = res->events[i].nr;
	fprintf(f, "\n Performance counter stats for '");
	if (*o->argv)
		for (char **a = o->argv; *a; a++)
			fprintf(f, "%s%s", a == o->argv ? "" : " ", cli_show(*a));
	else if (o->pid)
		fprintf(f, "process %d", (int)o->pid);
	else
		fprintf(f, "CPUs %s", o->cpus ? o->cpus : "all");
	fprintf(f, "' (%d repetition%s%s, %d pass%s, %g%% confidence, ", reps, reps == 1 ? "" : "s",
		o->no_warmup || o->pid || !*o->argv ? "" : " after a warm-up run", res->nr_passes,
		res->nr_passes == 1 ? "" : "es", o->level * 100);
	print_levels(f, run);
	fprintf(f, ", backend %s):\n\n", pmc_evlist__backend(run->evlist));
}

static void print_terminal(FILE *f, const struct stat_run *run)
{
	const struct pmc_run_results *res = run->res;

	print_header(f, run);
	stat_print_overhead(f, run);
	for (size_t i = 0; i < res->nr_events; i++)
		print_event(f, run, &res->events[i]);
	stat_regions__print(f, run);
	fprintf(f, "\n %.6f seconds time elapsed", res->elapsed_s);
	if (res->stop_signal)
		fprintf(f, " (stopped early: %s; the values counted so far)",
			cli_signame(res->stop_signal));
	if (res->in_warmup && (res->stop_signal || res->have_status))
		fprintf(f, "\n (the warm-up run was the only run: its values are shown)");
	fprintf(f, "\n\n");
}

int stat_write(const struct stat_run *run)
{
	const struct stat_opts *o = run->opts;
	struct pmc_outfile *out;
	FILE *f;
	int err;

	/* The summary goes to stderr, as perf's, unless a data format replaces it on stdout. */
	if (o->output || o->format == FMT_TEXT)
		print_terminal(stderr, run);
	if (!o->output && o->format == FMT_TEXT)
		return 0;
	err = pmc_outfile__open(o->output ? o->output : "-", &out);
	if (err) {
		fprintf(stderr, "pmc stat: cannot write %s: %s\n", o->output, pmc_strerror(err));
		return 1;
	}
	f = pmc_outfile__stream(out);
	err = !f ? -1
		 : pmc_run__write(run->runner, f,
				  o->format == FMT_JSON	 ? PMC_RUN_FORMAT_JSON
				  : o->format == FMT_CSV ? PMC_RUN_FORMAT_CSV
							 : PMC_RUN_FORMAT_TEXT,
				  o->all_results ? PMC_RUN_ALL_RESULTS : 0);
	if (err) {
		fprintf(stderr, "pmc stat: cannot write %s: %s; nothing was written\n",
			o->output ? o->output : "stdout", pmc_strerror(err < 0 ? err : -EIO));
		pmc_outfile__abort(out);
		return 1;
	}
	err = pmc_outfile__commit(out);
	if (err) {
		fprintf(stderr, "pmc stat: cannot write %s: %s\n", o->output ? o->output : "stdout",
			pmc_strerror(err));
		return 1;
	}
	return 0;
}
