// SPDX-License-Identifier: MIT
/*
 * The one printer of metrics, for pmc stat and pmc metrics (docs/stat-output.md, "Metrics"):
 * the comment column's text, and the rows of a run's metrics (whole program, per region, per
 * thread) in each format, each row's JSON object and CSV line as libpmc writes them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "stat-metric.h"

/* Digits after the point: two, or as many as three significant digits of a small value need. */
static int decimals(double v)
{
	int d = 2;

	if (v != 0 && fabs(v) < 1)
		d = 2 - (int)floor(log10(fabs(v)));
	return d > 9 ? 9 : d;
}

/*
 * Of a metric's value: none for a whole number (a count such as SLOTS, exact under vpmu, prints
 * as the counts do, with no decimals it does not have), else as decimals() says.
 */
static int value_decimals(double v)
{
	return v == floor(v) && fabs(v) < 1e15 ? 0 : decimals(v);
}

/*
 * The estimate less the exact value as printed with dp decimals: a rounding error of the
 * formula's arithmetic that prints as 0 is +0.00, not -0.00 (which reads as an estimate below).
 */
static double shown_difference(const struct pmc_metric_summary *r, int dp)
{
	double d = r->v.value - r->exact.value;

	return fabs(d) < 0.5 * pow(10, -dp) ? 0 : d;
}

char *metric_comment(char *buf, size_t len, const struct pmc_metric_summary *r)
{
	const struct pmc_metric_info *info = pmc_metric__info(r->metric);
	size_t n;

	if (r->v.status != PMC_METRIC_OK) {
		snprintf(buf, len, "# %9s  %s  (%s)",
			 r->v.status == PMC_METRIC_NA ? "n/a" : "<unavailable>", info->name,
			 r->v.why);
		return buf;
	}
	n = (size_t)snprintf(buf, len, "# %9.*f %s%s %s", value_decimals(r->v.value), r->v.value,
			     r->v.unit, *r->v.unit ? " " : "", info->name);
	/* Of a value of 0, the interval in the metric's unit (no percentage of 0). */
	if (n < len && r->method != PMC_METRIC_ONE_RUN && (r->v.value != 0 || r->ci == 0))
		n += (size_t)snprintf(buf + n, len - n, "  ( +- %.2f%%, %s )", r->ci_pct,
				      pmc_metric_method__name(r->method));
	else if (n < len && r->method != PMC_METRIC_ONE_RUN)
		n += (size_t)snprintf(buf + n, len - n, "  ( +- %.*f, %s )", decimals(r->ci), r->ci,
				      pmc_metric_method__name(r->method));
	if (n < len && r->has_exact && r->exact.status == PMC_METRIC_OK)
		n += (size_t)snprintf(buf + n, len - n, "  [exact %.*f%s%s, difference %+.*f]",
				      value_decimals(r->exact.value), r->exact.value,
				      *r->v.unit ? " " : "", r->v.unit, decimals(r->exact.value),
				      shown_difference(r, decimals(r->exact.value)));
	if (n < len && r->v.flagged == 1)
		snprintf(buf + n, len - n, "  <==");
	return buf;
}

/* A metric as a JSON object of docs/stat-output.md's fields; NULL: no memory. */
static json_t *metric_json(const struct pmc_metric_summary *s)
{
	char *text;
	json_t *j;

	if (pmc_metric_summary__json(s, &text))
		return NULL;
	j = json_loads(text, 0, NULL);
	free(text);
	return j;
}

void metric_rows__free(struct metric_rows *rows)
{
	struct pmc_run_metric_row *v = (struct pmc_run_metric_row *)rows->v;

	for (size_t i = 0; i < rows->nr; i++)
		pmc_metric_summary__fini(&v[i].s);
	free(v);
	*rows = (struct metric_rows){0};
}

static bool same_scope(const struct pmc_run_metric_row *row, const char *region, int thread)
{
	if (!region != !row->region || row->unit >= 0)
		return false;
	return (!region || !strcmp(region, row->region)) && row->thread == thread;
}

json_t *metric_rows__json(const struct metric_rows *rows, const char *region, int thread)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < rows->nr; i++)
		if (same_scope(&rows->v[i], region, thread))
			json_array_append_new(a, metric_json(&rows->v[i].s));
	return a;
}

void metric_rows__csv(FILE *f, const struct metric_rows *rows, const char *sep)
{
	pmc_metric_summary__csv_header(f, sep);
	for (size_t i = 0; i < rows->nr; i++)
		if (rows->v[i].unit < 0)
			pmc_metric_summary__csv(f, &rows->v[i].s, sep, rows->v[i].region,
						rows->v[i].thread);
}

/* The metrics of one scope on lines of their own, under the summary's columns. */
void metric_rows__print(FILE *f, const struct metric_rows *rows, const char *region, int thread,
			const char *indent, const bool *printed)
{
	char buf[1024];

	for (size_t i = 0; i < rows->nr; i++)
		if (same_scope(&rows->v[i], region, thread) && !(printed && printed[i]))
			fprintf(f, "%s%s\n", indent,
				metric_comment(buf, sizeof(buf), &rows->v[i].s));
}

void metric_rows__print_unit(FILE *f, const struct metric_rows *rows, long unit, const char *indent)
{
	char buf[1024];

	for (size_t i = 0; i < rows->nr; i++)
		if (rows->v[i].unit == unit)
			fprintf(f, "%s%s\n", indent,
				metric_comment(buf, sizeof(buf), &rows->v[i].s));
}

json_t *metric_rows__json_unit(const struct metric_rows *rows, long unit)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < rows->nr; i++)
		if (rows->v[i].unit == unit)
			json_array_append_new(a, metric_json(&rows->v[i].s));
	return a;
}
