// SPDX-License-Identifier: MIT
/*
 * perf's --hybrid-merge (lib/run/hybrid.c) with synthetic values: nothing here can count on
 * hybrid cores, so the per-core-PMU events of the recorded Alder Lake tree get known counts
 * and the merged lines are checked (docs/pmus.md, "Hybrid").
 */
#include <criterion/criterion.h>
#include <string.h>
#include <pmc/pmc.h>
#include "core/sysfile.h"

static struct pmc_evlist *list;

static void setup(void)
{
	struct pmc_evlist_opts o = {.sz = sizeof(o)};

	pmc__sysfs_set_root(PMC_TEST_DATA "/sysfs/pmu-intel-alderlake");
	cr_assert_eq(pmc_evlist__new(&o, &list), 0);
	cr_assert_eq(pmc_evlist__parse(list, "cycles,task-clock,instructions", NULL), 0);
}

static void teardown(void)
{
	pmc_evlist__delete(list);
	pmc__sysfs_set_root(NULL);
}

TestSuite(run_hybrid, .init = setup, .fini = teardown);

/* events[i] of the list with nr values (ratio 1 unless given) and supported. */
static void fill(struct pmc_run_event *e, size_t i, const double *v, const double *ratio, int nr,
		 bool supported)
{
	memset(e, 0, sizeof(*e));
	e->evsel = pmc_evlist__at(list, i);
	e->supported = supported;
	e->nr = nr;
	e->values = (double *)v;
	e->ratio = (double *)ratio;
}

Test(run_hybrid, the_list_is_per_core_pmu)
{
	static const char *const names[] = {"cpu_core/cycles/", "cpu_atom/cycles/", "task-clock",
					    "cpu_core/instructions/", "cpu_atom/instructions/"};

	cr_assert_eq(pmc_evlist__nr(list), 5);
	for (size_t i = 0; i < 5; i++)
		cr_expect_str_eq(pmc_evsel__name(pmc_evlist__at(list, i)), names[i]);
	cr_expect_str_eq(pmc_evsel__hybrid_name(pmc_evlist__at(list, 1)), "cycles");
	cr_expect_null(pmc_evsel__hybrid_name(pmc_evlist__at(list, 2)));
}

/* Summed per repetition, named as written, in the place of the first; others kept. */
Test(run_hybrid, sums_each_generic_event)
{
	double core_c[] = {100, 200}, atom_c[] = {10, 20}, tc[] = {5, 7};
	double core_i[] = {1000, 3000}, atom_i[] = {1, 3}, one[] = {1, 1}, half[] = {0.5, 0.25};
	struct pmc_run_event ev[5], *m = NULL;
	size_t n = 0;

	fill(&ev[0], 0, core_c, one, 2, true);
	fill(&ev[1], 1, atom_c, half, 2, true);
	fill(&ev[2], 2, tc, one, 2, true);
	fill(&ev[3], 3, core_i, one, 2, true);
	fill(&ev[4], 4, atom_i, one, 2, true);
	cr_assert_eq(pmc_run_events__merge(ev, 5, PMC_RUN_MERGE_HYBRID, 0.95, &m, &n), 0);
	cr_assert_eq(n, 3);
	cr_expect_str_eq(m[0].name, "cycles");
	cr_expect_eq(m[0].nr, 2);
	cr_expect_eq(m[0].values[0], 110);
	cr_expect_eq(m[0].values[1], 220);
	cr_expect_eq(m[0].sum.mean, 165);
	cr_expect_eq(m[0].ratio[0], 0.75); /* the mean of the members' */
	cr_expect_eq(m[0].ratio[1], 0.625);
	cr_expect_null(m[1].name);
	cr_expect_eq(m[1].evsel, ev[2].evsel);
	cr_expect_eq(m[1].values[1], 7);
	cr_expect_str_eq(m[2].name, "instructions");
	cr_expect_eq(m[2].sum.mean, 2002);
	pmc_run_events__delete(m, n);
}

/* A core type that counted fewer repetitions, or none, or could not count. */
Test(run_hybrid, unequal_and_unsupported_members)
{
	double core_c[] = {100, 200}, atom_c[] = {10}, tc[] = {5}, one[] = {1, 1};
	struct pmc_run_event ev[5], *m = NULL;
	size_t n = 0;

	fill(&ev[0], 0, core_c, one, 2, true);
	fill(&ev[1], 1, atom_c, one, 1, true);
	fill(&ev[2], 2, tc, one, 1, true);
	fill(&ev[3], 3, core_c, one, 2, true);
	fill(&ev[4], 4, NULL, NULL, 0, false);
	cr_assert_eq(pmc_run_events__merge(ev, 5, PMC_RUN_MERGE_HYBRID, 0.95, &m, &n), 0);
	cr_assert_eq(n, 3);
	cr_expect_eq(m[0].nr, 1, "the fewest repetitions of the members");
	cr_expect_eq(m[0].values[0], 110);
	cr_expect(m[2].supported, "supported when one member is");
	cr_expect_eq(m[2].nr, 2);
	cr_expect_eq(m[2].values[1], 200, "the unsupported member adds nothing");
	pmc_run_events__delete(m, n);
	fill(&ev[3], 3, NULL, NULL, 0, false);
	cr_assert_eq(pmc_run_events__merge(ev, 5, PMC_RUN_MERGE_HYBRID, 0.95, &m, &n), 0);
	cr_expect_not(m[2].supported, "no member counted");
	cr_expect_eq(m[2].nr, 0);
	pmc_run_events__delete(m, n);
}
