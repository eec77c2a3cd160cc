// SPDX-License-Identifier: MIT
/*
 * Events that outputs merge into one line, as perf's do: the events one written event became,
 * one per PMU unit (uncore_imc/cas_count_read/ on uncore_imc_0..5, an alias on several
 * uncore PMUs), and each one's own name when they are not merged (--no-merge; docs/pmus.md,
 * "Uncore").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pmc/event.h>
#include "event/evsel.h"
#include "event/pmus.h"

static bool core_pmu(const char *name)
{
	const struct pmc__pmu *p = pmc__pmus_find(name);

	return p && p->kind == PMC__PMU_CORE;
}

/*
 * perf's collect_all_aliases(): the same name, scale and unit on another PMU; here also the
 * same written event, and no core PMU (a hybrid machine's core types are shown apart).
 */
static bool same_expansion(const struct pmc_evsel *a, const struct pmc_evsel *b)
{
	if (a->kind != PMC_EV_PMU || b->kind != PMC_EV_PMU || !a->pmu || !b->pmu ||
	    !strcmp(a->pmu, b->pmu) || a->offset != b->offset || strcmp(a->name, b->name) ||
	    a->scale != b->scale)
		return false;
	if ((a->unit || b->unit) && (!a->unit || !b->unit || strcmp(a->unit, b->unit)))
		return false;
	return !core_pmu(a->pmu) && !core_pmu(b->pmu);
}

const struct pmc_evsel *pmc_evsel__merged_into(const struct pmc_evsel *evsel)
{
	const struct pmc_evlist *l = evsel ? evsel->evlist : NULL;
	size_t i = evsel ? evsel->idx : 0;
	const struct pmc_evsel *first = evsel;

	const struct pmc_evsel *leader;
	int low;

	if (!l)
		return evsel;
	/*
	 * The first of its expansion: the events of one written event, in the order written,
	 * interleaved with the others of its group where the group was split per unit
	 * (group.c); what comes before its group's first written event is another's.
	 */
	leader = evsel->leader ? evsel->leader : evsel;
	low = evsel->offset;
	for (size_t j = leader->idx; j < leader->idx + leader->nr_members && j < l->nr; j++)
		low = l->entries[j]->offset < low ? l->entries[j]->offset : low;
	while (i > 0 && l->entries[i - 1]->offset >= low) {
		i--;
		if (same_expansion(l->entries[i], evsel))
			first = l->entries[i];
	}
	return first;
}

int pmc_evsel__unit_name(const struct pmc_evsel *evsel, char *buf, size_t len)
{
	const char *slash;
	int n;

	if (!buf || !len)
		return -EINVAL;
	if (!evsel->pmu || !strncmp(evsel->name, evsel->pmu, strlen(evsel->pmu)))
		n = snprintf(buf, len, "%s", evsel->name);
	else if ((slash = strchr(evsel->name, '/')))
		n = snprintf(buf, len, "%s%s", evsel->pmu, slash);
	else
		n = snprintf(buf, len, "%s [%s]", evsel->name, evsel->pmu);
	return n < 0 ? -EINVAL : 0;
}
