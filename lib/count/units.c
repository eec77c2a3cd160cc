// SPDX-License-Identifier: MIT
/*
 * Values per unit of an open list (a CPU or a thread), kept by the backend beside the totals
 * for the runner's per-CPU, per-core, per-socket and per-thread rows.
 */
#include <errno.h>
#include <stdlib.h>
#include "count/counting.h"
#include "event/evsel.h"
#include "event/uncore.h"

int pmc__counting_units(struct pmc_counting *c, int nr)
{
	size_t nr_ev = c->evlist->nr ? c->evlist->nr : 1;

	free(c->units);
	free(c->unit_values);
	c->units = NULL;
	c->unit_values = NULL;
	c->nr_units = 0;
	if (nr <= 0)
		return 0;
	c->units = calloc((size_t)nr, sizeof(*c->units));
	c->unit_values = calloc((size_t)nr * nr_ev, sizeof(*c->unit_values));
	if (!c->units || !c->unit_values) {
		pmc__counting_units(c, 0);
		return -ENOMEM;
	}
	c->nr_units = nr;
	return 0;
}

int pmc__evlist_nr_units(const struct pmc_evlist *evlist)
{
	return evlist->counting ? evlist->counting->nr_units : 0;
}

const struct pmc__unit *pmc__evlist_unit(const struct pmc_evlist *evlist, int i)
{
	const struct pmc_counting *c = evlist->counting;

	return c && i >= 0 && i < c->nr_units ? &c->units[i] : NULL;
}

int pmc__evsel_count_unit(const struct pmc_evsel *evsel, int i, struct pmc_count *out)
{
	const struct pmc_counting *c = evsel->evlist->counting;

	if (!c || !c->open[evsel->idx] || i < 0 || i >= c->nr_units)
		return -ENOENT;
	*out = c->unit_values[(size_t)i * evsel->evlist->nr + evsel->idx];
	/* An uncore event has counters on its PMU's cpumask CPUs only: no row elsewhere. */
	if (!out->time_enabled_ns && !out->value && pmc__group_uncore(evsel))
		return -ENOENT;
	return 0;
}

bool pmc__evlist_units_live(const struct pmc_evlist *evlist)
{
	return evlist->counting && evlist->counting->units_live;
}

uint64_t pmc__evlist_lost_units(const struct pmc_evlist *evlist)
{
	return evlist->counting ? evlist->counting->lost_units : 0;
}
