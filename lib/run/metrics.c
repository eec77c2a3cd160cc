// SPDX-License-Identifier: MIT
/*
 * The metrics of a run (pmc_run_opts.metrics): each selected metric computed from the results
 * once they are summarised, for the whole program, each region, each region's thread and each
 * unit (pmc_metric__summarize()), kept as typed rows (pmc_run__metrics()) that the results
 * files carry: the JSON and HTML files' "metrics" arrays, the text file's section of metric
 * lines and the CSV file's tables (docs/stat-output.md, "Metrics").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "core/field.h"
#include "metric/metric.h"
#include "run/output.h"

/* The counts of events[] (the results', a unit's or an interval's, in the results' order). */
static struct pmc_metric_counts *counts_new(const struct pmc_run *run,
					    const struct pmc_run_event *events)
{
	const struct pmc_run_results *res = &run->res;
	struct pmc_metric_counts *in = calloc(res->nr_events + 1, sizeof(*in));

	for (size_t i = 0; in && i < res->nr_events; i++) {
		const struct pmc_run_event *e = &events[i];

		in[i] = (struct pmc_metric_counts){.name = pmc_evsel__name(e->evsel),
						   .pass = pmc_evsel__pass(e->evsel),
						   .counted = e->supported && e->nr > 0,
						   .why = e->supported ? NULL : e->why,
						   .nr = e->nr,
						   .values = e->values,
						   .scaled = e->scaled};
	}
	return in;
}

/* A region's (thread's) cells in place of the whole-program values. */
static void set_cells(const struct pmc_run *run, struct pmc_metric_counts *in, size_t r, int thread)
{
	for (size_t i = 0; i < run->res.nr_events; i++) {
		const struct pmc_run_cell *c = pmc_run__cell(run, r, thread, i);

		in[i].counted = c && c->nr > 0;
		in[i].nr = c ? c->nr : 0;
		in[i].values = c ? c->values : NULL;
		in[i].scaled = false;
		if (!in[i].counted && !in[i].why)
			in[i].why = "not counted in this region";
	}
}

/* Every selected metric over in[], each into s[i] (nr_selected of them). */
static int summarize(const struct pmc_run *run, const struct pmc_metric_counts *in,
		     struct pmc_metric_summary *s)
{
	struct pmc_metric_summary_opts so = {.sz = sizeof(so), .level = run->opts.level};
	struct pmc_metrics *m = run->opts.metrics;
	int rc = 0;

	for (size_t i = 0; i < pmc_metrics__nr_selected(m) && !rc; i++) {
		s[i] = (struct pmc_metric_summary){.sz = sizeof(s[i])};
		rc = pmc_metric__summarize(pmc_metrics__selected(m, i), in, run->res.nr_events, &so,
					   &s[i]);
		if (rc)
			pmc_run_metrics__delete(s, i);
	}
	return rc;
}

/* A row per selected metric over in[], in the scope given. */
static int add_rows(struct pmc_run *run, const struct pmc_metric_counts *in, const char *region,
		    int thread, long unit)
{
	size_t nr = pmc_metrics__nr_selected(run->opts.metrics);
	struct pmc_run_metric_row *v =
		realloc(run->metrics, (run->nr_metrics + nr + 1) * sizeof(*v));
	struct pmc_metric_summary *s = calloc(nr + 1, sizeof(*s));
	int rc = v && s ? 0 : -ENOMEM;

	if (v)
		run->metrics = v;
	if (!rc)
		rc = summarize(run, in, s);
	for (size_t i = 0; i < nr && !rc; i++)
		run->metrics[run->nr_metrics++] = (struct pmc_run_metric_row){
			.region = region, .thread = thread, .unit = unit, .s = s[i]};
	free(s);
	return rc;
}

static int regions(struct pmc_run *run, struct pmc_metric_counts *in)
{
	const struct pmc_run_results *res = &run->res;
	int rc = 0;

	for (size_t r = 0; r < res->nr_regions && !rc; r++) {
		const struct pmc_run_region *reg = &res->regions[r];

		set_cells(run, in, r, -1);
		rc = add_rows(run, in, reg->name, -1, -1);
		for (int t = 0; run->opts.per_thread && t < reg->nr_threads && !rc; t++) {
			set_cells(run, in, r, t);
			rc = add_rows(run, in, reg->name, t, -1);
		}
	}
	return rc;
}

int pmc__run_metrics_compute(struct pmc_run *run)
{
	struct pmc_metric_counts *in;
	int rc;

	pmc__run_metrics_free(run);
	if (!run->opts.metrics)
		return 0;
	in = counts_new(run, run->res.events);
	rc = in ? add_rows(run, in, NULL, -1, -1) : -ENOMEM;
	if (!rc)
		rc = regions(run, in);
	free(in);
	for (size_t u = 0; u < run->res.nr_units && !rc; u++) {
		in = counts_new(run, run->res.units[u].events);
		rc = in ? add_rows(run, in, NULL, -1, (long)u) : -ENOMEM;
		free(in);
	}
	return rc;
}

const struct pmc_run_metric_row *pmc_run__metrics(const struct pmc_run *run, size_t *nr)
{
	*nr = run ? run->nr_metrics : 0;
	return run && run->nr_metrics ? run->metrics : NULL;
}

int pmc_run__metrics_of(const struct pmc_run *run, const struct pmc_run_event *events,
			struct pmc_metric_summary **out, size_t *nr)
{
	struct pmc_metric_counts *in;
	size_t n;
	int rc;

	*out = NULL;
	*nr = 0;
	if (!run || !events || !run->opts.metrics)
		return -EINVAL;
	n = pmc_metrics__nr_selected(run->opts.metrics);
	in = counts_new(run, events);
	*out = calloc(n + 1, sizeof(**out));
	rc = in && *out ? summarize(run, in, *out) : -ENOMEM;
	free(in);
	if (rc) {
		free(*out);
		*out = NULL;
		return rc;
	}
	*nr = n;
	return 0;
}

void pmc_run_metrics__delete(struct pmc_metric_summary *s, size_t nr)
{
	for (size_t i = 0; s && i < nr; i++)
		pmc_metric_summary__fini(&s[i]);
	free(s);
}

static bool in_scope(const struct pmc_run_metric_row *rm, const char *region, int thread, long unit)
{
	if (!region != !rm->region)
		return false;
	if (region)
		return !strcmp(region, rm->region) && rm->thread == thread;
	return rm->unit == unit;
}

json_t *pmc__run_metrics_json(const struct pmc_run *run, const char *region, int thread, long unit)
{
	json_t *a;

	if (!run->nr_metrics)
		return NULL;
	a = json_array();
	for (size_t i = 0; a && i < run->nr_metrics; i++)
		if (in_scope(&run->metrics[i], region, thread, unit))
			json_array_append_new(a, pmc__metric_summary_json(&run->metrics[i].s));
	return a;
}

/* "program -", "region NAME", "thread NAME[tN]" or "unit LABEL": where the metric is of. */
static void scope(FILE *f, const struct pmc_run *run, const struct pmc_run_metric_row *rm)
{
	if (rm->region) {
		fputs(rm->thread >= 0 ? "thread " : "region ", f);
		pmc__pct_field(f, rm->region);
		if (rm->thread >= 0)
			fprintf(f, "[t%d]", rm->thread);
	} else if (rm->unit >= 0) {
		fputs("unit ", f);
		pmc__pct_field(f, run->res.units[rm->unit].label);
	} else {
		fputs("program -", f);
	}
}

static double or_zero(double d)
{
	return isfinite(d) ? d : 0;
}

/* A metric's line: NAME SCOPE NAME value ci ci_pct n method [unit], or a comment with why not. */
static void text_line(FILE *f, const struct pmc_run *run, const struct pmc_run_metric_row *rm)
{
	const struct pmc_metric_summary *s = &rm->s;
	const struct pmc_metric_info *info = pmc_metric__info(s->metric);
	bool ok = s->v.status == PMC_METRIC_OK;

	if (!ok || !isfinite(s->v.value)) {
		fputs("# ", f);
		pmc__pct_field(f, info->name);
		fputc(' ', f);
		scope(f, run, rm);
		fprintf(f, ": %s: %s\n",
			s->v.status == PMC_METRIC_OK   ? "ok"
			: s->v.status == PMC_METRIC_NA ? "n/a"
						       : "unavailable",
			ok ? "" : s->v.why);
		return;
	}
	pmc__pct_field(f, info->name);
	fputc(' ', f);
	scope(f, run, rm);
	fprintf(f, " %.17g %.17g %.3f %lld ", s->v.value, or_zero(s->ci), or_zero(s->ci_pct),
		(long long)s->n);
	pmc__pct_field(f, pmc_metric_method__name(s->method));
	if (*info->unit)
		fputc(' ', f);
	pmc__pct_field(f, info->unit);
	fputc('\n', f);
}

void pmc__run_metrics_text(const struct pmc_run *run, FILE *f)
{
	if (!run->nr_metrics)
		return;
	fprintf(f, "# Metrics (%zu, %g%% confidence level):\n", run->nr_metrics,
		run->opts.level * 100);
	fprintf(f, "# Metric Scope Name Value [conf.int] [percentage] Runs Method [unit]\n");
	for (size_t i = 0; i < run->nr_metrics; i++)
		text_line(f, run, &run->metrics[i]);
}

/*
 * The metrics' table after a blank line, as the regions' (whole program, regions, threads),
 * then the units' after another, each row led by its unit's label.
 */
void pmc__run_metrics_csv(const struct pmc_run *run, FILE *f)
{
	if (!run->opts.metrics)
		return;
	fputc('\n', f);
	pmc_metric_summary__csv_header(f, ",");
	for (size_t i = 0; i < run->nr_metrics; i++)
		if (run->metrics[i].unit < 0)
			pmc_metric_summary__csv(f, &run->metrics[i].s, ",", run->metrics[i].region,
						run->metrics[i].thread);
	if (!run->res.nr_units)
		return;
	fputs("\nunit_label,", f);
	pmc_metric_summary__csv_header(f, ",");
	for (size_t i = 0; i < run->nr_metrics; i++) {
		const struct pmc_run_metric_row *rm = &run->metrics[i];

		if (rm->unit < 0)
			continue;
		pmc__csv_field_sep(f, run->res.units[rm->unit].label, ",");
		fputc(',', f);
		pmc_metric_summary__csv(f, &rm->s, ",", NULL, -1);
	}
}

void pmc__run_metrics_free(struct pmc_run *run)
{
	for (size_t i = 0; i < run->nr_metrics; i++)
		pmc_metric_summary__fini(&run->metrics[i].s);
	free(run->metrics);
	run->metrics = NULL;
	run->nr_metrics = 0;
}
