// SPDX-License-Identifier: MIT
/*
 * Metrics in a pmc stat run: the set made and its events added before the passes are planned;
 * the runner computes each metric from its results (pmc_run_opts.metrics), for the whole
 * program, each region, each region's thread and each unit, and its files carry them
 * (docs/metrics.md, "In pmc stat").
 */
#include <errno.h>
#include <stdlib.h>
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
		rc = metric_set__add_events(run->metrics, run->evlist, eo, "pmc stat");
	return rc ? rc : mark_added(run, before);
}

void stat_metrics__compute(struct stat_run *run)
{
	size_t nr;
	const struct pmc_run_metric_row *v = pmc_run__metrics(run->runner, &nr);

	/* the units' rows come last: the summary prints its units' metrics as it goes */
	run->rows = (struct metric_rows){.v = v};
	while (run->rows.nr < nr && v[run->rows.nr].unit < 0)
		run->rows.nr++;
}

int stat_metrics__of(const struct stat_run *run, const struct pmc_run_event *events,
		     struct metric_rows *rows)
{
	struct pmc_metric_summary *s;
	struct pmc_run_metric_row *v;
	size_t nr;
	int rc;

	*rows = (struct metric_rows){0};
	if (!run->metrics)
		return 0;
	rc = pmc_run__metrics_of(run->runner, events, &s, &nr);
	v = rc ? NULL : calloc(nr + 1, sizeof(*v));
	for (size_t i = 0; v && i < nr; i++)
		v[i] = (struct pmc_run_metric_row){.thread = -1, .unit = -1, .s = s[i]};
	if (!rc && !v) {
		pmc_run_metrics__delete(s, nr);
		return -ENOMEM;
	}
	free(s); /* the summaries' values are the rows' now */
	*rows = (struct metric_rows){.v = v, .nr = v ? nr : 0};
	return rc;
}

void stat_metrics__delete(struct stat_run *run)
{
	pmc_metrics__delete(run->metrics);
}
