// SPDX-License-Identifier: MIT
/*
 * The pass planner: packs events onto the counters pass by pass, as run_p5mon paired its
 * events on the Pentium's two counters. Groups stay whole, but for a weak group (:W) that
 * can never fit, whose events are then planned one by one; an exclusive group (:e) has the
 * counters of its pass to itself; nothing is ever scaled (docs/events.md, "Modifiers").
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/count.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "core/log.h"
#include "count/xreg.h"
#include "event/evsel.h"
#include "event/pmu.h"

/*
 * Resources used by each pass so far: used[pass * nr_domains + domain][class]. A domain is a
 * core PMU of a hybrid machine, whose CPUs have counters of their own (cpu_core's events do
 * not take cpu_atom's counters); a machine with one kind of core has one domain.
 */
struct plan {
	int (*used)[PMC_SLOT_NR];
	int nr_domains;
	struct pmc__core_pmus cores;
	bool *excl; /* the pass holds an exclusive group: no other event on its counters */
	struct pmc__xregs *xregs; /* the values the pass holds in shared registers (xreg.c) */
	int nr_passes, alloc;
	int budget[PMC_SLOT_NR];
	int cap[PMC_SLOT_NR]; /* what exists, multiplexed or not: what one group may need */
	bool multiplex;	      /* the kernel time-shares counters, exclusive groups too */
};

/* Whether need takes hardware counters (general or fixed), which :e keeps to itself. */
static bool takes_counters(const int *need)
{
	for (int cls = PMC_SLOT_GENERAL; cls < PMC_SLOT_NR; cls++)
		if (cls != PMC_SLOT_DEBUGREG && need[cls])
			return true;
	return false;
}

/* Adds need to a pass's use, spilling what each fixed counter cannot take onto general
 * counters (as the backends do when they assign counters). */
static bool fits_budget(const int *budget, const int *used, const int *need)
{
	int fixed_over = 0;

	for (int cls = PMC_SLOT_FIXED0; cls < PMC_SLOT_FIXED0 + PMC_SLOT_FIXED_NR; cls++) {
		int over = used[cls] + need[cls] - budget[cls];

		fixed_over += over > 0 ? over : 0;
	}
	if (used[PMC_SLOT_GENERAL] + need[PMC_SLOT_GENERAL] + fixed_over > budget[PMC_SLOT_GENERAL])
		return false;
	return used[PMC_SLOT_DEBUGREG] + need[PMC_SLOT_DEBUGREG] <= budget[PMC_SLOT_DEBUGREG];
}

/*
 * Whether need joins pass (an exclusive one only a pass whose counters are free; one that
 * programs shared registers, a load-latency threshold or an offcore response value, only a
 * pass with a register left for each of its values or holding them already: the kernel
 * time-shares the registers between events of more values, and vpmu models one threshold).
 */
static bool fits(const struct plan *p, int pass, int dom, const int *need, bool exclusive,
		 const struct pmc__xregs *xneed)
{
	int(*used)[PMC_SLOT_NR] = &p->used[pass * p->nr_domains];

	for (int d = 0; d < p->nr_domains; d++) {
		if (dom >= 0 && d != dom)
			continue;
		if (!p->multiplex && takes_counters(need) &&
		    (p->excl[pass] || (exclusive && takes_counters(used[d]))))
			return false;
		if (!fits_budget(p->budget, used[d], need))
			return false;
	}
	return p->multiplex || pmc__xregs_fit(&p->xregs[pass], xneed);
}

/* The domain of a group: its leader's core PMU, or -1 for an event on every core. */
static int domain_of(const struct plan *p, const struct pmc_evsel *leader)
{
	for (int d = 0; leader->pmu && p->nr_domains > 1 && d < p->cores.nr; d++)
		if (!strcmp(p->cores.pmu[d].name, leader->pmu))
			return d;
	return p->nr_domains > 1 ? -1 : 0;
}

static int new_pass(struct plan *p)
{
	if (p->nr_passes == p->alloc) {
		int n = p->alloc ? 2 * p->alloc : 4;
		void *u = realloc(p->used, (size_t)n * (size_t)p->nr_domains * sizeof(*p->used));
		bool *x = u ? realloc(p->excl, (size_t)n * sizeof(*p->excl)) : NULL;
		struct pmc__xregs *l = x ? realloc(p->xregs, (size_t)n * sizeof(*p->xregs)) : NULL;

		if (u)
			p->used = u;
		if (x)
			p->excl = x;
		if (!l)
			return -ENOMEM;
		p->xregs = l;
		p->alloc = n;
	}
	memset(p->used[p->nr_passes * p->nr_domains], 0,
	       sizeof(p->used[0]) * (size_t)p->nr_domains);
	p->excl[p->nr_passes] = false;
	memset(&p->xregs[p->nr_passes], 0, sizeof(p->xregs[0]));
	return p->nr_passes++;
}

/* The resources a group (or single event) led by leader needs. */
static void group_need(const struct pmc_evlist *evlist, const struct pmc_evsel *leader, int *need)
{
	memset(need, 0, sizeof(int) * PMC_SLOT_NR);
	for (size_t i = leader->idx; i < evlist->nr && evlist->entries[i]->leader == leader; i++)
		need[pmc__backend_classify(evlist->backend, evlist->entries[i])]++;
}

/* Whether every member of the group is countable here (a group is counted whole or not). */
static bool group_ok(struct pmc_evlist *evlist, struct pmc_evsel *leader)
{
	bool ok = true;

	for (size_t i = leader->idx; i < evlist->nr && evlist->entries[i]->leader == leader; i++)
		if (pmc_evsel__check(evlist->entries[i], NULL, 0) < 0)
			ok = false;
	return ok;
}

static void set_group_pass(struct pmc_evlist *evlist, struct pmc_evsel *leader, int pass)
{
	for (size_t i = leader->idx; i < evlist->nr && evlist->entries[i]->leader == leader; i++)
		evlist->entries[i]->pass = pass;
}

static int place(struct plan *p, struct pmc_evlist *evlist, struct pmc_evsel *leader);

/*
 * A weak group (:W on its leader, perf's "fall back to non-group if not schedulable") that
 * needs more counters than exist is split: each of its events becomes a group of its own,
 * which the planner's walk then places like any, in as many passes as they take. The
 * leader is placed here.
 */
static int split(struct plan *p, struct pmc_evlist *evlist, struct pmc_evsel *leader)
{
	size_t end = leader->idx;

	while (end < evlist->nr && evlist->entries[end]->leader == leader)
		end++;
	pr_info("weak group led by '%s' needs more counters than exist: its %zu events are "
		"planned one by one\n",
		leader->name, end - leader->idx);
	for (size_t i = leader->idx; i < end; i++) {
		evlist->entries[i]->leader = evlist->entries[i];
		evlist->entries[i]->nr_members = 1;
	}
	return place(p, evlist, leader);
}

static int place(struct plan *p, struct pmc_evlist *evlist, struct pmc_evsel *leader)
{
	bool exclusive = leader->attr.exclusive;
	struct pmc__xregs xneed;
	int need[PMC_SLOT_NR], zero[PMC_SLOT_NR] = {0}, pass, dom = domain_of(p, leader);
	int err = pmc__xregs_of_group(evlist, leader, &xneed);

	/* Not even the kernel's time-sharing counts such a group whole (validate_group()). */
	if (err)
		return err;
	group_need(evlist, leader, need);
	if (leader->nr_members > 1 && (leader->mods & PMC_MOD_WEAK) &&
	    !fits_budget(p->cap, zero, need))
		return split(p, evlist, leader);
	for (pass = 0; pass < p->nr_passes; pass++)
		if (fits(p, pass, dom, need, exclusive, &xneed))
			break;
	if (pass == p->nr_passes) {
		if (!fits_budget(p->budget, zero, need)) {
			pr_warn("group led by '%s' needs more counters than exist\n", leader->name);
			return -PMC_E_TOOMANY;
		}
		pass = new_pass(p);
		if (pass < 0)
			return pass;
	}
	for (int d = 0; d < p->nr_domains; d++)
		for (int cls = 0; cls < PMC_SLOT_NR && (dom < 0 || d == dom); cls++)
			p->used[pass * p->nr_domains + d][cls] += need[cls];
	p->excl[pass] |= exclusive && takes_counters(need);
	pmc__xregs_add(&p->xregs[pass], &xneed);
	set_group_pass(evlist, leader, pass);
	return 0;
}

int pmc_evlist__plan(struct pmc_evlist *evlist, bool multiplex, int *nr_passes)
{
	return pmc_evlist__plan_shared(evlist, multiplex, 1, nr_passes);
}

/* A resource's budget, divided among share users (at least one counter each). */
static int shared_budget(const struct pmc_evlist *evlist, enum pmc_slot_class cls, int share)
{
	int n = pmc__backend_budget(evlist->backend, cls);

	if (share <= 1 || pmc__backend_regions_reuse_counters(evlist->backend) || n <= 0)
		return n;
	return n / share ? n / share : 1;
}

int pmc_evlist__plan_shared(struct pmc_evlist *evlist, bool multiplex, int share, int *nr_passes)
{
	struct plan p = {0};
	int err = 0;

	/*
	 * Multiplexing lifts the limit on counters the kernel time-shares; debug registers
	 * are reserved when a breakpoint is created and cannot be, so they still take passes.
	 * A backend that cannot time-share at all (vpmu) plans passes as without it.
	 */
	multiplex = multiplex && pmc__backend_multiplexes(evlist->backend);
	p.multiplex = multiplex;
	pmc__core_pmus(&p.cores, evlist);
	p.nr_domains = pmc__core_pmus_expand(&p.cores) ? p.cores.nr : 1;
	/* Only the resources the list uses are asked for: the backend may have to probe for
	 * one (the perf backend counts debug registers by opening breakpoints). */
	for (size_t i = 0; i < evlist->nr; i++)
		p.budget[pmc__backend_classify(evlist->backend, evlist->entries[i])] = 1;
	for (int cls = 0; cls < PMC_SLOT_NR; cls++) {
		p.cap[cls] = !p.budget[cls] || cls == PMC_SLOT_NONE
				     ? INT_MAX
				     : shared_budget(evlist, cls, share);
		p.budget[cls] = multiplex && cls != PMC_SLOT_DEBUGREG ? INT_MAX : p.cap[cls];
	}
	for (size_t i = 0; i < evlist->nr && !err; i++) {
		struct pmc_evsel *ev = evlist->entries[i];

		if (ev->leader != ev)
			continue;
		if (!group_ok(evlist, ev)) {
			set_group_pass(evlist, ev, -1);
			continue;
		}
		err = place(&p, evlist, ev);
	}
	free(p.used);
	free(p.excl);
	free(p.xregs);
	if (err)
		return err;
	*nr_passes = p.nr_passes;
	return 0;
}

bool pmc_evlist__can_multiplex(const struct pmc_evlist *evlist)
{
	return pmc__backend_multiplexes(evlist->backend);
}

int pmc_evsel__pass(const struct pmc_evsel *evsel)
{
	return evsel->pass;
}

const char *pmc_evsel__resource(const struct pmc_evsel *evsel)
{
	static const char *const names[PMC_SLOT_NR] = {
		[PMC_SLOT_NONE] = "software (unlimited)", [PMC_SLOT_GENERAL] = "general counter",
		[PMC_SLOT_FIXED0] = "fixed counter",	  [PMC_SLOT_FIXED1] = "fixed counter",
		[PMC_SLOT_FIXED2] = "fixed counter",	  [PMC_SLOT_DEBUGREG] = "debug register",
	};

	return names[pmc__backend_classify(evsel->evlist->backend, evsel)];
}
