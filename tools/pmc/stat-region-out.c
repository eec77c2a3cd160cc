// SPDX-License-Identifier: MIT
/*
 * pmc stat's region outputs: the terminal summary (the thesis's Figure 4.5, value per entry
 * in brackets), the results file (Figure 4.9), CSV rows and the JSON "regions" array.
 */
#include <inttypes.h>
#include <jansson.h>
#include "calib.h"
#include "stat-region.h"

json_t *stat_regions__json(const struct stat_run *run);
json_t *stat_regions__overhead_json(const struct stat_run *run);

static int max_reps(const struct stat_regions *s)
{
	int reps = 0;

	for (size_t i = 0; i < s->nr; i++)
		for (size_t c = 0; c < s->r[i].nr_slots * s->nr_ev; c++)
			if (s->r[i].cells[c].nr > reps)
				reps = s->r[i].cells[c].nr;
	return reps;
}

static bool have(const struct stat_run *run)
{
	return run->regions && run->regions->nr;
}

static void print_cells(FILE *f, const struct stat_run *run, const struct sr_region *r, int thread,
			const char *indent)
{
	const struct stat_regions *s = run->regions;

	for (size_t e = 0; e < s->nr_ev; e++) {
		const struct sr_cell *c = sr_cell(s, r, thread, e);

		if (!c || !c->nr)
			continue;
		fprintf(f, "%s%s: %.1f +/- %.1f (%.3f%%) [%.1f]\n", indent,
			pmc_evsel__name(run->ev[e].evsel), c->sum.mean, c->sum.ci, c->sum.ci_pct,
			c->per_entry);
		for (int i = 0; run->opts->all_results && i < c->nr; i++)
			fprintf(f, "%s    rep %d: %.0f\n", indent, i + 1, c->values[i]);
	}
}

static void print_warnings(FILE *f, const struct sr_region *r)
{
	if (r->entered != r->exited)
		fprintf(f,
			"    warning: entered %" PRIu64 " times but exited %" PRIu64
			" times: a begin or an end is missing\n",
			r->entered, r->exited);
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

void stat_regions__print(FILE *f, const struct stat_run *run)
{
	const struct stat_regions *s = run->regions;

	if (!have(run))
		return;
	fprintf(f, "\nResults (for %zu region%s, %d repetition%s, %g%% confidence level):\n", s->nr,
		s->nr == 1 ? "" : "s", max_reps(s), max_reps(s) == 1 ? "" : "s",
		run->opts->level * 100);
	if (s->calib)
		fprintf(f,
			"  (an empty region's calibrated overhead is subtracted per entry: %s)\n",
			calib_path(s->calib));
	for (size_t i = 0; i < s->nr; i++) {
		const struct sr_region *r = &s->r[i];

		fprintf(f, "  Region %s, entered %" PRIu64 " times and exited %" PRIu64 " times:\n",
			r->name, r->entered, r->exited);
		print_cells(f, run, r, -1, "    ");
		print_warnings(f, r);
		for (int t = 0; run->opts->per_thread && t < r->nr_threads; t++) {
			const struct sr_cell *c = NULL;

			for (size_t e = 0; e < s->nr_ev && !(c && c->nr); e++)
				c = sr_cell(s, r, t, e);
			fprintf(f, "    thread %d, entered %.0f times:\n", t,
				c && c->nr ? c->entered[0] : 0.0);
			print_cells(f, run, r, t, "      ");
		}
	}
	if (s->bad_ids)
		fprintf(f, "  warning: %" PRIu64 " markers named an unknown region id\n",
			s->bad_ids);
	if (s->failed_reads)
		fprintf(f, "  warning: %" PRIu64 " counter reads in markers failed\n",
			s->failed_reads);
}

/* Region names go into whitespace-separated fields: spaces and '%' as %XX. */
static void put_name(FILE *f, const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == '%')
			fprintf(f, "%%%02X", (unsigned char)*s);
		else
			fputc(*s, f);
}

static void text_cells(FILE *f, const struct stat_run *run, const struct sr_region *r, int t)
{
	const struct stat_regions *s = run->regions;

	for (size_t e = 0; e < s->nr_ev; e++) {
		const struct sr_cell *c = sr_cell(s, r, t, e);
		const char *ev = pmc_evsel__name(run->ev[e].evsel);

		for (int i = 0; c && run->opts->all_results && i < c->nr; i++) {
			put_name(f, r->name);
			if (t >= 0)
				fprintf(f, "[t%d]", t);
			fprintf(f, " %s %d %.0f\n", ev, i, c->values[i]);
		}
		if (!c || !c->nr)
			continue;
		put_name(f, r->name);
		if (t >= 0)
			fprintf(f, "[t%d]", t);
		fprintf(f, " %s -1 %.1f %.1f %.3f %.1f\n", ev, c->sum.mean, c->sum.ci,
			c->sum.ci_pct, c->per_entry);
	}
}

void stat_regions__write_text(FILE *f, const struct stat_run *run)
{
	const struct stat_regions *s = run->regions;

	if (!have(run))
		return;
	fprintf(f, "# Results (for %zu region%s, %d repetitions, %g%% confidence level):\n", s->nr,
		s->nr == 1 ? "" : "s", max_reps(s), run->opts->level * 100);
	if (s->calib)
		fprintf(f, "# overhead subtracted per region entry: calibration %s\n",
			calib_path(s->calib));
	fprintf(f, "# Region Event Repetition Value [conf.int] [percentage] [per entry]\n");
	for (size_t i = 0; i < s->nr; i++) {
		const struct sr_region *r = &s->r[i];

		fprintf(f, "# Region %s: entered %" PRIu64 " exited %" PRIu64 "\n", r->name,
			r->entered, r->exited);
		for (int t = -1; t < (run->opts->per_thread ? r->nr_threads : 0); t++)
			text_cells(f, run, r, t);
	}
}

void stat_regions__write_csv(FILE *f, const struct stat_run *run)
{
	const struct stat_regions *s = run->regions;

	if (!have(run))
		return;
	fprintf(f, "\nregion,thread,event,entered,exited,n,mean,stddev,median,min,max,ci,ci_pct,"
		   "per_entry,overhead_per_entry,values\n");
	for (size_t i = 0; i < s->nr; i++) {
		const struct sr_region *r = &s->r[i];

		for (int t = -1; t < (run->opts->per_thread ? r->nr_threads : 0); t++)
			for (size_t e = 0; e < s->nr_ev; e++) {
				const struct sr_cell *c = sr_cell(s, r, t, e);

				if (!c || !c->nr)
					continue;
				char thread[16] = "all";

				if (t >= 0)
					snprintf(thread, sizeof(thread), "%d", t);
				fprintf(f,
					"\"%s\",%s,\"%s\",%" PRIu64 ",%" PRIu64 ",%d,%.3f,%.3f,"
					"%.3f,%.0f,%.0f,%.3f,%.3f,%.3f,%.3f,",
					r->name, thread, pmc_evsel__name(run->ev[e].evsel),
					r->entered, r->exited, c->nr, c->sum.mean, c->sum.stddev,
					c->sum.median, c->sum.min, c->sum.max, c->sum.ci,
					c->sum.ci_pct, c->per_entry, s->oh_entry[e]);
				for (int k = 0; k < c->nr; k++)
					fprintf(f, "%s%.0f", k ? ";" : "", c->values[k]);
				fputc('\n', f);
			}
	}
}

static json_t *json_cells(const struct stat_run *run, const struct sr_region *r, int t)
{
	const struct stat_regions *s = run->regions;
	json_t *events = json_array();

	for (size_t e = 0; e < s->nr_ev; e++) {
		const struct sr_cell *c = sr_cell(s, r, t, e);
		json_t *values = json_array(), *entered = json_array();

		if (!c || !c->nr) {
			json_decref(values);
			json_decref(entered);
			continue;
		}
		for (int k = 0; k < c->nr; k++) {
			json_array_append_new(values, json_real(c->values[k]));
			json_array_append_new(entered, json_real(c->entered[k]));
		}
		json_array_append_new(
			events,
			json_pack("{s:s, s:o, s:o, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
				  "name", pmc_evsel__name(run->ev[e].evsel), "values", values,
				  "entered", entered, "mean", c->sum.mean, "ci", c->sum.ci,
				  "ci_pct", c->sum.ci_pct, "stddev", c->sum.stddev, "median",
				  c->sum.median, "min", c->sum.min, "max", c->sum.max, "per_entry",
				  c->per_entry, "overhead_per_entry", s->oh_entry[e]));
	}
	return events;
}

json_t *stat_regions__json(const struct stat_run *run)
{
	const struct stat_regions *s = run->regions;
	json_t *arr = json_array();

	for (size_t i = 0; s && i < s->nr; i++) {
		const struct sr_region *r = &s->r[i];
		json_t *threads = json_array();

		for (int t = 0; run->opts->per_thread && t < r->nr_threads; t++)
			json_array_append_new(threads, json_pack("{s:i, s:o}", "thread", t,
								 "events", json_cells(run, r, t)));
		json_array_append_new(
			arr, json_pack("{s:s, s:I, s:I, s:b, s:I, s:I, s:o, s:o}", "name", r->name,
				       "entered", (json_int_t)r->entered, "exited",
				       (json_int_t)r->exited, "entries_vary", r->varies,
				       "open_at_exit", (json_int_t)r->open_at_exit, "unmatched_end",
				       (json_int_t)r->unmatched_end, "events",
				       json_cells(run, r, -1), "threads", threads));
	}
	return arr;
}

/* {"subtracted": bool, "calibration": file, "date": ...} for the JSON root. */
json_t *stat_regions__overhead_json(const struct stat_run *run)
{
	const struct stat_regions *s = run->regions;

	if (!s || !s->calib)
		return json_pack("{s:b}", "subtracted", false);
	return json_pack("{s:b, s:s, s:s, s:s}", "subtracted", true, "calibration",
			 calib_path(s->calib), "calibrated", calib_date(s->calib), "what",
			 "per run from whole-program values, per entry from region values");
}

void stat_regions__print_overhead(FILE *f, const struct stat_run *run, const char *prefix)
{
	const struct stat_regions *s = run->regions;

	if (s && s->calib)
		fprintf(f,
			"%soverhead subtracted (calibration %s of %s): per run from whole-program "
			"values, per entry from region values; never below 0\n",
			prefix, calib_path(s->calib), calib_date(s->calib));
}

double stat_regions__overhead_run(const struct stat_run *run, size_t idx)
{
	const struct stat_regions *s = run->regions;

	return s && s->calib && idx < s->nr_ev ? s->oh_run[idx] : 0.0;
}
