// SPDX-License-Identifier: MIT
/*
 * The one printer of metrics, for pmc stat and pmc metrics (docs/stat-output.md, "Metrics"):
 * the comment column's text, a JSON object and a CSV line per metric, and the rows of a
 * run's metrics (whole program, per region, per thread) in each format.
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

static const char *status_name(enum pmc_metric_status s)
{
	return s == PMC_METRIC_OK ? "ok" : s == PMC_METRIC_NA ? "n/a" : "unavailable";
}

/*
 * The estimate less the exact value as printed with dp decimals: a rounding error of the
 * formula's arithmetic that prints as 0 is +0.00, not -0.00 (which reads as an estimate below).
 */
static double shown_difference(const struct metric_result *r, int dp)
{
	double d = r->v.value - r->exact.value;

	return fabs(d) < 0.5 * pow(10, -dp) ? 0 : d;
}

char *metric_comment(char *buf, size_t len, const struct metric_result *r)
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
	if (n < len && r->method != METRIC_ONE_RUN && (r->v.value != 0 || r->ci == 0))
		n += (size_t)snprintf(buf + n, len - n, "  ( +- %.2f%%, %s )", r->ci_pct,
				      metric_method__name(r->method));
	else if (n < len && r->method != METRIC_ONE_RUN)
		n += (size_t)snprintf(buf + n, len - n, "  ( +- %.*f, %s )", decimals(r->ci), r->ci,
				      metric_method__name(r->method));
	if (n < len && r->has_exact && r->exact.status == PMC_METRIC_OK)
		n += (size_t)snprintf(buf + n, len - n, "  [exact %.*f%s%s, difference %+.*f]",
				      value_decimals(r->exact.value), r->exact.value,
				      *r->v.unit ? " " : "", r->v.unit, decimals(r->exact.value),
				      shown_difference(r, decimals(r->exact.value)));
	if (n < len && r->v.flagged == 1)
		snprintf(buf + n, len - n, "  <==");
	return buf;
}

/* The formula as its file or definition wrote it, without the blanks after a definition's '='. */
static const char *formula(const struct pmc_metric_info *info)
{
	return info->expr + strspn(info->expr, " \t");
}

static json_t *number(const struct metric_result *r, double v)
{
	return r->v.status == PMC_METRIC_OK && isfinite(v) ? json_real(v) : json_null();
}

static json_t *inputs_json(const char *list)
{
	json_t *a = json_array();

	for (const char *s = list; a && *s;) {
		size_t n = strcspn(s, ",");

		json_array_append_new(a, json_stringn(s, n));
		s += n;
		s += strspn(s, ", ");
	}
	return a;
}

/* The threshold in the metric's unit (a fraction beside a value in % reads as neither). */
static json_t *threshold_shown(const struct pmc_metric *metric)
{
	char buf[1024];

	if (!pmc_metric__info(metric)->threshold)
		return json_null();
	if (pmc_metric__threshold_shown(metric, buf, sizeof(buf)))
		return json_string(pmc_metric__info(metric)->threshold);
	return json_string(buf);
}

json_t *metric_json(const struct metric_result *r)
{
	const struct pmc_metric_info *info = pmc_metric__info(r->metric);
	json_t *j = json_object();

	if (!j)
		return NULL;
	json_object_set_new(j, "name", json_string(info->name));
	json_object_set_new(j, "value", number(r, r->v.value));
	json_object_set_new(j, "ci", number(r, r->ci));
	json_object_set_new(j, "ci_pct", number(r, r->ci_pct));
	json_object_set_new(j, "unit", json_string(info->unit));
	json_object_set_new(j, "method", json_string(metric_method__name(r->method)));
	json_object_set_new(j, "n", json_integer(r->n));
	if (r->values) {
		json_t *a = json_array();

		for (int i = 0; a && i < r->n; i++)
			json_array_append_new(a, number(r, r->values[i]));
		json_object_set_new(j, "values", a);
	}
	json_object_set_new(j, "formula", json_string(formula(info)));
	json_object_set_new(j, "inputs", inputs_json(r->inputs));
	json_object_set_new(j, "threshold",
			    info->threshold ? json_string(info->threshold) : json_null());
	json_object_set_new(j, "threshold_shown", threshold_shown(r->metric));
	json_object_set_new(j, "flagged",
			    r->v.flagged < 0 ? json_null() : json_boolean(r->v.flagged == 1));
	if (r->has_exact) {
		bool ok = r->exact.status == PMC_METRIC_OK && isfinite(r->exact.value);

		json_object_set_new(j, "exact", ok ? json_real(r->exact.value) : json_null());
		json_object_set_new(j, "exact_difference",
				    ok && r->v.status == PMC_METRIC_OK
					    ? json_real(r->v.value - r->exact.value)
					    : json_null());
		if (!ok)
			json_object_set_new(j, "exact_reason", json_string(r->exact.why));
	}
	json_object_set_new(j, "status", json_string(status_name(r->v.status)));
	if (r->v.status != PMC_METRIC_OK)
		json_object_set_new(j, "reason", json_string(r->v.why));
	return j;
}

void stat_csv_field(FILE *f, const char *s, const char *sep)
{
	if (!strstr(s, sep) && !strpbrk(s, "\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++)
		fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
	fputc('"', f);
}

void metric_csv_header(FILE *f, const char *sep)
{
	static const char *const fields[] = {
		"metric", "region", "thread", "n",	 "value",	    "ci",
		"ci_pct", "unit",   "method", "flagged", "threshold",	    "formula",
		"inputs", "status", "reason", "exact",	 "exact_difference"};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		fprintf(f, "%s%s", i ? sep : "", fields[i]);
	fputc('\n', f);
}

void metric_csv(FILE *f, const struct metric_result *r, const char *sep, const char *region,
		int thread)
{
	const struct pmc_metric_info *info = pmc_metric__info(r->metric);
	bool ok = r->v.status == PMC_METRIC_OK;
	char inputs[sizeof(r->inputs)];

	stat_csv_field(f, info->name, sep);
	fputs(sep, f);
	stat_csv_field(f, region ? region : "", sep);
	if (thread >= 0)
		fprintf(f, "%s%d%s%d%s", sep, thread, sep, r->n, sep);
	else
		fprintf(f, "%s%s%d%s", sep, sep, r->n, sep);
	if (ok)
		fprintf(f, "%.17g%s%.17g%s%.17g%s", r->v.value, sep, r->ci, sep, r->ci_pct, sep);
	else
		fprintf(f, "%s%s%s", sep, sep, sep);
	stat_csv_field(f, info->unit, sep);
	fprintf(f, "%s%s%s%s%s", sep, metric_method__name(r->method), sep,
		r->v.flagged < 0 ? ""
		: r->v.flagged	 ? "yes"
				 : "no",
		sep);
	stat_csv_field(f, info->threshold ? info->threshold : "", sep);
	fputs(sep, f);
	stat_csv_field(f, formula(info), sep);
	fputs(sep, f);
	snprintf(inputs, sizeof(inputs), "%s", r->inputs);
	for (char *p = strstr(inputs, ", "); p; p = strstr(p, ", "))
		memmove(p, p + 1, strlen(p)), *p = ';';
	stat_csv_field(f, inputs, sep);
	fprintf(f, "%s%s%s", sep, status_name(r->v.status), sep);
	stat_csv_field(f, ok ? "" : r->v.why, sep);
	fputs(sep, f);
	if (r->has_exact && r->exact.status == PMC_METRIC_OK) {
		fprintf(f, "%.17g%s", r->exact.value, sep);
		if (ok)
			fprintf(f, "%.17g", r->v.value - r->exact.value);
	} else {
		fputs(sep, f);
	}
	fputc('\n', f);
}

/* Rows: every selected metric over each scope's counts. */
int metric_rows__add(struct metric_rows *rows, const struct pmc_metrics *m,
		     const struct metric_counts *c, const char *region, int thread)
{
	size_t nr = pmc_metrics__nr_selected(m);
	struct metric_row *v = realloc(rows->v, (rows->nr + nr + 1) * sizeof(*v));
	int rc = 0;

	if (!v)
		return -ENOMEM;
	rows->v = v;
	for (size_t i = 0; i < nr && !rc; i++) {
		struct metric_row *row = &rows->v[rows->nr];

		row->region = region;
		row->thread = thread;
		rc = metric_compute(pmc_metrics__selected(m, i), c, &row->r);
		if (!rc)
			rows->nr++;
	}
	return rc;
}

void metric_rows__free(struct metric_rows *rows)
{
	for (size_t i = 0; i < rows->nr; i++)
		metric_result_free(&rows->v[i].r);
	free(rows->v);
	*rows = (struct metric_rows){0};
}

static bool same_scope(const struct metric_row *row, const char *region, int thread)
{
	if (!region != !row->region)
		return false;
	return (!region || !strcmp(region, row->region)) && row->thread == thread;
}

json_t *metric_rows__json(const struct metric_rows *rows, const char *region, int thread)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < rows->nr; i++)
		if (same_scope(&rows->v[i], region, thread))
			json_array_append_new(a, metric_json(&rows->v[i].r));
	return a;
}

void metric_rows__csv(FILE *f, const struct metric_rows *rows, const char *sep)
{
	metric_csv_header(f, sep);
	for (size_t i = 0; i < rows->nr; i++)
		metric_csv(f, &rows->v[i].r, sep, rows->v[i].region, rows->v[i].thread);
}

/* The metrics of one scope on lines of their own, under the summary's columns. */
void metric_rows__print(FILE *f, const struct metric_rows *rows, const char *region, int thread,
			const char *indent, const bool *printed)
{
	char buf[1024];

	for (size_t i = 0; i < rows->nr; i++)
		if (same_scope(&rows->v[i], region, thread) && !(printed && printed[i]))
			fprintf(f, "%s%s\n", indent,
				metric_comment(buf, sizeof(buf), &rows->v[i].r));
}
