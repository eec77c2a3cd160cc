// SPDX-License-Identifier: MIT
/*
 * pmc stat's merging of an event's PMU units (tools/pmc/stat-view.c over
 * pmc_evsel__merged_into()): uncore_imc/cas_count_read/ on the six IMC units of the recorded
 * two-socket Skylake-SP tree is one line with the units' sum, as perf prints it, and six lines
 * named by unit with --no-merge. Nothing counts uncore events here: the values are synthetic.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <pmc/event.h>
#include <pmc/run.h>
#include "core/sysfile.h"
#include "stat.h"

#define NR 9

static struct pmc_evlist *evlist;
static struct pmc_run_event events[NR];
static double ratio[NR] = {1, 1, 1, 1, 1, 0.5, 1, 1, 1};

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
	for (size_t i = 0; i < NR; i++)
		events[i] =
			(struct pmc_run_event){.evsel = pmc_evlist__at(evlist, i),
					       .supported = true,
					       .nr = 1,
					       .ratio = &ratio[i],
					       .sum = {.n = 1, .mean = 100.0 * (double)(i + 1)}};
}

static void teardown(void)
{
	pmc_evlist__delete(evlist);
	pmc__sysfs_set_root(NULL);
}

TestSuite(stat_merge, .init = setup, .fini = teardown);

Test(stat_merge, units_merged_into_one_line)
{
	struct stat_view *v;

	cr_assert_eq(stat_views__of(events, NR, 1e9, true, &v), 0);
	cr_expect_str_eq(v[0].name, "uncore_imc/cas_count_read/");
	cr_expect_not(v[0].merged);
	/* 100 + 200 + ... + 600: the six units' sum */
	cr_expect_float_eq(v[0].value, 2100.0, 1e-9);
	/* five at 100 %, one at 50 %: their mean share */
	cr_expect_float_eq(v[0].running_pct, 550.0 / 6, 1e-9);
	for (int i = 1; i < 6; i++)
		cr_expect(v[i].merged, "unit %d not merged", i);
	for (int i = 6; i < NR; i++)
		cr_expect_not(v[i].merged, "event %d merged", i);
	cr_expect_float_eq(v[6].value, 700.0, 1e-9);
	cr_expect_float_eq(v[7].value, 800.0, 1e-9);
	free(v);
}

Test(stat_merge, no_merge_names_each_unit)
{
	struct stat_view *v;
	char name[64];

	cr_assert_eq(stat_views__of(events, NR, 1e9, false, &v), 0);
	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "uncore_imc_%d/cas_count_read/", i);
		cr_expect_str_eq(v[i].name, name);
		cr_expect_not(v[i].merged);
		cr_expect_float_eq(v[i].value, 100.0 * (i + 1), 1e-9);
	}
	cr_expect_str_eq(v[6].name, "uncore_imc_0/clockticks/");
	cr_expect_str_eq(v[8].name, "task-clock");
	free(v);
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
