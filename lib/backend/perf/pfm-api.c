// SPDX-License-Identifier: MIT
/* libpfm4 loaded on first use: its function table, resolved by name, and initialised once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "backend/perf/perf.h"
#include "backend/perf/pfm-api.h"
#include "core/dynlib.h"
#include "core/log.h"

static struct pmc__pfm_api api;
static const char *const names[] = {
	"pfm_initialize",     "pfm_strerror",	    "pfm_get_os_event_encoding",
	"pfm_get_pmu_info",   "pfm_get_event_info", "pfm_get_event_attr_info",
	"pfm_get_event_next",
};
_Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(api) / sizeof(void *),
	       "one name per function pointer");
static struct pmc__dynlib lib =
	PMC__DYNLIB_INIT(PMC_PFM_SONAME, names, &api, sizeof(names) / sizeof(names[0]));
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static const struct pmc__pfm_api *ready;
static char why[192];

/*
 * libpfm4 knows the CPU by CPUID, not by the sysfs tree: with the test hook PMC_PERF_CPU_MODEL
 * (another machine's model, its tree under PMC_SYSFS_ROOT) it is made to know that model's
 * PMU through its own LIBPFM_FORCE_PMU, set while it initialises unless the caller set it.
 */
static int initialize(void)
{
	const char *pmu = pmc__perf_cpu_forced_pfm();
	int ret;

	if (!pmu || getenv("LIBPFM_FORCE_PMU"))
		return api.initialize();
	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	ret = api.initialize();
	unsetenv("LIBPFM_FORCE_PMU");
	return ret;
}

static void init(void)
{
	int ret;

	if (pmc__dynlib_load(&lib)) {
		snprintf(why, sizeof(why), "libpfm4 is not available: %s", lib.why);
		return;
	}
	ret = initialize();
	if (ret != PFM_SUCCESS) {
		snprintf(why, sizeof(why), "libpfm4 initialisation failed: %s", api.strerror(ret));
		pr_debug("%s\n", why);
		return;
	}
	ready = &api;
}

const struct pmc__pfm_api *pmc__pfm_api(void)
{
	pthread_once(&init_once, init);
	return ready;
}

const char *pmc__pfm_why(void)
{
	return why;
}
