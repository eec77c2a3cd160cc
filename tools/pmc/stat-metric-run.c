// SPDX-License-Identifier: MIT
/*
 * Metrics in a pmc stat run: the set made and its events added before the passes are planned,
 * then each metric computed from the runner's results, for the whole program, each region,
 * each region's thread and each unit, and added to the results model, whose files carry them
 * (docs/metrics.md, "In pmc stat").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "stat.h"

/* The metrics' events were not named with -e: --strict does not apply to them. */
static int mark_added(struct stat_run *run, size_t before)
{
	size_t nr = pmc_evlist__nr(run->evlist);
	bool *named = realloc(run->user_named, (nr + 1) * sizeof(*named));

	if (!named) {
		fprintf(stderr, "pmc stat: out of memory\n");
		return 1;
	}
	run->user_named = named;
	for (size_t i = before; i < nr; i++)
		named[i] = false;
	return 0;
}

int stat_metrics__build(struct stat_run *run, const struct pmc_evlist_opts *eo)
{
	const struct stat_opts *o = run->opts;
	struct metric_opts mo = o->metrics;
	size_t before = pmc_evlist__nr(run->evlist);
	int rc;

	if (!metric_opts__any(&mo))
		return 0;
	mo.backend = o->backend;
	rc = metric_set__new(&mo, "pmc stat", &run->metrics);
	if (!rc)
		rc = metric_set__add_events(run->metrics, run->evlist, eo, "pmc stat", &run->absent,
					    &run->nr_absent);
	return rc ? rc : mark_added(run, before);
}

/*
 * The counts of events[] (the results', a unit's or an interval's, in the results' order) and
 * of every event the backend does not know, for c.
 */
static struct metric_input *inputs_new(const struct stat_run *run,
				       const struct pmc_run_event *events)
{
	const struct pmc_run_results *res = run->res;
	struct metric_input *in = calloc(res->nr_events + run->nr_absent + 1, sizeof(*in));

	for (size_t i = 0; in && i < run->nr_absent; i++)
		in[res->nr_events + i] = (struct metric_input){
			.name = run->absent[i].event, .pass = -1, .why = run->absent[i].why};
	for (size_t i = 0; in && i < res->nr_events; i++) {
		const struct pmc_run_event *e = &events[i];

		in[i] = (struct metric_input){.name = pmc_evsel__name(e->evsel),
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
static void set_cells(const struct stat_run *run, struct metric_input *in, size_t r, int thread)
{
	for (size_t i = 0; i < run->res->nr_events; i++) {
		const struct pmc_run_cell *c = pmc_run__cell(run->runner, r, thread, i);

		in[i].counted = c && c->nr > 0;
		in[i].nr = c ? c->nr : 0;
		in[i].values = c ? c->values : NULL;
		in[i].scaled = false;
		if (!in[i].counted && !in[i].why)
			in[i].why = "not counted in this region";
	}
}

static int regions(struct stat_run *run, struct metric_input *in, struct metric_counts *c)
{
	const struct pmc_run_results *res = run->res;
	int rc = 0;

	for (size_t r = 0; r < res->nr_regions && !rc; r++) {
		const struct pmc_run_region *reg = &res->regions[r];

		set_cells(run, in, r, -1);
		rc = metric_rows__add(&run->rows, run->metrics, c, reg->name, -1);
		for (int t = 0; run->opts->region_per_thread && t < reg->nr_threads && !rc; t++) {
			set_cells(run, in, r, t);
			rc = metric_rows__add(&run->rows, run->metrics, c, reg->name, t);
		}
	}
	return rc;
}

/* The most fields a metric's object has (metric_json(): 17 so far), and array items kept on
 * the stack (more are malloc'ed). */
#define MAX_FIELDS 32
#define STACK_ITEMS 64

/*
 * An object of metric_json() as libpmc's typed fields (no JSON text written and parsed
 * again): keys and strings point into j, the arrays' items into items and strs (nr_items
 * each). -EINVAL for what fields cannot carry (a nested object, an array of mixed kinds, more
 * than MAX_FIELDS fields or nr_items items), which the caller then sends as text.
 */
static int to_fields(json_t *j, struct pmc_run_field *f, size_t *nr, double *items,
		     const char **strs, size_t nr_items)
{
	size_t used = 0, n = 0;
	const char *key;
	json_t *v;

	json_object_foreach(j, key, v)
	{
		struct pmc_run_field *x = &f[n];
		size_t k;
		json_t *e;

		if (n == MAX_FIELDS)
			return -EINVAL;
		*x = (struct pmc_run_field){.key = key};
		switch (json_typeof(v)) {
		case JSON_STRING:
			x->kind = PMC_RUN_FIELD_STRING;
			x->s = json_string_value(v);
			break;
		case JSON_REAL:
			x->kind = PMC_RUN_FIELD_NUMBER;
			x->d = json_real_value(v);
			break;
		case JSON_INTEGER:
			x->kind = PMC_RUN_FIELD_INTEGER;
			x->i = json_integer_value(v);
			break;
		case JSON_TRUE:
		case JSON_FALSE:
			x->kind = PMC_RUN_FIELD_BOOL;
			x->b = json_is_true(v);
			break;
		case JSON_NULL:
			x->kind = PMC_RUN_FIELD_NULL;
			break;
		case JSON_ARRAY:
			x->n = json_array_size(v);
			if (x->n > nr_items - used)
				return -EINVAL;
			/* "inputs" holds strings, "values" numbers or nulls (non-finite) */
			x->kind = x->n && json_is_string(json_array_get(v, 0))
					  ? PMC_RUN_FIELD_STRINGS
					  : PMC_RUN_FIELD_NUMBERS;
			x->v = items + used;
			x->strs = strs + used;
			json_array_foreach(v, k, e)
			{
				if (x->kind == PMC_RUN_FIELD_STRINGS && json_is_string(e))
					strs[used + k] = json_string_value(e);
				else if (x->kind == PMC_RUN_FIELD_NUMBERS && json_is_null(e))
					items[used + k] = NAN;
				else if (x->kind == PMC_RUN_FIELD_NUMBERS && json_is_number(e))
					items[used + k] = json_number_value(e);
				else
					return -EINVAL;
			}
			used += x->n;
			break;
		default:
			return -EINVAL;
		}
		n++;
	}
	*nr = n;
	return 0;
}

/* The items of j's arrays. */
static size_t nr_items(json_t *j)
{
	size_t n = 0;
	const char *key;
	json_t *v;

	json_object_foreach(j, key, v) n += json_array_size(v); /* 0 for what is not an array */
	return n;
}

/* One metric into the results model, in its scope: the results files carry it. */
static int publish_one(struct stat_run *run, const char *region, int thread, long unit,
		       const struct metric_result *r)
{
	struct pmc_run_field fields[MAX_FIELDS];
	double stack_items[STACK_ITEMS], *items = stack_items;
	const char *stack_strs[STACK_ITEMS], **strs = stack_strs;
	json_t *j = metric_json(r);
	size_t ni = j ? nr_items(j) : 0;
	struct pmc_run_metric m = {.sz = sizeof(m),
				   .region = region,
				   .thread = thread,
				   .unit = unit,
				   .fields = fields};
	char *text = NULL;
	int rc = -ENOMEM;

	if (ni > STACK_ITEMS) {
		items = malloc(ni * sizeof(*items));
		strs = malloc(ni * sizeof(*strs));
	}
	if (j && items && strs) {
		if (to_fields(j, fields, &m.nr_fields, items, strs, ni)) {
			/* what fields cannot carry goes as text */
			m.fields = NULL;
			m.json = text = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));
		}
		rc = m.fields || text ? pmc_run__add_metric(run->runner, &m) : -ENOMEM;
	}
	if (items != stack_items)
		free(items);
	if (strs != stack_strs)
		free(strs);
	free(text);
	json_decref(j);
	return rc;
}

/* Every row, then each unit's metrics of its own values (--per-thread, -A, ...). */
static int publish(struct stat_run *run)
{
	int rc = 0;

	for (size_t i = 0; i < run->rows.nr && !rc; i++)
		rc = publish_one(run, run->rows.v[i].region, run->rows.v[i].thread, -1,
				 &run->rows.v[i].r);
	for (size_t u = 0; u < run->res->nr_units && !rc; u++) {
		struct metric_rows rows;

		rc = stat_metrics__of(run, run->res->units[u].events, &rows);
		for (size_t i = 0; i < rows.nr && !rc; i++)
			rc = publish_one(run, NULL, -1, (long)u, &rows.v[i].r);
		metric_rows__free(&rows);
	}
	return rc;
}

int stat_metrics__compute(struct stat_run *run)
{
	struct metric_input *in;
	struct metric_counts c;
	int rc;

	if (!run->metrics || run->rows.v)
		return 0;
	in = inputs_new(run, run->res->events);
	if (!in)
		return -ENOMEM;
	c = (struct metric_counts){
		.nr = run->res->nr_events + run->nr_absent, .in = in, .level = run->opts->level};
	rc = metric_rows__add(&run->rows, run->metrics, &c, NULL, -1);
	if (!rc)
		rc = regions(run, in, &c);
	free(in);
	return rc ? rc : publish(run);
}

int stat_metrics__of(const struct stat_run *run, const struct pmc_run_event *events,
		     struct metric_rows *rows)
{
	struct metric_input *in;
	struct metric_counts c;
	int rc;

	*rows = (struct metric_rows){0};
	if (!run->metrics)
		return 0;
	in = inputs_new(run, events);
	if (!in)
		return -ENOMEM;
	c = (struct metric_counts){
		.nr = run->res->nr_events + run->nr_absent, .in = in, .level = run->opts->level};
	rc = metric_rows__add(rows, run->metrics, &c, NULL, -1);
	free(in);
	if (rc)
		metric_rows__free(rows);
	return rc;
}

void stat_metrics__delete(struct stat_run *run)
{
	metric_rows__free(&run->rows);
	pmc_metrics__delete(run->metrics);
	free(run->absent);
}
