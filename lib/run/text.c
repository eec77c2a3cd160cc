// SPDX-License-Identifier: MIT
/*
 * The runner's results as text and CSV (docs/stat-output.md): the parseable results file of
 * run_p5mon (the thesis's Figures 4.7 to 4.9: raw values, then a summary, per event and per
 * region) and one CSV table of events, one of regions and one of units.
 */
#include <inttypes.h>
#include <string.h>
#include <pmc/launcher.h>
#include "core/field.h"
#include "run/output.h"

static void text_cells(FILE *f, const struct pmc_run *run, size_t ri, int t, unsigned flags)
{
	const struct pmc_run_region *r = &run->res.regions[ri];

	for (size_t e = 0; e < run->res.nr_events; e++) {
		const struct pmc_run_cell *c = pmc_run__cell(run, ri, t, e);
		const char *ev = pmc_evsel__name(run->res.events[e].evsel);

		for (int i = 0; c && (flags & PMC_RUN_ALL_RESULTS) && i < c->nr; i++) {
			pmc__pct_field(f, r->name);
			if (t >= 0)
				fprintf(f, "[t%d]", t);
			fputc(' ', f);
			pmc__pct_field(f, ev);
			fprintf(f, " %d %.0f\n", i, c->values[i]);
		}
		if (!c || !c->nr)
			continue;
		if (c->nr_clamped) {
			fprintf(f, "# ");
			pmc__pct_field(f, r->name);
			if (t >= 0)
				fprintf(f, "[t%d]", t);
			fputc(' ', f);
			pmc__pct_field(f, ev);
			fprintf(f,
				": overhead larger than the count in %d of %d runs: counted as 0\n",
				c->nr_clamped, c->nr);
		}
		pmc__pct_field(f, r->name);
		if (t >= 0)
			fprintf(f, "[t%d]", t);
		fputc(' ', f);
		pmc__pct_field(f, ev);
		fprintf(f, " -1 %.1f %.1f %.3f %.1f\n", c->sum.mean, c->sum.ci, c->sum.ci_pct,
			c->per_entry);
	}
}

static void text_regions(FILE *f, const struct pmc_run *run, unsigned flags)
{
	const struct pmc_run_results *res = &run->res;

	if (!res->nr_regions)
		return;
	fprintf(f, "# Results (for %zu region%s, %d repetitions, %g%% confidence level):\n",
		res->nr_regions, res->nr_regions == 1 ? "" : "s", res->nr_region_reps,
		run->opts.level * 100);
	if (res->calibration) {
		fprintf(f, "# overhead subtracted per region entry: calibration ");
		pmc__pct_field(f, res->calibration);
		fputc('\n', f);
	}
	if (res->first_entry_region) {
		fprintf(f, "# first-entry cost subtracted from each run's first entry, in region ");
		pmc__pct_field(f, res->first_entry_region);
		fputc('\n', f);
	}
	fprintf(f, "# Region Event Repetition Value [conf.int] [percentage] [per entry]\n");
	for (size_t i = 0; i < res->nr_regions; i++) {
		const struct pmc_run_region *r = &res->regions[i];

		fprintf(f, "# Region ");
		pmc__pct_field(f, r->name);
		fprintf(f, ": entered %" PRIu64 " exited %" PRIu64 "\n", r->entered, r->exited);
		for (int t = -1; t < (run->opts.per_thread ? r->nr_threads : 0); t++)
			text_cells(f, run, i, t, flags);
	}
}

/* The file's comment lines: the launcher's rank, the repetitions, an early stop, the
 * calibration, the region records' losses and each pass's elapsed time. */
static void text_header(const struct pmc_run *run, FILE *f)
{
	const struct pmc_run_results *res = &run->res;
	struct pmc_launcher l;

	fprintf(f, "# pmc stat results file\n");
	if (pmc_launcher_detect(&l) == 1) {
		fprintf(f, "# rank %d of %d (%s), local rank %d, host ", l.rank, l.size, l.name,
			l.local_rank);
		pmc__pct_field(f, l.host);
		fprintf(f, ", CPUs %s\n", l.cpus[0] ? l.cpus : "unknown");
	}
	fprintf(f, "# Results (%d repetitions, %g%% confidence level):\n", res->nr_reps,
		run->opts.level * 100);
	if (res->stop_signal && res->in_warmup)
		fprintf(f,
			"# stopped early: SIG%s, in the warm-up run, before any of %d repetitions "
			"(the warm-up's values are shown)\n",
			sigabbrev_np(res->stop_signal) ?: "?", run->opts.repeat);
	else if (res->stop_signal)
		fprintf(f, "# stopped early: SIG%s, after %d of %d repetitions\n",
			sigabbrev_np(res->stop_signal) ?: "?", res->nr_reps, run->opts.repeat);
	if (res->calibration) {
		fprintf(f, "# overhead subtracted (calibration ");
		pmc__pct_field(f, res->calibration);
		fprintf(f,
			" of %s): per run from whole-program values, per entry from region "
			"values; never below 0\n",
			res->calibration_date);
	}
	if (res->regions_seen)
		fprintf(f,
			"# lost region records: %" PRIu64 ", unreadable runs: %d, recovered "
			"region records: %" PRIu64 ", threads without counters: %" PRIu64 "\n",
			res->lost_records, res->bad_runs, res->recovered_records, res->unopened);
	for (int p = 0; res->pass_wall && p < res->nr_passes; p++)
		if (res->pass_wall[p].n)
			fprintf(f, "# elapsed, pass %d: %.9f s +- %.9f (%.3f%%) over %zu runs\n", p,
				res->pass_wall[p].mean, res->pass_wall[p].ci,
				res->pass_wall[p].ci_pct, res->pass_wall[p].n);
}

/* One event's lines: why it was not counted, its note, its clamped runs, each run's value
 * (with PMC_RUN_ALL_RESULTS) and its summary. */
static void text_event(const struct pmc_run_event *e, FILE *f, unsigned flags)
{
	const char *name = pmc_evsel__name(e->evsel);

	if (!e->supported || !e->nr) {
		fprintf(f, "# ");
		pmc__pct_field(f, name);
		fprintf(f, ": not counted: %s\n", e->supported ? "no run" : e->why);
		return;
	}
	if (pmc_evsel__note(e->evsel)) {
		fprintf(f, "# ");
		pmc__pct_field(f, name);
		fprintf(f, ": %s\n", pmc_evsel__note(e->evsel));
	}
	if (e->nr_clamped) {
		fprintf(f, "# ");
		pmc__pct_field(f, name);
		fprintf(f,
			": overhead larger than the count in %d of %d runs: counted as "
			"0\n",
			e->nr_clamped, e->nr);
	}
	for (int r = 0; (flags & PMC_RUN_ALL_RESULTS) && r < e->nr; r++) {
		pmc__pct_field(f, name);
		fprintf(f, " %d %.0f\n", r, e->values[r]);
	}
	pmc__pct_field(f, name);
	fprintf(f, " -1 %.1f %.1f %.3f\n", e->sum.mean, e->sum.ci, e->sum.ci_pct);
}

int pmc__run_write_text(const struct pmc_run *run, FILE *f, unsigned flags)
{
	text_header(run, f);
	fprintf(f, "# Event Repetition Value [conf.int] [percentage]\n");
	for (size_t i = 0; i < run->res.nr_events; i++)
		text_event(&run->res.events[i], f, flags);
	text_regions(f, run, flags);
	pmc__run_metrics_text(run, f);
	return 0;
}

static void csv_summary(FILE *f, int nr, const struct pmc_summary *s)
{
	fprintf(f, ",%d,%.3f,%.3f,%.3f,%.0f,%.0f,%.3f,%.3f", nr, s->mean, s->stddev, s->median,
		s->min, s->max, s->ci, s->ci_pct);
}

/* Each repetition's value, ';'-separated. */
static void csv_values(FILE *f, const double *v, int nr)
{
	for (int r = 0; r < nr; r++)
		fprintf(f, "%s%.0f", r ? ";" : "", v[r]);
}

static void csv_regions(FILE *f, const struct pmc_run *run)
{
	const struct pmc_run_results *res = &run->res;

	if (!res->nr_regions)
		return;
	fprintf(f, "\nregion,thread,event,entered,exited,n,mean,stddev,median,min,max,ci,ci_pct,"
		   "per_entry,overhead_per_entry,overhead_first_entry,values,overhead_clamped\n");
	for (size_t i = 0; i < res->nr_regions; i++) {
		const struct pmc_run_region *r = &res->regions[i];

		for (int t = -1; t < (run->opts.per_thread ? r->nr_threads : 0); t++) {
			for (size_t e = 0; e < res->nr_events; e++) {
				const struct pmc_run_cell *c = pmc_run__cell(run, i, t, e);

				if (!c || !c->nr)
					continue;
				pmc__csv_field(f, r->name);
				if (t >= 0)
					fprintf(f, ",%d,", t);
				else
					fprintf(f, ",all,");
				pmc__csv_field(f, pmc_evsel__name(res->events[e].evsel));
				fprintf(f, ",%" PRIu64 ",%" PRIu64, r->entered, r->exited);
				csv_summary(f, c->nr, &c->sum);
				fprintf(f, ",%.3f,%.3f,", c->per_entry, res->overhead_entry[e]);
				/* the first entry's cost, on the region it was charged to */
				if (res->first_entry_region && i == 0 && t < 1)
					fprintf(f, "%.3f", res->overhead_first_entry[e]);
				fputc(',', f);
				csv_values(f, c->values, c->nr);
				fprintf(f, ",%d\n", c->nr_clamped);
			}
		}
	}
}

/* opts.aggr's units (-A, --per-core, --per-socket, --per-thread): where each is, its events. */
static void csv_units(FILE *f, const struct pmc_run *run)
{
	const struct pmc_run_results *res = &run->res;

	if (!res->nr_units)
		return;
	fprintf(f, "\nunit_label,cpu,nr_cpus,socket,die,core,pid,tid,event,n,mean,stddev,median,"
		   "min,max,ci,ci_pct,values\n");
	for (size_t u = 0; u < res->nr_units; u++) {
		const struct pmc_run_unit *un = &res->units[u];

		for (size_t i = 0; i < res->nr_events; i++) {
			const struct pmc_run_event *e = &un->events[i];

			if (!e->supported || !e->nr)
				continue;
			pmc__csv_field(f, un->label);
			fprintf(f, ",%d,%d,%d,%d,%d,%d,%d,", un->cpu, un->nr_cpus, un->socket,
				un->die, un->core, (int)un->pid, (int)un->tid);
			pmc__csv_field(f, pmc_evsel__name(e->evsel));
			csv_summary(f, e->nr, &e->sum);
			fputc(',', f);
			csv_values(f, e->values, e->nr);
			fputc('\n', f);
		}
	}
}

/* Each pass's wall time over its own runs: never one interval over different passes. */
static void csv_elapsed(FILE *f, const struct pmc_run_results *res)
{
	if (res->wall_pass < 0) /* no run was timed */
		return;
	fprintf(f, "\nelapsed_pass,n,mean,stddev,median,min,max,ci,ci_pct,unit\n");
	for (int p = 0; res->pass_wall && p < res->nr_passes; p++) {
		const struct pmc_summary *w = &res->pass_wall[p];

		if (!w->n)
			continue;
		fprintf(f, "%d,%zu,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f,%.3f,s\n", p, w->n, w->mean,
			w->stddev, w->median, w->min, w->max, w->ci, w->ci_pct);
	}
}

int pmc__run_write_csv(const struct pmc_run *run, FILE *f)
{
	const struct pmc_run_results *res = &run->res;
	struct pmc_launcher l;

	/* Under a launcher, the rank's tags come first, as a table of their own. */
	if (pmc_launcher_detect(&l) == 1) {
		fprintf(f, "launcher,rank,size,local_rank,host,cpus\n%s,%d,%d,%d,", l.name, l.rank,
			l.size, l.local_rank);
		pmc__csv_field(f, l.host);
		fprintf(f, ",\"%s\"\n\n", l.cpus);
	}
	fprintf(f, "event,supported,pass,n,mean,stddev,median,min,max,ci,ci_pct,scaled,values,"
		   "overhead_subtracted,overhead_clamped\n");
	for (size_t i = 0; i < res->nr_events; i++) {
		const struct pmc_run_event *e = &res->events[i];

		pmc__csv_field(f, pmc_evsel__name(e->evsel));
		fprintf(f, ",%s,%d", e->supported ? "yes" : "no", pmc_evsel__pass(e->evsel));
		if (!e->nr) {
			fprintf(f, ",0,,,,,,,,,,,\n");
			continue;
		}
		csv_summary(f, e->nr, &e->sum);
		fprintf(f, ",%s,", e->scaled ? "yes" : "no");
		csv_values(f, e->values, e->nr);
		fprintf(f, ",%.3f,%d\n", e->overhead, e->nr_clamped);
	}
	csv_regions(f, run);
	csv_units(f, run);
	csv_elapsed(f, res);
	pmc__run_metrics_csv(run, f);
	return 0;
}
