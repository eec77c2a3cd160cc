/* SPDX-License-Identifier: MIT */
/* libpfm4's functions, loaded on first use (core/dynlib.h says why) and initialised once. */
#ifndef PMC_LIB_BACKEND_PERF_PFM_API_H
#define PMC_LIB_BACKEND_PERF_PFM_API_H

#include <perfmon/pfmlib.h>

struct pmc__pfm_api {
	pfm_err_t (*initialize)(void);
	const char *(*strerror)(int code);
	pfm_err_t (*get_os_event_encoding)(const char *str, int dfl_plm, pfm_os_t os, void *arg);
	pfm_err_t (*get_pmu_info)(pfm_pmu_t pmu, pfm_pmu_info_t *info);
	pfm_err_t (*get_event_info)(int idx, pfm_os_t os, pfm_event_info_t *info);
	pfm_err_t (*get_event_attr_info)(int eidx, int aidx, pfm_os_t os,
					 pfm_event_attr_info_t *info);
	int (*get_event_next)(int idx);
};

/*
 * libpfm4, loaded and initialised on the first call (thread-safe); NULL when it cannot be
 * loaded or initialised, with the reason in the debug log and pmc__pfm_why().
 */
const struct pmc__pfm_api *pmc__pfm_api(void);
const char *pmc__pfm_why(void);

#endif /* PMC_LIB_BACKEND_PERF_PFM_API_H */
