// SPDX-License-Identifier: MIT
/* CPU-specific event names (INST_RETIRED.ANY:u:c=1, amd64_fam19h_zen3::RETIRED_INSTRUCTIONS)
 * encoded by libpfm4. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* The kernel's header first: libpfm4's copy then steps aside instead of clashing. */
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <pmc/error.h>
#include "backend/perf/pfm.h"
#include "backend/perf/pfm-api.h"
#include "core/log.h"
#include "event/evsel.h"

/* libpfm4's functions, set by pfm_ready(): loaded on first use (pfm-api.c). */
static const struct pmc__pfm_api *pfm;

static bool pfm_ready(void)
{
	pfm = pmc__pfm_api();
	return pfm != NULL;
}

/*
 * perf's EVENT.UMASK becomes libpfm4's EVENT:UMASK, and the parser's :c=N :i :e become
 * libpfm4's attributes c=N, i=1, e=1 (libpfm4 folds them into the config word).
 */
static char *pfm_string(const struct pmc_evsel *evsel)
{
	char cmask[16] = "", *s, *dot;

	if (evsel->mods & PMC_MOD_CMASK)
		snprintf(cmask, sizeof(cmask), ":c=%d", evsel->cmask);
	if (asprintf(&s, "%s%s%s%s", evsel->symbol, cmask, evsel->mods & PMC_MOD_INV ? ":i=1" : "",
		     evsel->mods & PMC_MOD_EDGE ? ":e=1" : "") < 0)
		return NULL;
	for (dot = strchr(s, '.'); dot; dot = strchr(dot, '.'))
		*dot = ':';
	return s;
}

/* The name of the libpfm4 PMU that encoded event idx, for evsel->pmu. */
static char *pfm_pmu_name(int idx)
{
	pfm_event_info_t einfo = {.size = sizeof(einfo)};
	pfm_pmu_info_t pinfo = {.size = sizeof(pinfo)};

	if (pfm->get_event_info(idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS ||
	    pfm->get_pmu_info(einfo.pmu, &pinfo) != PFM_SUCCESS)
		return NULL;
	return strdup(pinfo.name);
}

static int pfm_fail(struct pmc_parse_error *err, const char *str, int ret)
{
	if (ret == PFM_ERR_NOMEM)
		return -ENOMEM;
	if (ret == PFM_ERR_NOTFOUND)
		snprintf(err->msg, sizeof(err->msg),
			 "unknown event '%s' (not a generic name, and libpfm4 does not know it "
			 "for this machine's PMUs)",
			 str);
	else
		snprintf(err->msg, sizeof(err->msg), "libpfm4 cannot encode '%s': %s", str,
			 pfm->strerror(ret));
	err->offset = 0;
	return -PMC_E_UNKNOWN_EVENT;
}

int pmc__pfm_resolve(struct pmc_evsel *evsel, struct pmc_parse_error *err)
{
	struct perf_event_attr attr = {.size = sizeof(attr)};
	pfm_perf_encode_arg_t arg = {.size = sizeof(arg), .attr = &attr};
	char *str;
	int ret;

	if (evsel->kind != PMC_EV_SYMBOLIC || !evsel->symbol)
		return -PMC_E_UNKNOWN_EVENT; /* PMUs come from sysfs on this backend */
	if (!pfm_ready()) {
		snprintf(err->msg, sizeof(err->msg), "unknown event '%s' (%s)", evsel->symbol,
			 pmc__pfm_why());
		return -PMC_E_UNKNOWN_EVENT;
	}
	str = pfm_string(evsel);
	if (!str)
		return -ENOMEM;
	ret = pfm->get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS) {
		ret = pfm_fail(err, evsel->symbol, ret);
		free(str);
		return ret;
	}
	free(str);
	evsel->attr.type = attr.type;
	evsel->attr.config = attr.config;
	evsel->attr.config1 = attr.config1;
	evsel->attr.config2 = attr.config2;
	if (!evsel->pmu)
		evsel->pmu = pfm_pmu_name(arg.idx);
	return 0;
}

/*
 * Whether event idx needs an explicit unit mask: it has umasks and none is the default.
 * Such events are listed once per umask (EVENT:UMASK), since EVENT alone does not resolve.
 */
static bool needs_umask(int idx, const pfm_event_info_t *einfo)
{
	bool any = false;

	for (int j = 0; j < einfo->nattrs; j++) {
		pfm_event_attr_info_t a = {.size = sizeof(a)};

		if (pfm->get_event_attr_info(idx, j, PFM_OS_NONE, &a) != PFM_SUCCESS ||
		    a.type != PFM_ATTR_UMASK)
			continue;
		if (a.is_dfl)
			return false;
		any = true;
	}
	return any;
}

static int for_each_umask(int idx, const pfm_event_info_t *einfo, struct pmc_event_info *info,
			  char *name, size_t len, pmc_event_fn fn, void *arg)
{
	int ret = 0;

	for (int j = 0; j < einfo->nattrs && !ret; j++) {
		pfm_event_attr_info_t a = {.size = sizeof(a)};

		if (pfm->get_event_attr_info(idx, j, PFM_OS_NONE, &a) != PFM_SUCCESS ||
		    a.type != PFM_ATTR_UMASK)
			continue;
		snprintf(name, len, "%s::%s:%s", info->pmu, einfo->name, a.name);
		info->desc = a.desc;
		ret = fn(info, arg);
	}
	return ret;
}

/* libpfm4's "perf" and "perf_raw" PMUs repeat the generic names the parser already has. */
static int for_each_pmu_event(const pfm_pmu_info_t *pinfo, pmc_event_fn fn, void *arg)
{
	char name[512];
	struct pmc_event_info info = {.name = name, .kind = PMC_EV_SYMBOLIC, .pmu = pinfo->name};
	int ret = 0;

	for (int i = pinfo->first_event; i != -1 && !ret; i = pfm->get_event_next(i)) {
		pfm_event_info_t einfo = {.size = sizeof(einfo)};

		if (pfm->get_event_info(i, PFM_OS_NONE, &einfo) != PFM_SUCCESS)
			continue;
		if (needs_umask(i, &einfo)) {
			ret = for_each_umask(i, &einfo, &info, name, sizeof(name), fn, arg);
			continue;
		}
		snprintf(name, sizeof(name), "%s::%s", pinfo->name, einfo.name);
		info.desc = einfo.desc;
		ret = fn(&info, arg);
	}
	return ret;
}

int pmc__pfm_for_each(pmc_event_fn fn, void *arg)
{
	pfm_pmu_t pmu;
	int ret = 0;

	if (!pfm_ready())
		return 0;
	pfm_for_all_pmus(pmu)
	{
		pfm_pmu_info_t pinfo = {.size = sizeof(pinfo)};

		if (pfm->get_pmu_info(pmu, &pinfo) != PFM_SUCCESS || !pinfo.is_present ||
		    !strncmp(pinfo.name, "perf", 4))
			continue;
		ret = for_each_pmu_event(&pinfo, fn, arg);
		if (ret)
			return ret;
	}
	return 0;
}
