// SPDX-License-Identifier: MIT
/*
 * PMU discovery (lib/event/pmus.c) on every recorded sysfs tree of tests/data: each PMU's
 * type, kind, CPUs and caps, and whether the machine is hybrid.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "core/sysfile.h"
#include "event/pmus.h"

static void use_root(const char *sub)
{
	pmc__sysfs_set_root(sub ? sub : "/nonexistent");
}

static void restore(void)
{
	pmc__sysfs_set_root(NULL);
}

TestSuite(event_pmus, .fini = restore);

static void expect_cpus(const struct pmc__pmu *p, const int *cpus, int nr)
{
	cr_assert_eq(p->nr_cpus, nr, "%s: %d CPUs, expected %d", p->name, p->nr_cpus, nr);
	for (int i = 0; i < nr; i++)
		cr_expect_eq(p->cpus[i], cpus[i], "%s: CPU %d is %d", p->name, i, p->cpus[i]);
}

/* The existing fixture trees: a `cpu` PMU alone, one core PMU, nothing hybrid. */
Test(event_pmus, single_core_fixtures)
{
	static const char *const trees[] = {"pmu-amd-zen3",
					    "pmu-amd-zen4",
					    "pmu-amd-zen5",
					    "pmu-intel-icelake",
					    "pmu-intel-nehalem",
					    "pmu-intel-sandybridge",
					    "pmu-intel-sapphirerapids",
					    "pmu-intel-skylake"};
	static const uint32_t types[] = {4, 4, 4, 4, 4, 4, 4, 4};

	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		char root[512];
		const struct pmc__pmus *s;
		const struct pmc__pmu *cpu;

		snprintf(root, sizeof(root), PMC_TEST_DATA "/sysfs/%s", trees[i]);
		use_root(root);
		s = pmc__pmus();
		cr_assert_str_eq(s->root, root);
		cr_expect_eq(s->nr, 1, "%s: %d PMUs", trees[i], s->nr);
		cr_expect_eq(s->nr_core, 1, "%s", trees[i]);
		cr_expect_not(s->hybrid, "%s", trees[i]);
		cpu = pmc__pmus_find("cpu");
		cr_assert(cpu, "%s: no cpu PMU", trees[i]);
		cr_expect_eq(cpu->type, types[i], "%s: type %u", trees[i], cpu->type);
		cr_expect_eq(cpu->kind, PMC__PMU_CORE);
		cr_expect_eq(cpu->cpus_from, PMC__PMU_CPUS_ONLINE);
		cr_expect_eq(pmc__pmus_by_type(cpu->type), cpu);
		cr_expect_eq(cpu->nr_caps, 0);
	}
}

/* tests/data/events/sysfs: cpu, power, two IMC units (no cpumask: the online CPUs), bad. */
Test(event_pmus, events_fixture)
{
	const struct pmc__pmus *s;
	const struct pmc__pmu *imc;

	use_root(PMC_TEST_DATA "/events/sysfs");
	s = pmc__pmus();
	cr_expect_eq(s->nr, 5);
	cr_expect_str_eq(s->pmus[0].name, "bad"); /* name order */
	cr_expect_str_eq(s->pmus[4].name, "uncore_imc_1");
	imc = pmc__pmus_find("uncore_imc_0");
	cr_assert(imc);
	/* Without a cpumask file nothing says it is per socket: perf treats it as any PMU. */
	cr_expect_eq(imc->kind, PMC__PMU_OTHER);
	cr_expect_eq(s->nr_core, 1);
	cr_expect_eq(pmc__pmus_find("nosuch"), NULL);
	cr_expect_eq(pmc__pmus_by_type(0x7fffffff), NULL);
}

/* fake-2s2c2t: fakeunc's cpumask 0,4 (one CPU per socket), fakepmu's 0-7. */
Test(event_pmus, fake_2s2c2t)
{
	static const int unc[] = {0, 4}, all[] = {0, 1, 2, 3, 4, 5, 6, 7};
	const struct pmc__pmu *p;

	use_root(PMC_TEST_DATA "/sysfs/fake-2s2c2t");
	p = pmc__pmus_find("fakeunc");
	cr_assert(p);
	cr_expect_eq(p->kind, PMC__PMU_UNCORE);
	cr_expect_eq(p->cpus_from, PMC__PMU_CPUS_CPUMASK);
	expect_cpus(p, unc, 2);
	p = pmc__pmus_find("fakepmu");
	cr_assert(p);
	expect_cpus(p, all, 8);
	cr_expect_eq(pmc__pmus()->nr_core, 0);
	cr_expect_str_eq(pmc__pmu_kind_name(PMC__PMU_UNCORE), "uncore");
}

/* Read once per root: the same set comes back, also after another root was read. */
Test(event_pmus, cached_per_root)
{
	const struct pmc__pmus *a, *b;

	use_root(PMC_TEST_DATA "/sysfs/fake-2s2c2t");
	a = pmc__pmus();
	use_root(PMC_TEST_DATA "/events/sysfs");
	b = pmc__pmus();
	cr_expect_neq(a, b);
	use_root(PMC_TEST_DATA "/sysfs/fake-2s2c2t");
	cr_expect_eq(pmc__pmus(), a);
	use_root(NULL);
	cr_expect_eq(pmc__pmus()->nr, 0);
}

/* pmu-intel-skx-2s: six IMC and eight CHA units on cpumask 0,8 (one CPU per socket). */
Test(event_pmus, skx_two_sockets)
{
	static const int sockets[] = {0, 8};
	const struct pmc__pmus *s;
	const struct pmc__pmu *p;
	int imc = 0, cha = 0;

	use_root(PMC_TEST_DATA "/sysfs/pmu-intel-skx-2s");
	s = pmc__pmus();
	cr_expect_eq(s->nr, 4 + 6 + 8);
	cr_expect_eq(s->nr_core, 1);
	cr_expect_not(s->hybrid);
	for (int i = 0; i < s->nr; i++) {
		p = &s->pmus[i];
		if (strncmp(p->name, "uncore_", 7))
			continue;
		imc += !strncmp(p->name, "uncore_imc_", 11);
		cha += !strncmp(p->name, "uncore_cha_", 11);
		cr_expect_eq(p->kind, PMC__PMU_UNCORE, "%s", p->name);
		cr_expect_eq(p->cpus_from, PMC__PMU_CPUS_CPUMASK, "%s", p->name);
		expect_cpus(p, sockets, 2);
	}
	cr_expect_eq(imc, 6);
	cr_expect_eq(cha, 8);
	cr_expect_eq(pmc__pmus_find("uncore_imc_3")->type, 33);
	cr_expect_eq(pmc__pmus_by_type(12), pmc__pmus_find("uncore_cha_0"));
	p = pmc__pmus_find("cpu");
	cr_assert(p);
	cr_expect_eq(p->kind, PMC__PMU_CORE);
	cr_expect_eq(p->nr_cpus, 32);
	cr_expect_str_eq(pmc__pmu_cap(p, "max_precise"), "3");
	cr_expect_str_eq(pmc__pmu_cap(p, "branches"), "32");
	cr_expect_str_eq(pmc__pmu_cap(p, "pmu_name"), "skylake");
	cr_expect_eq(pmc__pmu_cap(p, "nosuch"), NULL);
	cr_expect_eq(pmc__pmus_find("software")->kind, PMC__PMU_OTHER);
	cr_expect_eq(pmc__pmus_find("breakpoint")->kind, PMC__PMU_OTHER);
}
