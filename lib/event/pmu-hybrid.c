// SPDX-License-Identifier: MIT
/*
 * The core PMUs of a machine with several (x86 hybrid cpu_core/cpu_atom, Arm big.LITTLE's
 * armv8_*): which there are, the CPUs each covers, and whether the kernel takes a generic
 * event on each through the extended type, PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE with the
 * PMU's type in config[63:32] (docs/pmus.md, "Hybrid").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "core/backend.h"
#include "core/sysfile.h"
#include "event/pmu.h"
#include "event/pmus.h"

/* The release at or after which Arm's PMUs take the extended type (drivers/perf/arm_pmu.c,
 * armpmu_alloc(): PERF_PMU_CAP_EXTENDED_HW_TYPE, Linux 6.6). */
#define ARM_EXT_MAJOR 6
#define ARM_EXT_MINOR 6

/*
 * The kernel's release that decides the Arm rule: uname(2)'s on this machine; on a recorded
 * tree (PMC_SYSFS_ROOT), the release it was recorded on, PMC_KERNEL_RELEASE, else unknown
 * (returns false).
 */
static bool kernel_release(int *major, int *minor, char *src, size_t len)
{
	const char *rel = NULL;
	struct utsname u;

	if (strcmp(pmc__sysfs_root(), "/sys")) {
		rel = secure_getenv("PMC_KERNEL_RELEASE");
		snprintf(src, len, "the recorded tree's kernel (PMC_KERNEL_RELEASE=%s)",
			 rel ? rel : "unset");
	} else if (!uname(&u)) {
		rel = u.release;
		snprintf(src, len, "this kernel (%s)", u.release);
	}
	return rel && sscanf(rel, "%d.%d", major, minor) == 2;
}

/*
 * On this machine (the sysfs root is /sys) and not in a dry run: perf 6.6's probe through
 * the backend; 1, 0, or negative when there is no answer (then the rules below decide).
 */
static int probed(const struct pmc_evlist *evlist, const struct pmc__pmu *pmu, char *rule,
		  size_t len)
{
	int yes;

	if (!evlist || evlist->dry_run || strcmp(pmc__sysfs_root(), "/sys"))
		return -1;
	yes = pmc__backend_extended_type(evlist->backend, pmu->type);
	if (yes >= 0)
		snprintf(rule, len,
			 "the kernel %s a probe of PERF_TYPE_HARDWARE with config 0x%llx (perf "
			 "6.6's)",
			 yes ? "accepts" : "refuses", (unsigned long long)pmu->type << 32);
	return yes;
}

/* Whether pmu takes the extended type, and the rule that says so, into rule. */
static bool extended_type(const struct pmc_evlist *evlist, const struct pmc__pmu *p, char *rule,
			  size_t len)
{
	const char *pmu = p->name;
	int major = 0, minor = 0, yes_probed = probed(evlist, p, rule, len);
	char src[128];
	bool yes;

	if (yes_probed >= 0)
		return yes_probed;
	if (!strncmp(pmu, "cpu_", 4)) {
		snprintf(rule, len,
			 "%s is an x86 hybrid PMU: the kernels that register one (Linux >= 5.13) "
			 "take the extended type on it",
			 pmu);
		return true;
	}
	if (!kernel_release(&major, &minor, src, sizeof(src))) {
		snprintf(rule, len,
			 "%s takes the extended type from Linux 6.6; the release of %s is unknown: "
			 "taken as older (perf 6.1's rule: one event on every core)",
			 pmu, src);
		return false;
	}
	yes = major > ARM_EXT_MAJOR || (major == ARM_EXT_MAJOR && minor >= ARM_EXT_MINOR);
	snprintf(rule, len, "%s takes the extended type from Linux 6.6; %s is %d.%d: %s", pmu, src,
		 major, minor, yes ? "one event per core PMU" : "one event on every core");
	return yes;
}

static int by_type(const void *a, const void *b)
{
	const struct pmc__core_pmu *x = a, *y = b;

	return x->type < y->type ? -1 : x->type > y->type;
}

/* pmu's CPUs as a list of ranges ("0-15") into buf. */
static void cpus_text(const struct pmc__pmu *pmu, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < pmu->nr_cpus && n < len; i++) {
		int first = pmu->cpus[i];

		while (i + 1 < pmu->nr_cpus && pmu->cpus[i + 1] == pmu->cpus[i] + 1)
			i++;
		n += (size_t)snprintf(buf + n, len - n, first == pmu->cpus[i] ? "%s%d" : "%s%d-%d",
				      n ? "," : "", first, pmu->cpus[i]);
	}
}

/* Adds pmu to set when it is a core PMU of its own CPUs (a `cpus` file: perf's is_pmu_core()). */
static int add_core(const struct pmc__pmu *pmu, void *arg)
{
	struct pmc__core_pmus *set = arg;
	struct pmc__core_pmu *c = &set->pmu[set->nr];

	if (set->nr >= PMC_CORE_PMU_MAX || pmu->cpus_from != PMC__PMU_CPUS_FILE ||
	    strlen(pmu->name) >= sizeof(c->name))
		return 0;
	snprintf(c->name, sizeof(c->name), "%s", pmu->name);
	c->type = pmu->type;
	cpus_text(pmu, c->cpus, sizeof(c->cpus));
	c->extended = extended_type(set->evlist, pmu, c->rule, sizeof(c->rule));
	set->nr++;
	return 0;
}

int pmc__core_pmus(struct pmc__core_pmus *set, const struct pmc_evlist *evlist)
{
	memset(set, 0, sizeof(*set));
	set->evlist = evlist;
	pmc__pmus_each_kind(PMC__PMU_CORE, add_core, set);
	/* In type order: cpu_core (PERF_TYPE_RAW) first, as perf 6.1 lists the core types. */
	qsort(set->pmu, (size_t)set->nr, sizeof(set->pmu[0]), by_type);
	for (int i = 0; i < set->nr; i++)
		set->nr_extended += set->pmu[i].extended;
	return set->nr;
}

bool pmc__core_pmus_expand(const struct pmc__core_pmus *set)
{
	return set->nr >= 2 && set->nr_extended >= 1;
}

const struct pmc__core_pmu *pmc__core_pmu_find(const struct pmc__core_pmus *set, const char *pmu,
					       int len)
{
	for (int i = 0; pmu && i < set->nr; i++)
		if ((int)strlen(set->pmu[i].name) == len && !memcmp(set->pmu[i].name, pmu, len))
			return &set->pmu[i];
	return NULL;
}

const char *pmc__cputype_pmu(const char *cputype, char *buf, size_t len)
{
	if (!cputype || !*cputype)
		return NULL;
	if (strncmp(cputype, "cpu_", 4))
		snprintf(buf, len, "cpu_%s", cputype); /* perf's --cputype core|atom */
	else
		snprintf(buf, len, "%s", cputype);
	return buf;
}

bool pmc__pmu_cpu_in(const char *pmu, int cpu)
{
	const struct pmc__pmu *p = pmu && cpu >= 0 ? pmc__pmus_find(pmu) : NULL;

	/* A task-bound open, or a PMU without a `cpus` file (uncore's cpumask is not this rule). */
	if (!p || p->cpus_from != PMC__PMU_CPUS_FILE)
		return true;
	for (int i = 0; i < p->nr_cpus; i++)
		if (p->cpus[i] == cpu)
			return true;
	return false;
}
