// SPDX-License-Identifier: MIT
/*
 * Uncore events (a PMU of kind uncore, event/pmus.h): what the kernel refuses of them without
 * being asked, sampling and groups with another PMU's events (docs/pmus.md, "Uncore").
 */
#include <stdio.h>
#include <string.h>
#include <pmc/error.h>
#include "event/evsel.h"
#include "event/pmus.h"
#include "event/uncore.h"

const struct pmc__pmu *pmc__evsel_pmu(const struct pmc_evsel *evsel)
{
	const struct pmc__pmu *p = evsel->pmu ? pmc__pmus_find(evsel->pmu) : NULL;

	if (p)
		return p;
	/* The generic types are the core PMU's (type 4 is the `cpu` PMU's own type file). */
	if (evsel->attr.type == PERF_TYPE_HARDWARE || evsel->attr.type == PERF_TYPE_HW_CACHE)
		return NULL;
	return pmc__pmus_by_type(evsel->attr.type);
}

bool pmc__evsel_uncore(const struct pmc_evsel *evsel)
{
	const struct pmc__pmu *p;

	if (evsel->kind == PMC_EV_TOOL || evsel->by_backend)
		return false;
	p = pmc__evsel_pmu(evsel);
	return p && p->kind == PMC__PMU_UNCORE;
}

/*
 * The PMUs whose events the kernel puts in a software context (kernel/events/core.c:
 * is_software_event(), task_ctx_nr == perf_sw_context): they join any group.
 */
static bool software_context(const struct pmc_evsel *evsel)
{
	const struct pmc__pmu *p;

	switch (evsel->attr.type) {
	case PERF_TYPE_SOFTWARE:
	case PERF_TYPE_TRACEPOINT:
	case PERF_TYPE_BREAKPOINT:
		return true;
	default:
		p = pmc__evsel_pmu(evsel);
		return p && (!strcmp(p->name, "kprobe") || !strcmp(p->name, "uprobe"));
	}
}

/* The first member of evsel's group on another PMU than the uncore event u, or NULL. */
static const struct pmc_evsel *other_pmu(const struct pmc_evsel *evsel, const struct pmc_evsel *u)
{
	const struct pmc_evlist *l = evsel->evlist;
	const struct pmc_evsel *leader = evsel->leader;

	for (size_t i = leader->idx; i < leader->idx + leader->nr_members && i < l->nr; i++) {
		const struct pmc_evsel *m = l->entries[i];

		if (m->attr.type != u->attr.type && !software_context(m))
			return m;
	}
	return NULL;
}

const struct pmc_evsel *pmc__group_uncore(const struct pmc_evsel *evsel)
{
	const struct pmc_evlist *l = evsel->evlist;
	const struct pmc_evsel *leader = evsel->leader;

	if (!l || leader->nr_members <= 1)
		return pmc__evsel_uncore(evsel) ? evsel : NULL;
	for (size_t i = leader->idx; i < leader->idx + leader->nr_members && i < l->nr; i++)
		if (pmc__evsel_uncore(l->entries[i]))
			return l->entries[i];
	return NULL;
}

int pmc__uncore_check(const struct pmc_evsel *evsel, char *why, size_t len)
{
	const struct pmc_evsel *u, *o;
	const struct pmc__pmu *p;

	if (evsel->evlist && evsel->evlist->use == PMC_USE_SAMPLE && pmc__evsel_uncore(evsel)) {
		p = pmc__evsel_pmu(evsel);
		snprintf(why, len,
			 "%s is an uncore PMU: it counts for a whole socket or die, not for a task "
			 "or an instruction, and the kernel refuses to sample on it; count it with "
			 "pmc stat",
			 p->name);
		return -PMC_E_UNSUPPORTED;
	}
	if (!evsel->evlist || evsel->leader->nr_members <= 1 || !(u = pmc__group_uncore(evsel)) ||
	    !(o = other_pmu(evsel, u)))
		return 0;
	p = pmc__evsel_pmu(o);
	snprintf(why, len,
		 "the group mixes '%s' (uncore PMU %s) with '%s' (%s%s): the kernel groups only "
		 "events of one PMU (software events aside); put them in separate groups",
		 u->name, pmc__evsel_pmu(u)->name, o->name, p ? "PMU " : "the core PMU",
		 p ? p->name : "");
	return -PMC_E_UNSUPPORTED;
}
