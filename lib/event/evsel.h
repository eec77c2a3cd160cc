/* SPDX-License-Identifier: MIT */
/* Events and event lists inside the library: their layout (core/evsel.h) and event/'s functions. */
#ifndef PMC_LIB_EVENT_EVSEL_H
#define PMC_LIB_EVENT_EVSEL_H

#include <stdbool.h>
#include <stdint.h>
#include <pmc/event.h>
#include "core/evsel.h"

/* perf's builtin terms (docs/events.md, "Terms"), in parse-events.l's order. */
enum pmc_term_id {
	PMC_TERM_CONFIG,
	PMC_TERM_CONFIG1,
	PMC_TERM_CONFIG2,
	PMC_TERM_NAME,
	PMC_TERM_PERIOD,
	PMC_TERM_FREQ,
	PMC_TERM_BRANCH_TYPE,
	PMC_TERM_TIME,
	PMC_TERM_CALL_GRAPH,
	PMC_TERM_STACK_SIZE,
	PMC_TERM_MAX_STACK,
	PMC_TERM_NR,
	PMC_TERM_INHERIT,
	PMC_TERM_NO_INHERIT,
	PMC_TERM_OVERWRITE,
	PMC_TERM_NO_OVERWRITE,
	PMC_TERM_PERCORE,
	PMC_TERM_AUX_OUTPUT,
	PMC_TERM_AUX_SAMPLE_SIZE,
	PMC_TERM_METRIC_ID,
	PMC_TERM_DRV, /* @name[=value], a driver configuration term */
	PMC_TERM_NR_IDS,
};

/* A builtin term's name as written ("call-graph"). */
const char *pmc__term_name(enum pmc_term_id id);

/*
 * The event's id within PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE without the extended type
 * (config[63:32], a hybrid core PMU's type; docs/pmus.md, "Hybrid"); config for other types.
 */
uint64_t pmc__event_hw_id(const struct pmc_evsel *evsel);

/*
 * Events that happen only on the kernel's side (context switches, CPU migrations, cgroup
 * switches, every tracepoint): the list's default privilege does not apply to them, they
 * count at every level unless :u/:k/:h say otherwise (perf's rule).
 */
bool pmc__event_kernel_side(const struct pmc_evsel *evsel);
/* A kernel-side event that counts nothing when the kernel is excluded (all of them but the
 * syscalls:* tracepoints, which the kernel fires with the task's user registers). */
bool pmc__event_user_blind(const struct pmc_evsel *evsel);
/* Whether the user wrote :u, :k or :h on the event (or its group): its levels are the user's. */
bool pmc__event_levels_written(const struct pmc_evsel *evsel);

/*
 * The rules an encoding breaks that need no kernel to say (breakpoint lengths, D or e on a
 * group member, an uncore event sampled or grouped with another PMU's): 0, or -PMC_E_UNSUPPORTED
 * with why written. Part of pmc_evsel__check().
 */
int pmc__evsel_static_check(const struct pmc_evsel *evsel, char *why, size_t len);

#endif /* PMC_LIB_EVENT_EVSEL_H */
