// SPDX-License-Identifier: MIT
/*
 * Merging a results' events as perf's outputs do (docs/pmus.md, "Uncore" and "Hybrid"): the
 * units of one written uncore event (uncore_imc/cas_count_read/ on uncore_imc_0..5: perf's
 * default, off with --no-merge) and the per-core-PMU events of one generic event
 * (cpu_core/cycles/, cpu_atom/cycles/: --hybrid-merge), summed repetition by repetition so
 * that the merged line's interval is the sum's, not one member's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/event.h>
#include <pmc/run.h>
#include <pmc/stat.h>
#include "event/evsel.h"

/* Whether events[j] and events[i] are one merged line under by. */
static bool same(const struct pmc_run_event *events, size_t i, size_t j, unsigned by)
{
	const struct pmc_evsel *a = events[i].evsel, *b = events[j].evsel;

	if (i == j)
		return true;
	if ((by & PMC_RUN_MERGE_HYBRID) && a->hybrid_of && b->hybrid_of &&
	    !strcmp(a->hybrid_of, b->hybrid_of))
		return true;
	return (by & PMC_RUN_MERGE_UNITS) && pmc_evsel__merged_into(a) == pmc_evsel__merged_into(b);
}

size_t pmc_run_events__merge_first(const struct pmc_run_event *events, size_t nr, size_t i,
				   unsigned by)
{
	for (size_t j = 0; by && j < i && j < nr; j++)
		if (same(events, j, i, by))
			return j;
	return i;
}

/* The name of the merged line: the generic event's for core types, else the first's. */
static const char *merged_name(const struct pmc_run_event *e, unsigned by, int members)
{
	if (members > 1 && (by & PMC_RUN_MERGE_HYBRID) && e->evsel->hybrid_of)
		return e->evsel->hybrid_of;
	return e->name;
}

/* An event that merges with none, as it is: its own arrays, so that one free fits all. */
static int copy_one(const struct pmc_run_event *e, struct pmc_run_event *m)
{
	*m = *e;
	m->values = calloc((size_t)e->nr + 1, sizeof(*m->values));
	m->ratio = calloc((size_t)e->nr + 1, sizeof(*m->ratio));
	if (!m->values || !m->ratio) {
		pmc_run_event__fini(m);
		return -ENOMEM;
	}
	if (e->nr > 0) {
		memcpy(m->values, e->values, (size_t)e->nr * sizeof(*m->values));
		memcpy(m->ratio, e->ratio, (size_t)e->nr * sizeof(*m->ratio));
	}
	return 1;
}

int pmc_run_events__merge_one(const struct pmc_run_event *events, size_t nr, size_t i, unsigned by,
			      double level, struct pmc_run_event *m)
{
	int reps = -1, members = 0, counted = 0;

	*m = events[i];
	m->values = m->ratio = NULL;
	m->supported = false;
	for (size_t j = i; j < nr; j++)
		if (same(events, i, j, by)) {
			members++;
			if (events[j].supported) {
				reps = reps < 0 || events[j].nr < reps ? events[j].nr : reps;
				m->supported = true;
			}
		}
	m->name = merged_name(&events[i], by, members);
	if (members == 1)
		return copy_one(&events[i], m);
	m->nr = reps < 0 ? 0 : reps;
	m->values = calloc((size_t)m->nr + 1, sizeof(*m->values));
	m->ratio = calloc((size_t)m->nr + 1, sizeof(*m->ratio));
	if (!m->values || !m->ratio) {
		pmc_run_event__fini(m);
		return -ENOMEM;
	}
	m->scaled = false;
	m->overhead = 0;
	m->nr_clamped = 0;
	for (size_t j = i; j < nr; j++) {
		if (!same(events, i, j, by) || !events[j].supported)
			continue;
		counted++;
		m->scaled |= events[j].scaled;
		m->overhead += events[j].overhead;
		m->nr_clamped += events[j].nr_clamped;
		for (int r = 0; r < m->nr; r++) {
			m->values[r] += events[j].values[r];
			m->ratio[r] += events[j].ratio[r];
		}
	}
	for (int r = 0; r < m->nr && counted; r++)
		m->ratio[r] /= counted;
	memset(&m->sum, 0, sizeof(m->sum));
	if (m->nr)
		pmc_summarize(m->values, (size_t)m->nr, level, &m->sum);
	return members;
}

void pmc_run_event__fini(struct pmc_run_event *e)
{
	if (!e)
		return;
	free(e->values);
	free(e->ratio);
	e->values = e->ratio = NULL;
}

int pmc_run_events__merge(const struct pmc_run_event *events, size_t nr, unsigned by, double level,
			  struct pmc_run_event **out, size_t *nr_out)
{
	struct pmc_run_event *m = calloc(nr + 1, sizeof(*m));
	size_t n = 0;
	int err = 0;

	*out = NULL;
	*nr_out = 0;
	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < nr && err >= 0; i++) {
		if (pmc_run_events__merge_first(events, nr, i, by) != i)
			continue; /* merged into the first of its line */
		err = pmc_run_events__merge_one(events, nr, i, by, level, &m[n]);
		if (err >= 0)
			n++;
	}
	if (err < 0) {
		pmc_run_events__delete(m, n);
		return err;
	}
	*out = m;
	*nr_out = n;
	return 0;
}

void pmc_run_events__delete(struct pmc_run_event *events, size_t nr)
{
	for (size_t i = 0; events && i < nr; i++)
		pmc_run_event__fini(&events[i]);
	free(events);
}
