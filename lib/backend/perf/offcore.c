// SPDX-License-Identifier: MIT
/*
 * Intel's offcore response events: the request x response matrix is not in the event's
 * config but in an extra register, MSR_OFFCORE_RSP_0 (0x1a6) and from Westmere on also
 * MSR_OFFCORE_RSP_1 (0x1a7), which perf_event_attr carries in config1 (perf's offcore_rsp=
 * term, "config1:0-63" in the cpu PMU's format/; libpfm4's OFFCORE_RESPONSE_0:REQ:RSP). A
 * core has one value per register at a time: the planner keeps events of more distinct
 * values than registers in different passes (count/xreg.c; docs/pmus.md, "Offcore response").
 *
 * The facts are the kernel's (Linux 6.1, arch/x86/events/intel/core.c): each model's
 * extra_regs table names the event|umask (config & 0xffff, INTEL_UEVENT_EXTRA_REG) that uses
 * each register, and with PMU_FL_HAS_RSP_1 intel_alt_er() moves an event to the other
 * register when its own holds another value, so that any two values fit at once.
 */
#include <stdint.h>
#include <string.h>
#include "backend/perf/perf.h"
#include "event/evsel.h"

static const struct rsp_regs {
	int nr;		   /* registers a core has */
	uint16_t event[2]; /* the event|umask that programs each */
} regs[PERF_RSP_NR] = {
	/* intel_nehalem_extra_regs: INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, ...) */
	[PERF_RSP_NHM] = {1, {0x01b7}},
	/* intel_westmere_extra_regs, intel_snb_extra_regs, intel_snbep_extra_regs (Haswell and
	 * Broadwell too), intel_skl_extra_regs, intel_icl_extra_regs: 0x01b7 and 0x01bb */
	[PERF_RSP_WSM] = {2, {0x01b7, 0x01bb}},
	[PERF_RSP_SNB] = {2, {0x01b7, 0x01bb}},
	/* intel_spr_extra_regs: OCR is event 0x2a and 0x2b there */
	[PERF_RSP_SPR] = {2, {0x012a, 0x012b}},
};

/* The core PMU's events: raw ones (libpfm4's encodings) and those named through cpu/.../. */
static bool on_core_pmu(const struct pmc_evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_RAW || (evsel->pmu && !strcmp(evsel->pmu, "cpu"));
}

bool pmc__perf_offcore(const struct pmc_evsel *evsel, uint64_t *value, int *nr)
{
	const struct rsp_regs *r = &regs[pmc__perf_cpu_rsp()];

	if (!r->nr || !on_core_pmu(evsel))
		return false;
	for (int i = 0; i < r->nr; i++)
		if ((evsel->attr.config & 0xffff) == r->event[i]) {
			*value = evsel->attr.config1;
			*nr = r->nr;
			return true;
		}
	return false;
}
