// SPDX-License-Identifier: MIT
/*
 * pmc stat's merging of an event's PMU units (libpmc's lib/run/view.c over
 * pmc_evsel__merged_into()): uncore_imc/cas_count_read/ on the six IMC units of the recorded
 * two-socket Skylake-SP tree is one line with the units' sum, as perf prints it, and six lines
 * named by unit with --no-merge. Nothing counts uncore events here: the values are synthetic.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <pmc/event.h>
#include <pmc/run.h>
#include "core/sysfile.h"
#include <pmc/stat-view.h>

#define NR 9

static struct pmc_evlist *evlist;
static struct pmc_run_event events[NR];
/* cas_count_read's .scale: 64-byte lines shown in MiB, as perf shows them (.unit) */
#define MIB 6.103515625e-5
static double ratio[NR] = {1, 1, 1, 1, 1, 0.5, 1, 1, 1};
static double value[NR];

static void setup(void)
{
	pmc__sysfs_set_root(PMC_TEST_DATA "/sysfs/pmu-intel-skx-2s");
	cr_assert_eq(pmc_evlist__new(NULL, &evlist), 0);
	/* six units, then an alias on one unit written twice (no merge: the same PMU), */
	cr_assert_eq(pmc_evlist__parse(evlist,
				       "uncore_imc/cas_count_read/,uncore_imc_0/clockticks/,"
				       "uncore_imc_0/clockticks/,task-clock",
				       NULL),
		     0);
	cr_assert_eq(pmc_evlist__nr(evlist), NR);
	for (size_t i = 0; i < NR; i++) {
		value[i] = 100.0 * (double)(i + 1);
		events[i] = (struct pmc_run_event){.evsel = pmc_evlist__at(evlist, i),
						   .supported = true,
						   .nr = 1,
						   .values = &value[i],
						   .ratio = &ratio[i],
						   .sum = {.n = 1, .mean = value[i]}};
	}
}

static void teardown(void)
{
	pmc_evlist__delete(evlist);
	pmc__sysfs_set_root(NULL);
}

TestSuite(stat_merge, .init = setup, .fini = teardown);

Test(stat_merge, units_merged_into_one_line)
{
	struct pmc_stat_view *v;

	cr_assert_eq(pmc_stat_views__of(events, NR, 1e9, PMC_RUN_MERGE_UNITS, 0.95, &v), 0);
	cr_expect_str_eq(v[0].name, "uncore_imc/cas_count_read/");
	cr_expect_not(v[0].merged);
	/* 100 + 200 + ... + 600: the six units' sum, in MiB */
	cr_expect_float_eq(v[0].value, 2100.0 * MIB, 1e-12);
	cr_expect_str_eq(v[0].unit, "MiB");
	/* five at 100 %, one at 50 %: their mean share */
	cr_expect_float_eq(v[0].running_pct, 550.0 / 6, 1e-9);
	for (int i = 1; i < 6; i++)
		cr_expect(v[i].merged, "unit %d not merged", i);
	for (int i = 6; i < NR; i++)
		cr_expect_not(v[i].merged, "event %d merged", i);
	cr_expect_float_eq(v[6].value, 700.0, 1e-9);
	cr_expect_float_eq(v[7].value, 800.0, 1e-9);
	pmc_stat_views__delete(v, NR);
}

Test(stat_merge, no_merge_names_each_unit)
{
	struct pmc_stat_view *v;
	char name[64];

	cr_assert_eq(pmc_stat_views__of(events, NR, 1e9, 0, 0.95, &v), 0);
	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "uncore_imc_%d/cas_count_read/", i);
		cr_expect_str_eq(v[i].name, name);
		cr_expect_not(v[i].merged);
		cr_expect_float_eq(v[i].value, 100.0 * (i + 1) * MIB, 1e-12);
	}
	cr_expect_str_eq(v[6].name, "uncore_imc_0/clockticks/");
	cr_expect_str_eq(v[8].name, "task-clock");
	pmc_stat_views__delete(v, NR);
}

Test(stat_merge, merged_into_and_unit_names)
{
	const struct pmc_evsel *first = pmc_evlist__at(evlist, 0);
	struct pmc_evlist *l;
	char name[64];

	for (size_t i = 0; i < 6; i++)
		cr_expect_eq(pmc_evsel__merged_into(pmc_evlist__at(evlist, i)), first);
	cr_expect_eq(pmc_evsel__merged_into(pmc_evlist__at(evlist, 7)), pmc_evlist__at(evlist, 7));
	/* An alias written alone on several units: perf's "name [pmu]". */
	cr_assert_eq(pmc_evlist__new(NULL, &l), 0);
	cr_assert_eq(pmc_evlist__parse(l, "cas_count_write", NULL), 0);
	cr_expect_eq(pmc_evlist__nr(l), 6);
	for (size_t i = 0; i < pmc_evlist__nr(l); i++) {
		cr_expect_eq(pmc_evsel__merged_into(pmc_evlist__at(l, i)), pmc_evlist__at(l, 0));
		cr_assert_eq(pmc_evsel__unit_name(pmc_evlist__at(l, i), name, sizeof(name)), 0);
		cr_expect(!strncmp(name, "cas_count_write [uncore_imc_", 28), "%s", name);
	}
	pmc_evlist__delete(l);
}

/* The merged line's spread is the sum's, run by run, not its first unit's (libpmc's
 * pmc_run_events__merge_one()): two units that move in opposite directions sum to a constant. */
Test(stat_merge, merged_line_is_summed_run_by_run)
{
	double a[] = {100, 300}, b[] = {300, 100}, one[] = {1, 1};
	struct pmc_run_event two[NR];
	struct pmc_stat_view *v;

	for (size_t i = 0; i < NR; i++)
		two[i] = events[i];
	for (int i = 0; i < 6; i++)
		two[i] = (struct pmc_run_event){.evsel = events[i].evsel,
						.supported = true,
						.nr = 2,
						.values = i == 0 ? a : b,
						.ratio = one,
						.sum = {.n = 2, .mean = 200}};
	for (int i = 2; i < 6; i++)
		two[i].supported = false; /* units that could not count add nothing */
	cr_assert_eq(pmc_stat_views__of(two, NR, 1e9, PMC_RUN_MERGE_UNITS, 0.95, &v), 0);
	cr_expect_eq(v[0].e->nr, 2);
	cr_expect_float_eq(v[0].e->values[0], 400, 1e-9);
	cr_expect_float_eq(v[0].e->values[1], 400, 1e-9);
	cr_expect_float_eq(v[0].e->sum.mean, 400, 1e-9);
	cr_expect_float_eq(v[0].e->sum.stddev, 0, 1e-9, "the sum does not vary");
	cr_expect_float_eq(two[0].sum.mean, 200, 1e-9, "the events themselves are untouched");
	pmc_stat_views__delete(v, NR);
}

/*
 * A group of uncore aliases is split per unit as perf 6.1 splits it ({imc/read/,imc/write/}:
 * imc_0's read and write, then imc_1's, ...), and each written event's units still merge
 * into its first, across the interleaving.
 */
Test(stat_merge, group_of_aliases_split_per_unit)
{
	struct pmc_evlist *l;

	cr_assert_eq(pmc_evlist__new(NULL, &l), 0);
	cr_assert_eq(pmc_evlist__parse(
			     l, "{uncore_imc/cas_count_read/,uncore_imc/cas_count_write/}", NULL),
		     0);
	cr_assert_eq(pmc_evlist__nr(l), 12);
	for (size_t i = 0; i < 12; i++) {
		const struct pmc_evsel *e = pmc_evlist__at(l, i);
		char want[64], name[64];

		snprintf(want, sizeof(want), "uncore_imc_%zu/cas_count_%s/", i / 2,
			 i % 2 ? "write" : "read");
		cr_assert_eq(pmc_evsel__unit_name(e, name, sizeof(name)), 0);
		cr_expect_str_eq(name, want, "event %zu", i);
		cr_expect_eq(pmc_evsel__leader(e), pmc_evlist__at(l, i - i % 2), "event %zu", i);
		cr_expect_eq(pmc_evsel__merged_into(e), pmc_evlist__at(l, i % 2), "event %zu", i);
	}
	pmc_evlist__delete(l);
}
