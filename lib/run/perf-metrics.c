// SPDX-License-Identifier: MIT
/*
 * The lines around perf stat's -x and -j event lines (perf-out.c): the header's '#' line, and
 * the metrics (pmc_run_opts.metrics) after the events, as CSV under a '#' line naming their
 * fields or as one JSON object each (docs/stat-output.md, "Metrics").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "metric/metric.h"
#include "run/perf-out.h"
#include "run/runner.h"

void pmc__perf_header(FILE *f, const char *header)
{
	char *text = strdup(header), *p;

	if (!text)
		return;
	for (p = text; *p == '\n' || *p == ' '; p++)
		;
	for (char *q = p; *q; q++)
		if (*q == '\n')
			*q = ' ';
	for (size_t n = strlen(p); n && p[n - 1] == ' '; n--)
		p[n - 1] = 0;
	fprintf(f, "# pmc stat: %s\n", p);
	free(text);
}

void pmc__perf_metric_header(FILE *f, const struct pmc_run *run, bool interval, const char *sep)
{
	fputs("# ", f);
	if (interval)
		fprintf(f, "interval%s", sep);
	if (run->opts.aggr != PMC_RUN_AGGR_GLOBAL)
		fprintf(f, "unit_label%s", sep);
	if (pmc__perf_aggregated(run))
		fprintf(f, "unit_cpus%s", sep);
	pmc_metric_summary__csv_header(f, sep);
}

/*
 * A metric's JSON object on a line of its own, extra's keys after its own; takes extra's
 * reference. Prints nothing when out of memory.
 */
static void json_line(FILE *f, const struct pmc_metric_summary *s, json_t *extra)
{
	char *text = NULL, *more = NULL;
	size_t len;

	if (extra && !pmc_metric_summary__json(s, &text) && json_object_size(extra))
		more = json_dumps(extra, JSON_COMPACT | JSON_REAL_PRECISION(17));
	/* the summary's object, its closing brace replaced by extra's keys */
	if (text && more && (len = strlen(text)) > 1 && strlen(more) > 2)
		fprintf(f, "%.*s,%s\n", (int)(len - 1), text, more + 1);
	else if (text && !json_object_size(extra))
		fprintf(f, "%s\n", text);
	free(text);
	free(more);
	json_decref(extra);
}

int pmc__perf_metrics(FILE *f, const struct pmc_run *run, const char *sep)
{
	size_t nr, own = 0;
	const struct pmc_run_metric_row *rows = pmc_run__metrics(run, &nr);

	/* the units' rows come last: theirs are on the units' lines */
	while (own < nr && rows[own].unit < 0)
		own++;
	if (sep) {
		fputs("# ", f);
		pmc_metric_summary__csv_header(f, sep);
	}
	for (size_t i = 0; i < own; i++) {
		const struct pmc_run_metric_row *row = &rows[i];
		json_t *extra;

		if (sep) {
			pmc_metric_summary__csv(f, &row->s, sep, row->region, row->thread);
			continue;
		}
		extra = json_object();
		if (extra && row->region) {
			json_object_set_new(extra, "region", json_string(row->region));
			if (row->thread >= 0)
				json_object_set_new(extra, "thread", json_integer(row->thread));
		}
		json_line(f, &row->s, extra);
	}
	return 0;
}

/* One metric of a unit's or an interval's line: -j's object with its interval and unit keys. */
static void json_metric(FILE *f, const struct pmc_run *run, const struct pmc__perf_line *l,
			const struct pmc_metric_summary *s)
{
	json_t *j = json_object();
	char val[sizeof(l->unit->label)];
	/* the key first: it writes val, which the value then reads */
	const char *key = l->unit ? pmc__perf_unit_key(run, l->unit, val, sizeof(val)) : NULL;

	if (j && l->t_s >= 0)
		json_object_set_new(j, "interval", json_real(l->t_s));
	if (j && key)
		json_object_set_new(j, key, json_string(val));
	if (j && l->unit && pmc__perf_aggregated(run))
		json_object_set_new(j, "aggregate-number", json_integer(l->unit->nr_cpus));
	json_line(f, s, j);
}

int pmc__perf_line_metrics(FILE *f, const struct pmc_run *run, const struct pmc__perf_line *l,
			   const struct pmc_run_event *events, const char *sep)
{
	struct pmc_metric_summary *s;
	size_t nr;
	int err = pmc_run__metrics_of(run, events, &s, &nr);

	if (err)
		return err;
	for (size_t i = 0; i < nr; i++) {
		if (s[i].v.status == PMC_METRIC_UNAVAILABLE)
			continue;
		if (!sep) {
			json_metric(f, run, l, &s[i]);
			continue;
		}
		pmc__perf_lead(f, run, l, sep);
		pmc_metric_summary__csv(f, &s[i], sep, NULL, -1);
	}
	pmc_run_metrics__delete(s, nr);
	return 0;
}
