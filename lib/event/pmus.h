/* SPDX-License-Identifier: MIT */
/*
 * Every PMU of the machine (<sysfs root>/bus/event_source/devices), discovered once per sysfs
 * root (pmus.c): its name, type, kind, the CPUs it may be opened on and its caps/ folder
 * (docs/pmus.md, "Discovery"). The one source of these facts: other modules ask here rather
 * than read a PMU's cpus, cpumask or caps files themselves.
 */
#ifndef PMC_LIB_EVENT_PMUS_H
#define PMC_LIB_EVENT_PMUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * core: `cpu`, or a PMU with a `cpus` file (x86 hybrid cpu_core/cpu_atom, Arm armv8_*: the
 * kernel's intel_hybrid_get_attr_cpus() and armpmu_cpumask_show() write it);
 * uncore: a PMU with a `cpumask` file that is not core (uncore_imc_0, amd_df, amd_l3, power,
 * cstate_pkg ...: counted per socket, die or CCX on the CPUs the file names);
 * other: the rest (software, tracepoint, breakpoint, kprobe, uprobe, msr ...).
 */
enum pmc__pmu_kind { PMC__PMU_CORE, PMC__PMU_UNCORE, PMC__PMU_OTHER };

/* Where a PMU's CPUs came from. */
enum pmc__pmu_cpus_from {
	PMC__PMU_CPUS_ONLINE,  /* neither file: every online CPU (devices/system/cpu/online) */
	PMC__PMU_CPUS_FILE,    /* its `cpus` file (core PMUs of hybrid and Arm machines) */
	PMC__PMU_CPUS_CPUMASK, /* its `cpumask` file (uncore: one CPU per socket, die or CCX) */
};

/* One file of a PMU's caps/ folder (max_precise, branches, pmu_name ...). */
struct pmc__pmu_cap {
	char *name;
	char *value; /* the file's content, trailing newline removed */
};

struct pmc__pmu {
	char *name;    /* the folder's name: "cpu", "cpu_atom", "uncore_imc_0" */
	uint32_t type; /* its type file: attr.type */
	enum pmc__pmu_kind kind;
	enum pmc__pmu_cpus_from cpus_from;
	int *cpus; /* ascending CPU numbers the PMU is opened on (see cpus_from) */
	int nr_cpus;
	struct pmc__pmu_cap *caps; /* in name order */
	int nr_caps;
};

struct pmc__pmus {
	char *root;	       /* the sysfs root read */
	struct pmc__pmu *pmus; /* every PMU with a readable type, in name order (as perf) */
	int nr;
	int nr_core; /* PMUs of kind PMC__PMU_CORE */
	bool hybrid; /* more than one core PMU */
};

/*
 * The PMUs under the current sysfs root (pmc__sysfs_root()), read on first use and cached per
 * root for the life of the process (thread-safe; a PMU folder that cannot be read is left
 * out). Never NULL: a machine without PMUs (or out of memory) gives an empty set.
 */
const struct pmc__pmus *pmc__pmus(void);
/* The PMU of that name under the current root, or NULL. */
const struct pmc__pmu *pmc__pmus_find(const char *name);
/* The PMU of that attr.type under the current root, or NULL. */
const struct pmc__pmu *pmc__pmus_by_type(uint32_t type);
/* The value of pmu's caps/<name> file, or NULL when it has none. */
const char *pmc__pmu_cap(const struct pmc__pmu *pmu, const char *name);
/* The kind in words: "core", "uncore", "other". */
const char *pmc__pmu_kind_name(enum pmc__pmu_kind kind);
/*
 * Calls fn for each PMU of kind kind, in name order; stops at fn's first non-zero return and
 * returns it, else the number of PMUs visited.
 */
int pmc__pmus_each_kind(enum pmc__pmu_kind kind, int (*fn)(const struct pmc__pmu *pmu, void *arg),
			void *arg);

/*
 * pmus-describe.c: the core PMUs and the uncore units by type, in words ("core: cpu; uncore:
 * 6 imc units, 8 cha units on 2 sockets"), into buf; returns the number of PMUs.
 */
int pmc__pmus_summary(char *buf, size_t len);

#endif /* PMC_LIB_EVENT_PMUS_H */
