// SPDX-License-Identifier: MIT
/*
 * A metric's summary in the machine formats of docs/stat-output.md, "Metrics": the JSON object
 * of the results files, pmc stat -j and pmc metrics, and the CSV line of the results file,
 * pmc stat -x and pmc metrics.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "core/field.h"
#include "metric/metric.h"

static const char *status_name(enum pmc_metric_status s)
{
	return s == PMC_METRIC_OK ? "ok" : s == PMC_METRIC_NA ? "n/a" : "unavailable";
}

/* The formula as its file or definition wrote it, without the blanks after a definition's '='. */
static const char *formula(const struct pmc_metric_info *info)
{
	return info->expr + strspn(info->expr, " \t");
}

static json_t *number(const struct pmc_metric_summary *s, double v)
{
	return s->v.status == PMC_METRIC_OK && isfinite(v) ? json_real(v) : json_null();
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

static void exact_json(json_t *j, const struct pmc_metric_summary *s)
{
	bool ok = s->exact.status == PMC_METRIC_OK && isfinite(s->exact.value);

	json_object_set_new(j, "exact", ok ? json_real(s->exact.value) : json_null());
	json_object_set_new(j, "exact_difference",
			    ok && s->v.status == PMC_METRIC_OK
				    ? json_real(s->v.value - s->exact.value)
				    : json_null());
	if (!ok)
		json_object_set_new(j, "exact_reason", json_string(s->exact.why));
}

json_t *pmc__metric_summary_json(const struct pmc_metric_summary *s)
{
	const struct pmc_metric_info *info = pmc_metric__info(s->metric);
	json_t *j = json_object();

	if (!j)
		return NULL;
	json_object_set_new(j, "name", json_string(info->name));
	json_object_set_new(j, "value", number(s, s->v.value));
	json_object_set_new(j, "ci", number(s, s->ci));
	json_object_set_new(j, "ci_pct", number(s, s->ci_pct));
	json_object_set_new(j, "unit", json_string(info->unit));
	json_object_set_new(j, "method", json_string(pmc_metric_method__name(s->method)));
	json_object_set_new(j, "n", json_integer(s->n));
	if (s->values) {
		json_t *a = json_array();

		for (int i = 0; a && i < s->n; i++)
			json_array_append_new(a, number(s, s->values[i]));
		json_object_set_new(j, "values", a);
	}
	json_object_set_new(j, "formula", json_string(formula(info)));
	json_object_set_new(j, "inputs", inputs_json(s->inputs));
	json_object_set_new(j, "threshold",
			    info->threshold ? json_string(info->threshold) : json_null());
	json_object_set_new(j, "threshold_shown", threshold_shown(s->metric));
	json_object_set_new(j, "flagged",
			    s->v.flagged < 0 ? json_null() : json_boolean(s->v.flagged == 1));
	if (s->has_exact)
		exact_json(j, s);
	json_object_set_new(j, "status", json_string(status_name(s->v.status)));
	if (s->v.status != PMC_METRIC_OK)
		json_object_set_new(j, "reason", json_string(s->v.why));
	return j;
}

int pmc_metric_summary__json(const struct pmc_metric_summary *s, char **out)
{
	json_t *j;

	if (!s || !s->metric || !out)
		return -EINVAL;
	j = pmc__metric_summary_json(s);
	*out = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
	json_decref(j);
	return *out ? 0 : -ENOMEM;
}

void pmc_metric_summary__csv_header(FILE *f, const char *sep)
{
	static const char *const fields[] = {
		"metric", "region", "thread", "n",	 "value",	    "ci",
		"ci_pct", "unit",   "method", "flagged", "threshold",	    "formula",
		"inputs", "status", "reason", "exact",	 "exact_difference"};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		fprintf(f, "%s%s", i ? sep : "", fields[i]);
	fputc('\n', f);
}

/* The fields after the unit: method, flagged, threshold, formula, inputs (';'-separated). */
static void csv_definition(FILE *f, const struct pmc_metric_summary *s, const char *sep)
{
	const struct pmc_metric_info *info = pmc_metric__info(s->metric);
	char inputs[sizeof(s->inputs)];

	fprintf(f, "%s%s%s%s%s", sep, pmc_metric_method__name(s->method), sep,
		s->v.flagged < 0 ? ""
		: s->v.flagged	 ? "yes"
				 : "no",
		sep);
	pmc__csv_field_sep(f, info->threshold ? info->threshold : "", sep);
	fputs(sep, f);
	pmc__csv_field_sep(f, formula(info), sep);
	fputs(sep, f);
	snprintf(inputs, sizeof(inputs), "%s", s->inputs);
	for (char *p = strstr(inputs, ", "); p; p = strstr(p, ", "))
		memmove(p, p + 1, strlen(p)), *p = ';';
	pmc__csv_field_sep(f, inputs, sep);
}

void pmc_metric_summary__csv(FILE *f, const struct pmc_metric_summary *s, const char *sep,
			     const char *region, int thread)
{
	const struct pmc_metric_info *info = pmc_metric__info(s->metric);
	bool ok = s->v.status == PMC_METRIC_OK;

	pmc__csv_field_sep(f, info->name, sep);
	fputs(sep, f);
	pmc__csv_field_sep(f, region ? region : "", sep);
	if (thread >= 0)
		fprintf(f, "%s%d%s%d%s", sep, thread, sep, s->n, sep);
	else
		fprintf(f, "%s%s%d%s", sep, sep, s->n, sep);
	if (ok)
		fprintf(f, "%.17g%s%.17g%s%.17g%s", s->v.value, sep, s->ci, sep, s->ci_pct, sep);
	else
		fprintf(f, "%s%s%s", sep, sep, sep);
	pmc__csv_field_sep(f, info->unit, sep);
	csv_definition(f, s, sep);
	fprintf(f, "%s%s%s", sep, status_name(s->v.status), sep);
	pmc__csv_field_sep(f, ok ? "" : s->v.why, sep);
	fputs(sep, f);
	if (s->has_exact && s->exact.status == PMC_METRIC_OK) {
		fprintf(f, "%.17g%s", s->exact.value, sep);
		if (ok)
			fprintf(f, "%.17g", s->v.value - s->exact.value);
	} else {
		fputs(sep, f);
	}
	fputc('\n', f);
}
