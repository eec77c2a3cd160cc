// SPDX-License-Identifier: MIT
/*
 * pmc stat's comment column, libpmc's shadow values (lib/run/shadow.c), from a table of
 * {input, expected} rows, and the units events are shown in (lib/run/view.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <pmc/event.h>
#include <pmc/run.h>
#include "core/sysfile.h"
#include <pmc/stat-view.h>

/* The events of a run: instructions, cycles, branches, misses, a clock and a tracepoint. */
static const struct pmc_stat_shadow_event run[] = {
	{"instructions", 1, true, 4000000},
	{"cpu-cycles", 1, true, 2500000},
	{"branch-instructions", 1, true, 1000},
	{"branch-misses", 1, true, 25},
	{"task-clock", 1, true, 2000000},    /* 2 ms */
	{"", 1, true, 500},		     /* a tracepoint: no generic name */
	{"cache-misses", 1, true, 10},	     /* cache-references not counted */
	{"duration_time", 1, true, 4000000}, /* a time: no rate */
	{"cache-references", 1, false, 0},
	{"instructions", 2, true, 100}, /* kernel level: no cycles at that level */
};

struct derived_case {
	size_t idx;
	int have;
	double value;
	const char *unit;
};

static const struct derived_case derived[] = {
	{0, 1, 1.6, "insn per cycle"},
	{1, 1, 1.25, "GHz"}, /* 2.5M cycles in 2 ms */
	{2, 1, 500.0, "K/sec"},
	{3, 1, 2.5, "of all branches"},
	{4, 1, 0.5, "CPUs utilized"}, /* 2 ms of a 4 ms run */
	{5, 1, 250.0, "K/sec"},
	{6, 0, 0, NULL},
	{7, 0, 0, NULL},
	{8, 0, 0, NULL},
	{9, 0, 0, NULL},
};

Test(stat_format, derived_values)
{
	size_t nr = sizeof(run) / sizeof(run[0]);

	for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++) {
		const struct derived_case *c = &derived[i];
		struct pmc_stat_shadow d;
		int have = pmc_stat_shadow__compute(run, nr, c->idx, 4e6, &d);

		cr_expect_eq(have, c->have, "event %zu", c->idx);
		if (!have || !c->have)
			continue;
		cr_expect_float_eq(d.value, c->value, 1e-9, "event %zu: %g", c->idx, d.value);
		cr_expect_str_eq(d.unit, c->unit, "event %zu", c->idx);
	}
}

/*
 * An event's PMU alias gives the unit its counts are shown in (lib/run/view.c), as perf
 * applies .scale and .unit: on the recorded two-socket Skylake-SP tree, RAPL's energy-pkg counts
 * 2^-32 J and shows Joules with two decimals, an IMC's CAS count 64-byte lines as MiB; msr's
 * tsc has neither, task-clock keeps perf's msec.
 */
Test(stat_view, alias_scale_and_unit)
{
	static const char *const names[] = {"power/energy-pkg/", "uncore_imc_0/cas_count_read/",
					    "msr/tsc/", "task-clock"};
	static const double counts[] = {22.5 * 4294967296.0, 16384, 1000, 2e6};
	static const double values[] = {22.5, 1, 1000, 2};
	static const char *const units[] = {"Joules", "MiB", "", "msec"};
	struct pmc_run_event ev[4] = {0};
	double all_time = 1;
	struct pmc_evlist *evlist;
	struct pmc_stat_view *v;

	pmc__sysfs_set_root(PMC_TEST_DATA "/sysfs/pmu-intel-skx-2s");
	cr_assert_eq(pmc_evlist__new(NULL, &evlist), 0);
	cr_assert_eq(pmc_evlist__parse(evlist,
				       "power/energy-pkg/,uncore_imc_0/cas_count_read/,"
				       "msr/tsc/,task-clock",
				       NULL),
		     0);
	for (int i = 0; i < 4; i++) {
		ev[i].evsel = (struct pmc_evsel *)pmc_evlist__at(evlist, i);
		ev[i].supported = true;
		ev[i].nr = 1;
		ev[i].values = (double *)&counts[i];
		ev[i].ratio = &all_time;
		ev[i].sum.mean = counts[i];
	}
	cr_assert_eq(pmc_stat_views__of(ev, 4, 1e9, 0, 0.95, &v), 0);
	for (int i = 0; i < 4; i++) {
		cr_expect_str_eq(v[i].name, names[i]);
		cr_expect_str_eq(v[i].unit, units[i], "%s: unit '%s'", names[i], v[i].unit);
		cr_expect_float_eq(v[i].value, values[i], 1e-9, "%s: %g", names[i], v[i].value);
	}
	cr_expect_float_eq(v[0].scale, 2.3283064365386962890625e-10, 1e-24);
	pmc_stat_views__delete(v, 4);
	pmc_evlist__delete(evlist);
	pmc__sysfs_set_root(NULL);
}
