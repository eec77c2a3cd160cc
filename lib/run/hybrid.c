// SPDX-License-Identifier: MIT
/*
 * perf's --hybrid-merge over a results' events: the per-core-PMU events of one generic event
 * (cpu_core/cycles/, cpu_atom/cycles/) as one (docs/pmus.md, "Hybrid").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/run.h>
#include <pmc/stat.h>
#include "event/evsel.h"

/* Whether events[j] merges into events[i]: both of one generic event opened per core PMU. */
static bool same(const struct pmc_run_event *events, size_t i, size_t j)
{
	const char *a = events[i].evsel->hybrid_of, *b = events[j].evsel->hybrid_of;

	return a && b && !strcmp(a, b);
}

/* events[i] with every later one of the same generic event added to it, into *m. */
static int merge_one(const struct pmc_run_event *events, size_t nr, size_t i, double level,
		     struct pmc_run_event *m)
{
	int reps = -1, members = 0;

	*m = events[i];
	m->name = events[i].evsel->hybrid_of;
	m->supported = false;
	for (size_t j = i; j < nr; j++)
		if (same(events, i, j) && events[j].supported) {
			reps = reps < 0 || events[j].nr < reps ? events[j].nr : reps;
			m->supported = true;
		}
	m->nr = reps < 0 ? 0 : reps;
	m->values = calloc((size_t)m->nr + 1, sizeof(*m->values));
	m->ratio = calloc((size_t)m->nr + 1, sizeof(*m->ratio));
	if (!m->values || !m->ratio)
		return -ENOMEM;
	m->scaled = false;
	m->overhead = 0;
	m->nr_clamped = 0;
	for (size_t j = i; j < nr; j++) {
		if (!same(events, i, j) || !events[j].supported)
			continue;
		members++;
		m->scaled |= events[j].scaled;
		m->overhead += events[j].overhead;
		m->nr_clamped += events[j].nr_clamped;
		for (int r = 0; r < m->nr; r++) {
			m->values[r] += events[j].values[r];
			m->ratio[r] += events[j].ratio[r];
		}
	}
	for (int r = 0; r < m->nr && members; r++)
		m->ratio[r] /= members;
	memset(&m->sum, 0, sizeof(m->sum));
	if (m->nr)
		pmc_summarize(m->values, (size_t)m->nr, level, &m->sum);
	return 0;
}

/* A copy of an event that merges with none: its own arrays, so that one free fits all. */
static int copy_one(const struct pmc_run_event *e, struct pmc_run_event *m)
{
	*m = *e;
	m->values = calloc((size_t)e->nr + 1, sizeof(*m->values));
	m->ratio = calloc((size_t)e->nr + 1, sizeof(*m->ratio));
	if (!m->values || !m->ratio)
		return -ENOMEM;
	if (e->nr) {
		memcpy(m->values, e->values, (size_t)e->nr * sizeof(*m->values));
		memcpy(m->ratio, e->ratio, (size_t)e->nr * sizeof(*m->ratio));
	}
	return 0;
}

int pmc_run_events__hybrid_merge(const struct pmc_run_event *events, size_t nr, double level,
				 struct pmc_run_event **out, size_t *nr_out)
{
	struct pmc_run_event *m = calloc(nr + 1, sizeof(*m));
	size_t n = 0;
	int err = 0;

	*out = NULL;
	*nr_out = 0;
	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < nr && !err; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = same(events, j, i);
		if (seen)
			continue; /* merged into the first of its generic event */
		err = events[i].evsel->hybrid_of ? merge_one(events, nr, i, level, &m[n])
						 : copy_one(&events[i], &m[n]);
		n++;
	}
	if (err) {
		pmc_run_events__delete(m, n);
		return err;
	}
	*out = m;
	*nr_out = n;
	return 0;
}

void pmc_run_events__delete(struct pmc_run_event *events, size_t nr)
{
	for (size_t i = 0; events && i < nr; i++) {
		free(events[i].values);
		free(events[i].ratio);
	}
	free(events);
}
