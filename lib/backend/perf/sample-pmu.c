// SPDX-License-Identifier: MIT
/*
 * PMUs that sample and never count: AMD's IBS (arch/x86/events/amd/ibs.c, Linux 6.1) tags one
 * instruction fetch (ibs_fetch) or operation (ibs_op) per period and reports it as a sample;
 * perf_ibs_read() is empty, so a count stays 0, and perf_ibs_init() refuses an event without
 * a period (-EINVAL). pmc stat refuses them with that reason; pmc record opens them
 * (docs/pmus.md, "IBS").
 */
#include <stdio.h>
#include <string.h>
#include <pmc/error.h>
#include "backend/perf/perf.h"
#include "event/evsel.h"

static const char *const sample_only[] = {"ibs_fetch", "ibs_op"};

int pmc__perf_sample_only_check(const struct pmc_evsel *evsel, char *why, size_t len)
{
	if (evsel->evlist->use != PMC_USE_COUNT || !evsel->pmu)
		return 0;
	for (size_t i = 0; i < sizeof(sample_only) / sizeof(sample_only[0]); i++)
		if (!strcmp(evsel->pmu, sample_only[i])) {
			snprintf(why, len,
				 "%s is AMD IBS, a sampling PMU: it reports tagged %s as samples "
				 "and its count is never read; sample it with "
				 "'pmc record -a -e %s//'",
				 evsel->pmu,
				 strcmp(evsel->pmu, "ibs_op") ? "fetches" : "operations",
				 evsel->pmu);
			return -PMC_E_UNSUPPORTED;
		}
	return 0;
}
