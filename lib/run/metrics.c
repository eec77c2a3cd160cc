// SPDX-License-Identifier: MIT
/*
 * Metrics the caller computed from the results (pmc_run__add_metric()), kept in the results
 * model in their scopes: the JSON and HTML files' "metrics" arrays, and the text file's
 * section of metric lines (docs/stat-output.md, "Metrics").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "core/field.h"
#include "core/opts.h"
#include "run/output.h"

/* A non-finite number is null in JSON. */
static json_t *number(double d)
{
	return isfinite(d) ? json_real(d) : json_null();
}

static json_t *field_value(const struct pmc_run_field *f)
{
	json_t *a;

	switch (f->kind) {
	case PMC_RUN_FIELD_NULL:
		return json_null();
	case PMC_RUN_FIELD_STRING:
		return f->s ? json_string(f->s) : json_null();
	case PMC_RUN_FIELD_NUMBER:
		return number(f->d);
	case PMC_RUN_FIELD_INTEGER:
		return json_integer((json_int_t)f->i);
	case PMC_RUN_FIELD_BOOL:
		return json_boolean(f->b);
	case PMC_RUN_FIELD_NUMBERS:
	case PMC_RUN_FIELD_STRINGS:
		if (f->n && (f->kind == PMC_RUN_FIELD_NUMBERS ? !f->v : !f->strs))
			return NULL;
		a = json_array();
		for (size_t i = 0; a && i < f->n; i++) {
			json_t *e = f->kind == PMC_RUN_FIELD_NUMBERS ? number(f->v[i])
				    : f->strs[i]		     ? json_string(f->strs[i])
								     : NULL;

			if (json_array_append_new(a, e)) {
				json_decref(a);
				a = NULL;
			}
		}
		return a;
	}
	return NULL;
}

/* The fields as one object; NULL for a field that is not one (no key, a key twice, a bad kind,
 * a string that is not UTF-8) or no memory, told apart by *enomem. */
static json_t *fields_object(const struct pmc_run_field *f, size_t n, bool *enomem)
{
	json_t *o = json_object();

	*enomem = !o;
	for (size_t i = 0; o && i < n; i++) {
		json_t *v = f[i].key && !json_object_get(o, f[i].key) ? field_value(&f[i]) : NULL;

		if (!v || json_object_set_new(o, f[i].key, v)) {
			json_decref(o);
			o = NULL;
		}
	}
	return o;
}

int pmc_run__add_metric(struct pmc_run *run, const struct pmc_run_metric *m)
{
	struct pmc_run_metric mo;
	struct run_metric *v, *rm;
	bool enomem = false;
	json_t *obj;

	if (!run || !m || PMC_OPTS_COPY(pmc_run_metric, &mo, m, json))
		return -EINVAL;
	if ((!mo.json && !mo.fields) || (mo.thread >= 0 && !mo.region) ||
	    (mo.region && mo.unit >= 0) || (mo.unit >= 0 && (size_t)mo.unit >= run->res.nr_units))
		return -EINVAL;
	obj = mo.json ? json_loads(mo.json, JSON_REJECT_DUPLICATES, NULL)
		      : fields_object(mo.fields, mo.nr_fields, &enomem);
	if (!json_is_object(obj) || !json_is_string(json_object_get(obj, "name"))) {
		json_decref(obj);
		return enomem ? -ENOMEM : -EINVAL;
	}
	v = realloc(run->metrics, (run->nr_metrics + 1) * sizeof(*v));
	if (!v) {
		json_decref(obj);
		return -ENOMEM;
	}
	run->metrics = v;
	rm = &v[run->nr_metrics];
	*rm = (struct run_metric){
		.thread = mo.region ? mo.thread : -1, .unit = mo.region ? -1 : mo.unit, .obj = obj};
	if (mo.region && !(rm->region = strdup(mo.region))) {
		json_decref(obj);
		return -ENOMEM;
	}
	run->nr_metrics++;
	return 0;
}

static bool in_scope(const struct run_metric *rm, const char *region, int thread, long unit)
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
			json_array_append(a, run->metrics[i].obj);
	return a;
}

static const char *str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

/* "program -", "region NAME", "thread NAME[tN]" or "unit LABEL": where the metric is of. */
static void scope(FILE *f, const struct pmc_run *run, const struct run_metric *rm)
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

/* A metric's line: NAME SCOPE NAME value ci ci_pct n method [unit], or a comment with why not. */
static void text_line(FILE *f, const struct pmc_run *run, const struct run_metric *rm)
{
	json_t *o = rm->obj, *value = json_object_get(o, "value");

	if (!json_is_number(value)) {
		fputs("# ", f);
		pmc__pct_field(f, str(o, "name"));
		fputc(' ', f);
		scope(f, run, rm);
		fprintf(f, ": %s: %s\n", *str(o, "status") ? str(o, "status") : "no value",
			str(o, "reason"));
		return;
	}
	pmc__pct_field(f, str(o, "name"));
	fputc(' ', f);
	scope(f, run, rm);
	fprintf(f, " %.17g %.17g %.3f %lld ", json_number_value(value),
		json_number_value(json_object_get(o, "ci")),
		json_number_value(json_object_get(o, "ci_pct")),
		(long long)json_integer_value(json_object_get(o, "n")));
	pmc__pct_field(f, *str(o, "method") ? str(o, "method") : "-");
	if (*str(o, "unit"))
		fputc(' ', f);
	pmc__pct_field(f, str(o, "unit"));
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

void pmc__run_metrics_free(struct pmc_run *run)
{
	for (size_t i = 0; i < run->nr_metrics; i++) {
		free(run->metrics[i].region);
		json_decref(run->metrics[i].obj);
	}
	free(run->metrics);
	run->metrics = NULL;
	run->nr_metrics = 0;
}
