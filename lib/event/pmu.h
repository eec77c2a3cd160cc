/* SPDX-License-Identifier: MIT */
/*
 * Internal interfaces of the sysfs PMUs (<sysfs root>/bus/event_source/devices, through
 * core/sysfile.h): pmu-sysfs.c (types, formats, terms) and pmu-alias.c (events/ aliases).
 */
#ifndef PMC_LIB_EVENT_PMU_H
#define PMC_LIB_EVENT_PMU_H

#include "event/parse.h"

/* pmu-sysfs.c */
/*
 * The sysfs PMUs a PMU name written in an event stands for: the PMU of that name, else each
 * whose name is the word and a number (perf's uncore matching: imc for uncore_imc_0, _1).
 * Calls fn (when not NULL) for each; returns how many, or fn's error.
 */
int pmc__pmu_each(const char *word, int len, int (*fn)(const char *pmu, void *arg), void *arg);
/* evsel's type from pmu's type file; then ev's terms (builtin ones through term.c). */
int pmc__pmu_build(struct pmc_parser *p, struct pmc_evsel *evsel, const char *pmu,
		   const struct pmc_parsed *ev);
/* One event per PMU that has the alias ev->word (perf's kernel PMU events), with ev's terms,
 * each handed to finish. */
int pmc__pmu_build_alias(struct pmc_parser *p, const struct pmc_parsed *ev,
			 int (*finish)(struct pmc_parser *p, struct pmc_evsel *evsel,
				       const struct pmc_parsed *ev));

/* pmu-alias.c */
/* The file name (its case) of pmu's alias name[0..len), matched in any case, into found. */
int pmc__pmu_alias_find(const char *pmu, const char *name, int len, char *found, size_t size);
typedef int (*pmc__pmu_alias_fn)(const char *pmu, const char *alias, void *arg);
/* Calls fn (when not NULL) for each PMU with the alias; returns how many, or fn's error. */
int pmc__pmu_alias_each_pmu(const char *name, int len, pmc__pmu_alias_fn fn, void *arg);
/* Whether some PMU has an alias named name[0..len) (any case, as perf). */
bool pmc__pmu_alias_exists(const char *name, int len);
/*
 * The terms of pmu's alias file, read into buf (the terms point into it): how many (at most
 * max), -PMC_E_FORMAT for a file that is not "name[=number],...", or a negative errno.
 */
int pmc__pmu_alias_terms(const char *pmu, const char *alias, char *buf, size_t size,
			 struct pmc_term *terms, int max);
/* ALIAS.scale and ALIAS.unit beside an alias, when there. 0 or -ENOMEM. */
int pmc__pmu_alias_describe(const char *pmu, const char *alias, double *scale, char **unit);
/* Walks every alias of every PMU as "pmu/alias/". */
int pmc__pmu_for_each(pmc_event_fn fn, void *arg);

/* pmu-hybrid.c: the core PMUs of a hybrid machine (docs/pmus.md, "Hybrid"). */
#define PMC_CORE_PMU_MAX 8
#define PMC_CORE_PMU_CPUS 256
struct pmc__core_pmu {
	char name[64];
	uint32_t type;
	char cpus[PMC_CORE_PMU_CPUS]; /* its `cpus` file */
	bool extended;	/* the kernel takes HARDWARE/HW_CACHE with the type in config[63:32] */
	char rule[320]; /* why extended is what it is, in words (for -v) */
};
struct pmc__core_pmus {
	const struct pmc_evlist *evlist; /* whose backend probes, or NULL */
	int nr, nr_extended;
	struct pmc__core_pmu pmu[PMC_CORE_PMU_MAX];
};
/* The PMUs with a `cpus` file (perf's core PMUs; event/pmus.h), in type order: how many. */
/*
 * On this machine (the sysfs root /sys), evlist's backend probes each PMU's extended type
 * unless it is a dry run or NULL; else the rules of docs/pmus.md, "Hybrid" decide.
 */
int pmc__core_pmus(struct pmc__core_pmus *set, const struct pmc_evlist *evlist);
/* Whether a generic event becomes one event per core PMU: several, one with the extended type. */
bool pmc__core_pmus_expand(const struct pmc__core_pmus *set);
/* The core PMU named pmu[0..len) in set, or NULL. */
const struct pmc__core_pmu *pmc__core_pmu_find(const struct pmc__core_pmus *set, const char *pmu,
					       int len);
/* perf's --cputype value (core, atom, or a PMU's name) as the PMU's name into buf; NULL for none.
 */
const char *pmc__cputype_pmu(const char *cputype, char *buf, size_t len);
/* Whether an event of pmu may be opened on cpu: cpu is in the PMU's `cpus`, or cpu is -1, or
 * the PMU has no `cpus` file. */
bool pmc__pmu_cpu_in(const char *pmu, int cpu);

#endif /* PMC_LIB_EVENT_PMU_H */
