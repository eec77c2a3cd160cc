// SPDX-License-Identifier: MIT
/*
 * Metrics the caller computed from the results (pmc_run__add_metric()), kept in the results
 * model in their scopes: the JSON and HTML files' "metrics" arrays, and the text file's
 * section of metric lines (docs/stat-output.md, "Metrics").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "core/field.h"
#include "run/output.h"

int pmc_run__add_metric(struct pmc_run *run, const struct pmc_run_metric *m)
{
	struct run_metric *v, *rm;
	json_t *obj;

	if (!run || !m || m->sz < sizeof(*m) || !m->json || (m->thread >= 0 && !m->region) ||
	    (m->region && m->unit >= 0) || (m->unit >= 0 && (size_t)m->unit >= run->res.nr_units))
		return -EINVAL;
	obj = json_loads(m->json, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(obj) || !json_is_string(json_object_get(obj, "name"))) {
		json_decref(obj);
		return -EINVAL;
	}
	v = realloc(run->metrics, (run->nr_metrics + 1) * sizeof(*v));
	if (!v) {
		json_decref(obj);
		return -ENOMEM;
	}
	run->metrics = v;
	rm = &v[run->nr_metrics];
	*rm = (struct run_metric){
		.thread = m->region ? m->thread : -1, .unit = m->region ? -1 : m->unit, .obj = obj};
	if (m->region && !(rm->region = strdup(m->region))) {
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
