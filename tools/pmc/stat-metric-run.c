// SPDX-License-Identifier: MIT
/*
 * Metrics in a pmc stat run: the set made and its events added before the passes are planned,
 * then each metric computed from the runner's results, for the whole program, each region,
 * each region's thread and each unit, and added to the results model, whose files carry them
 * (docs/metrics.md, "In pmc stat").
 */
#include <errno.h>
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

/*
 * The metric's object as compact JSON in buf (len bytes), or in a malloc'd copy when longer;
 * NULL: no memory. json_dumpb() into a buffer that fits spares json_dumps()'s string grown
 * a few bytes at a time (85 reallocs for one metric's 300 bytes).
 */
static char *dump(const json_t *j, char *buf, size_t len)
{
	const size_t flags = JSON_COMPACT | JSON_REAL_PRECISION(17);
	size_t n = j ? json_dumpb(j, buf, len - 1, flags) : 0;

	if (n >= len)
		buf = malloc(n + 1);
	if (!n || !buf || (n >= len && json_dumpb(j, buf, n, flags) != n)) {
		if (n >= len)
			free(buf);
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

/* One metric into the results model, in its scope: the results files carry it. */
static int publish_one(struct stat_run *run, const char *region, int thread, long unit,
		       const struct metric_result *r)
{
	char buf[1024];
	json_t *j = metric_json(r);
	char *s = dump(j, buf, sizeof(buf));
	struct pmc_run_metric m = {
		.sz = sizeof(m), .region = region, .thread = thread, .unit = unit, .json = s};
	int rc = s ? pmc_run__add_metric(run->runner, &m) : -ENOMEM;

	if (s != buf)
		free(s);
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
