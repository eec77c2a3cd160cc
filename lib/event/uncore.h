/* SPDX-License-Identifier: MIT */
/* Uncore events (uncore.c): which events are, and the rules the kernel holds them to. */
#ifndef PMC_LIB_EVENT_UNCORE_H
#define PMC_LIB_EVENT_UNCORE_H

#include <stdbool.h>
#include <stddef.h>

struct pmc_evsel;
struct pmc__pmu;

/*
 * The sysfs PMU of an event (by its PMU name, else its attr.type), or NULL: the generic
 * hardware and cache types, a backend's own PMU, or a type no PMU folder has.
 */
const struct pmc__pmu *pmc__evsel_pmu(const struct pmc_evsel *evsel);
/* Whether the event is on an uncore PMU (event/pmus.h: PMC__PMU_UNCORE). */
bool pmc__evsel_uncore(const struct pmc_evsel *evsel);
/*
 * The group's first uncore event (evsel itself when alone), or NULL: a group with one is
 * opened where that event's PMU is (its members follow their leader's CPU).
 */
const struct pmc_evsel *pmc__group_uncore(const struct pmc_evsel *evsel);
/*
 * What the kernel refuses of an uncore event, said without asking it: sampling (a list for
 * PMC_USE_SAMPLE), and a group that mixes an uncore event with an event of another PMU
 * (software, tracepoint, breakpoint, kprobe and uprobe events aside). 0, or
 * -PMC_E_UNSUPPORTED with why written. Part of pmc__evsel_static_check().
 */
int pmc__uncore_check(const struct pmc_evsel *evsel, char *why, size_t len);

#endif /* PMC_LIB_EVENT_UNCORE_H */
