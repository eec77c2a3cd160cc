// SPDX-License-Identifier: MIT
/*
 * pmc stat's terminal summary of regions (the thesis's Figure 4.5, value per entry in
 * brackets) and of the overhead subtracted; the machine formats are the library's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include "common/cli.h"
#include "stat.h"

/*
 * A value of an event in the summary's unit (pmc_stat_view: task-clock in msec), with that unit:
 * with count_dp decimals for a count, clock_dp for a clock.
 */
static void put(FILE *f, const struct pmc_stat_view *v, double value, int count_dp, int clock_dp)
{
	fprintf(f, "%.*f%s%s", v->scale != 1 ? clock_dp : count_dp, value * v->scale,
		*v->unit ? " " : "", v->unit);
}

/* "name: mean +/- ci (pct%) [per entry]" of each event the region counted (Figure 4.5). */
static void print_cells(FILE *f, const struct stat_run *run, const struct pmc_stat_view *views,
			size_t ri, int thread, const char *indent)
{
	for (size_t e = 0; e < run->res->nr_events; e++) {
		const struct pmc_run_cell *c = pmc_run__cell(run->runner, ri, thread, e);
		const struct pmc_stat_view *v = &views[e];

		if (!c || !c->nr)
			continue;
		fprintf(f, "%s%s: ", indent, pmc_evsel__name(run->res->events[e].evsel));
		put(f, v, c->sum.mean, 0, 2);
		fputs(" +/- ", f);
		put(f, v, c->sum.ci, 1, 3);
		fprintf(f, " (%.3f%%) [", c->sum.ci_pct);
		put(f, v, c->per_entry, 1, 5);
		fputs(" per entry]", f);
		if (c->nr_clamped)
			fputs("   [overhead larger than the count: 0]", f);
		fputc('\n', f);
		for (int i = 0; run->opts->all_results && i < c->nr; i++) {
			fprintf(f, "%s    rep %d: ", indent, i + 1);
			put(f, v, c->values[i], 0, 2);
			fputc('\n', f);
		}
	}
}

static void print_warnings(FILE *f, const struct pmc_run_region *r)
{
	if (r->entered != r->exited)
		fprintf(f,
			"    warning: entered %" PRIu64 " time%s but exited %" PRIu64
			" time%s: a begin or an end is missing\n",
			r->entered, r->entered == 1 ? "" : "s", r->exited,
			r->exited == 1 ? "" : "s");
	if (r->varies)
		fprintf(f, "    warning: the entry counts differ between runs\n");
	if (r->open_at_exit)
		fprintf(f,
			"    warning: %" PRIu64 " entries were still open when the command "
			"exited (counted up to its exit)\n",
			r->open_at_exit);
	if (r->unmatched_end)
		fprintf(f, "    warning: %" PRIu64 " ends without a begin\n", r->unmatched_end);
}

/* The notes and warnings of the regions' run: unknown ids, lost and recovered records. */
static void print_run_notes(FILE *f, const struct pmc_run_results *res)
{
	if (res->bad_ids)
		fprintf(f, "  warning: %" PRIu64 " markers named an unknown region id\n",
			res->bad_ids);
	if (res->unopened)
		fprintf(f,
			"  warning: %" PRIu64 " thread%s entered regions without counters (the "
			"limit of open files?): %s entries are not counted\n",
			res->unopened, res->unopened == 1 ? "" : "s",
			res->unopened == 1 ? "its" : "their");
	if (res->failed_reads)
		fprintf(f, "  warning: %" PRIu64 " counter reads in markers failed\n",
			res->failed_reads);
	if (res->lost_records)
		fprintf(f,
			"  warning: %" PRIu64 " region record%s of the command could not be read "
			"and %s not counted\n",
			res->lost_records, res->lost_records == 1 ? "" : "s",
			res->lost_records == 1 ? "is" : "are");
	if (res->recovered_records)
		fprintf(f,
			"  note: %" PRIu64 " process record%s of the command %s read from the "
			"memory it shared with pmc: %s left without writing %s (_exit(), a crash "
			"or a signal)\n",
			res->recovered_records, res->recovered_records == 1 ? "" : "s",
			res->recovered_records == 1 ? "was" : "were",
			res->recovered_records == 1 ? "its process" : "their processes",
			res->recovered_records == 1 ? "it" : "them");
	if (res->bad_runs)
		fprintf(f, "  warning: the region results of %d run%s were unreadable\n",
			res->bad_runs, res->bad_runs == 1 ? "" : "s");
}

/* --region-per-thread: region i's values per thread. */
static void print_threads(FILE *f, const struct stat_run *run, struct pmc_stat_view *v, size_t i)
{
	const struct pmc_run_results *res = run->res;
	const struct pmc_run_region *r = &res->regions[i];

	for (int t = 0; t < r->nr_threads; t++) {
		const struct pmc_run_cell *c = NULL;

		for (size_t e = 0; e < res->nr_events && !(c && c->nr); e++)
			c = pmc_run__cell(run->runner, i, t, e);
		double n = c && c->nr ? c->entered[0] : 0.0;

		fprintf(f, "    thread %d, entered %.0f time%s:\n", t, n, n == 1 ? "" : "s");
		print_cells(f, run, v, i, t, "      ");
		metric_rows__print(f, &run->rows, r->name, t, "      ", NULL);
	}
}

void stat_regions__print(FILE *f, const struct stat_run *run)
{
	const struct pmc_run_results *res = run->res;
	int reps = res->nr_region_reps;
	struct pmc_stat_view *v;

	if (!res->nr_regions && !res->lost_records && !res->bad_runs && !res->unopened)
		return;
	if (stat_views__new(run, &v)) {
		fprintf(stderr, "pmc stat: cannot print the regions: out of memory\n");
		return;
	}
	fprintf(f, "\nResults (for %zu region%s, %d repetition%s, %g%% confidence level):\n",
		res->nr_regions, res->nr_regions == 1 ? "" : "s", reps, reps == 1 ? "" : "s",
		run->opts->level * 100);
	if (res->calibration)
		fprintf(f,
			"  (an empty region's calibrated overhead is subtracted per entry: %s)\n",
			res->calibration);
	for (size_t i = 0; i < res->nr_regions; i++) {
		const struct pmc_run_region *r = &res->regions[i];

		fprintf(f,
			"  Region %s, entered %" PRIu64 " time%s and exited %" PRIu64 " time%s:\n",
			cli_show(r->name), r->entered, r->entered == 1 ? "" : "s", r->exited,
			r->exited == 1 ? "" : "s");
		print_cells(f, run, v, i, -1, "    ");
		metric_rows__print(f, &run->rows, r->name, -1, "    ", NULL);
		print_warnings(f, r);
		if (run->opts->region_per_thread)
			print_threads(f, run, v, i);
	}
	print_run_notes(f, res);
	pmc_stat_views__delete(v, res->nr_events);
}

void stat_print_overhead(FILE *f, const struct stat_run *run)
{
	const struct pmc_run_results *res = run->res;

	if (res->calibration)
		fprintf(f,
			"overhead subtracted (calibration %s of %s): per run from whole-program "
			"values, per entry from region values; never below 0\n",
			res->calibration, res->calibration_date);
	if (res->first_entry_region)
		fprintf(f,
			"  a run's first region entry (charged to '%s', the region registered "
			"first): the first-entry cost, the later entries: the per-entry cost\n",
			res->first_entry_region);
}
