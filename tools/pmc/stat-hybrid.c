// SPDX-License-Identifier: MIT
/* pmc stat --hybrid-merge: the results printed with each generic event's core types merged. */
#include <stdlib.h>
#include <string.h>
#include "stat.h"

int stat_hybrid_merge(struct stat_run *run, struct stat_hybrid *keep)
{
	const struct pmc_run_results *res = run->res;
	double level = run->opts->level;

	if (res->nr_regions) {
		fprintf(stderr, "pmc stat: --hybrid-merge: not with regions; each core type "
				"is printed\n");
		return 0;
	}
	keep->res = *res;
	if (pmc_run_events__hybrid_merge(res->events, res->nr_events, level, &keep->events,
					 &keep->nr_events))
		goto nomem;
	keep->units = calloc(res->nr_units + 1, sizeof(*keep->units));
	if (!keep->units)
		goto nomem;
	for (size_t u = 0; u < res->nr_units; u++) {
		size_t n;

		keep->units[u] = res->units[u];
		keep->units[u].events = NULL;
		if (pmc_run_events__hybrid_merge(res->units[u].events, res->nr_events, level,
						 &keep->units[u].events, &n))
			goto nomem;
		keep->nr_units++;
	}
	keep->res.events = keep->events;
	keep->res.nr_events = keep->nr_events;
	keep->res.units = keep->units;
	keep->res.trust = NULL; /* per event of the list, not of the merged lines */
	run->res = &keep->res;
	return 0;
nomem:
	fprintf(stderr, "pmc stat: --hybrid-merge: out of memory\n");
	return -1;
}

void stat_hybrid_free(struct stat_hybrid *keep)
{
	for (size_t u = 0; keep->units && u < keep->nr_units; u++)
		pmc_run_events__delete(keep->units[u].events, keep->nr_events);
	free(keep->units);
	pmc_run_events__delete(keep->events, keep->nr_events);
}
