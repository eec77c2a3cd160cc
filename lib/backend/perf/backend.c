// SPDX-License-Identifier: MIT
/* The perf backend's ops table: counting through perf_event_open(2). */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <pmc/caps.h>
#include "core/backend.h"
#include "backend/perf/perf.h"
#include "core/sysfile.h"
#include "backend/perf/pfm.h"
#include "backend/perf/sample.h"
#include "event/evsel.h"

static int perf_probe(char *why, size_t len)
{
	const struct perf_machine *caps = pmc__perf_machine();

	if (caps->perf_event)
		return 0;
	if (why && len)
		strncpy(why, caps->hw_pmu_why, len - 1), why[len - 1] = 0;
	return -ENOSYS;
}

static int perf_why_denied(struct pmc_evlist *evlist, const struct pmc_target *target, char *why,
			   size_t len)
{
	return pmc__perf_why_denied(evlist->entries, evlist->nr, target, why, len);
}

/* The fixed counter a generic hardware event takes (architectural order), or NONE. */
static enum pmc_slot_class fixed_slot(const struct pmc_evsel *evsel)
{
	switch (pmc__event_hw_id(evsel)) {
	case PERF_COUNT_HW_INSTRUCTIONS:
		return PMC_SLOT_FIXED0;
	case PERF_COUNT_HW_CPU_CYCLES:
		return PMC_SLOT_FIXED1;
	case PERF_COUNT_HW_REF_CPU_CYCLES:
		return PMC_SLOT_FIXED2;
	default:
		return PMC_SLOT_NONE;
	}
}

static enum pmc_slot_class perf_classify(const struct pmc_evsel *evsel)
{
	switch (evsel->attr.type) {
	case PERF_TYPE_SOFTWARE:
	case PERF_TYPE_TRACEPOINT:
		return PMC_SLOT_NONE;
	case PERF_TYPE_BREAKPOINT:
		return PMC_SLOT_DEBUGREG;
	case PERF_TYPE_HARDWARE:
		return fixed_slot(evsel) != PMC_SLOT_NONE ? fixed_slot(evsel) : PMC_SLOT_GENERAL;
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		return PMC_SLOT_GENERAL;
	default:
		if (evsel->kind == PMC_EV_SYMBOLIC ||
		    (evsel->pmu && (!strcmp(evsel->pmu, "cpu") || !strncmp(evsel->pmu, "cpu_", 4))))
			return PMC_SLOT_GENERAL;
		return PMC_SLOT_NONE;
	}
}

/* Read here rather than through pmc_caps(), which probes every backend. */
static bool nmi_watchdog_on(void)
{
	long v;

	return !pmc__sysfile_read_long("/proc/sys/kernel/nmi_watchdog", &v) && v == 1;
}

static int perf_budget(enum pmc_slot_class cls)
{
	const struct perf_machine *caps = pmc__perf_machine();
	int n;

	switch (cls) {
	case PMC_SLOT_GENERAL:
		/* Without libpfm4's tables assume the architectural minimum of four. */
		n = caps->nr_gp_counters ? caps->nr_gp_counters : 4;
		/* The NMI watchdog holds one counter for itself. */
		return nmi_watchdog_on() && n > 1 ? n - 1 : n;
	case PMC_SLOT_FIXED0:
	case PMC_SLOT_FIXED1:
	case PMC_SLOT_FIXED2:
		return caps->nr_fixed_counters > (int)(cls - PMC_SLOT_FIXED0);
	case PMC_SLOT_DEBUGREG:
		return pmc__perf_breakpoints()->nr ? pmc__perf_breakpoints()->nr : 4;
	default:
		return INT_MAX;
	}
}

static bool perf_extra_reg(const struct pmc_evsel *evsel, enum pmc_xreg xreg, uint64_t *value,
			   int *nr)
{
	return xreg == PMC_XREG_OFFCORE && pmc__perf_offcore(evsel, value, nr);
}

/* Applies ioctl request to every open leader (with PERF_IOC_FLAG_GROUP) or event. */
static int ioctl_all(struct pmc_counting *c, unsigned long req)
{
	struct perf_counting *pc = to_perf(c);
	struct pmc_evlist *evlist = c->evlist;

	for (size_t i = 0; i < evlist->nr; i++) {
		if (!c->open[i] || evlist->entries[i]->leader != evlist->entries[i])
			continue;
		for (int u = 0; u < pc->nr_units; u++)
			if (*perf_fd(pc, i, u) >= 0 &&
			    ioctl(*perf_fd(pc, i, u), req, PERF_IOC_FLAG_GROUP) < 0)
				return -errno;
	}
	return 0;
}

/* Every counter of one event (a member alone, a leader with its group). */
static int ioctl_one(struct perf_counting *pc, const struct pmc_evsel *ev, unsigned long req)
{
	for (int u = 0; u < pc->nr_units; u++)
		if (*perf_fd(pc, ev->idx, u) >= 0 &&
		    ioctl(*perf_fd(pc, ev->idx, u), req,
			  ev->leader == ev ? PERF_IOC_FLAG_GROUP : 0))
			return -errno;
	return 0;
}

static int perf_set_enabled(struct pmc_counting *c, const struct pmc_evsel *only, bool on)
{
	unsigned long req = on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE;

	return only ? ioctl_one(to_perf(c), only, req) : ioctl_all(c, req);
}

static int perf_start(struct pmc_counting *c)
{
	if (c->target.kind == PMC_TARGET_COMMAND)
		return pmc__perf_start_child(c);
	return ioctl_all(c, PERF_EVENT_IOC_ENABLE);
}

static int perf_stop(struct pmc_counting *c)
{
	return ioctl_all(c, PERF_EVENT_IOC_DISABLE);
}

static int perf_reset(struct pmc_counting *c)
{
	return ioctl_all(c, PERF_EVENT_IOC_RESET);
}

/* perf's default: cycles where the machine has a hardware PMU, else the CPU clock. */
static const char *perf_sample_default(void)
{
	const struct pmc_cap_check *hw = pmc_caps__check(pmc_caps(), "perf", "hw_pmu");

	return hw && hw->ok ? "cycles" : "cpu-clock";
}

const struct pmc_backend_ops pmc__perf_ops = {
	.name = "perf",
	.desc = "Linux perf_event_open(2): hardware PMU, software events, tracepoints, breakpoints",
	.multiplex = true,
	.dry_run = true,
	.live = true,
	.probe = perf_probe,
	.resolve = pmc__pfm_resolve,
	.check = pmc__perf_check,
	.check_filter = pmc__perf_check_filter,
	.probe_caps = pmc__perf_probe_caps,
	.why_denied = perf_why_denied,
	.classify = perf_classify,
	.extended_type = pmc__perf_extended_type,
	.budget = perf_budget,
	.extra_reg = perf_extra_reg,
	.for_each_known = pmc__pfm_for_each,
	.cpu_model = pmc__perf_cpu_model,
	.sample_default = perf_sample_default,
	.open = pmc__perf_open,
	.start = perf_start,
	.stop = perf_stop,
	.reset = perf_reset,
	.set_enabled = perf_set_enabled,
	.read = pmc__perf_read,
	.read_group = pmc__perf_read_group,
	.close = pmc__perf_close,
	.sample_open = pmc__perf_sample_open,
	.sample_enable = pmc__perf_sample_enable,
	.sample_disable = pmc__perf_sample_disable,
	.sample_poll = pmc__perf_sample_poll,
	.sample_drain = pmc__perf_sample_drain,
	.sample_close = pmc__perf_sample_close,
};
