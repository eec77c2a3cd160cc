/* SPDX-License-Identifier: MIT */
/* The perf backend's CPU-specific event names, through libpfm4 (resolve and for_each_known hooks).
 */
#ifndef PMC_LIB_BACKEND_PERF_PFM_H
#define PMC_LIB_BACKEND_PERF_PFM_H

#include <pmc/event.h>

struct pmc_evsel;

/*
 * Resolves a PMC_EV_SYMBOLIC event (evsel->symbol: perf's EVENT.UMASK or libpfm4's
 * [pmu::]EVENT[:UMASK...], with :c=N :i :e from evsel->mods) into evsel->attr's type and
 * config words. Privilege bits are left to the parser. Returns 0, -PMC_E_UNKNOWN_EVENT
 * with err filled (offset relative to the event's start) when libpfm4 does not know the
 * name on this machine's PMUs, or -ENOMEM.
 */
int pmc__pfm_resolve(struct pmc_evsel *evsel, struct pmc_parse_error *err);

/* Walks the events of the PMUs libpfm4 detected here, as "pmu::EVENT". */
int pmc__pfm_for_each(pmc_event_fn fn, void *arg);

#endif /* PMC_LIB_BACKEND_PERF_PFM_H */
