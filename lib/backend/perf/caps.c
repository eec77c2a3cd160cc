// SPDX-License-Identifier: MIT
/* The perf backend described for pmc_caps() and pmc doctor: its checks, and what would help. */
#include <stdio.h>
#include <pmc/caps.h>
#include "backend/perf/perf.h"
#include "core/backend.h"
#include "core/sysfile.h"

static const char *paranoid_meaning(int level)
{
	switch (level) {
	case -1:
		return "no restrictions";
	case 0:
		return "CPU events for all users, no raw tracepoint data";
	case 1:
		return "user and kernel counting of own processes";
	case 2:
		return "user-level counting of own processes only";
	case 99:
		return "unknown (file unreadable)";
	default:
		return "counting restricted to privileged users";
	}
}

/* Sets a check's detail (and todo, when not NULL); c may be NULL (no room left). */
#define SAY(c, ...) ((c) ? (void)snprintf((c)->detail, sizeof((c)->detail), __VA_ARGS__) : (void)0)
#define TODO(c, ...) ((c) ? (void)snprintf((c)->todo, sizeof((c)->todo), __VA_ARGS__) : (void)0)

/* The system call, the hardware PMU and the permissions. */
static void describe_kernel(const struct pmc_caps *mc, const struct perf_machine *m,
			    struct pmc_backend_caps *out)
{
	bool priv = mc->root || mc->cap_perfmon;
	struct pmc_cap_check *c =
		pmc__caps_add_check(out, "perf_event", "perf_event_open", m->perf_event);

	SAY(c, "%s",
	    m->perf_event ? "the system call works (software events count)" : m->hw_pmu_why);
	if (!m->perf_event)
		TODO(c, "check seccomp/container policy; use --backend=vpmu");
	c = pmc__caps_add_check(out, "hw_pmu", "hardware PMU", m->hw_pmu);
	if (c)
		c->value = m->nr_gp_counters;
	if (!m->hw_pmu) {
		SAY(c, "%s", m->hw_pmu_why);
		TODO(c,
		     "hardware events (cycles, instructions, caches) cannot be counted here; run "
		     "on bare metal, enable the vPMU of the hypervisor, or use --backend=vpmu");
	} else {
		SAY(c, "%s: %d general and %d fixed counters", m->pmu_name[0] ? m->pmu_name : "cpu",
		    m->nr_gp_counters, m->nr_fixed_counters);
	}
	c = pmc__caps_add_check(out, "paranoid", "perf_event_paranoid", priv || mc->paranoid <= 1);
	if (c)
		c->value = mc->paranoid;
	SAY(c, "%d: %s%s", mc->paranoid, paranoid_meaning(mc->paranoid),
	    priv ? " (does not apply: privileged)" : "");
	if (!priv && mc->paranoid > 1)
		TODO(c, "kernel-level and system-wide counting need sysctl "
			"kernel.perf_event_paranoid=1 (or -1), or CAP_PERFMON");
}

/* What holds or speeds up counters: the NMI watchdog, rdpmc, the debug registers. */
static void describe_counters(const struct pmc_caps *mc, const struct perf_machine *m,
			      struct pmc_backend_caps *out)
{
	struct pmc_cap_check *c =
		pmc__caps_add_check(out, "nmi_watchdog", "NMI watchdog", mc->nmi_watchdog != 1);

	SAY(c, "%s",
	    mc->nmi_watchdog == 1   ? "holds one hardware counter"
	    : mc->nmi_watchdog == 0 ? "off"
				    : "unknown");
	if (mc->nmi_watchdog == 1 && m->hw_pmu)
		TODO(c, "sysctl kernel.nmi_watchdog=0 frees a counter");
	c = pmc__caps_add_check(out, "rdpmc", "rdpmc", m->rdpmc);
	SAY(c, "%s",
	    m->rdpmc ? "user-space reads through the perf mmap page"
		     : "not allowed: every counter read is a read(2) system call");
	if (!m->rdpmc && m->hw_pmu)
		TODO(c, "echo 2 > /sys/bus/event_source/devices/cpu/rdpmc");
	c = pmc__caps_add_check(out, "breakpoints", "hardware breakpoints",
				m->nr_breakpoints > 0 && m->breakpoints_fire);
	if (c)
		c->value = m->nr_breakpoints;
	if (m->nr_breakpoints > 0 && !m->breakpoints_fire)
		SAY(c,
		    "%d debug registers, but a watched write was not counted: mem: events read 0 "
		    "here (the hypervisor does not deliver debug exceptions)",
		    m->nr_breakpoints);
	else
		SAY(c, "%d debug registers for mem: events", m->nr_breakpoints);
}

void pmc__perf_probe_caps(const struct pmc_caps *mc, struct pmc_backend_caps *out)
{
	const struct perf_machine *m = pmc__perf_machine();

	out->usable = m->perf_event;
	if (!m->perf_event)
		snprintf(out->why, sizeof(out->why), "%s", m->hw_pmu_why);
	if (m->hw_pmu)
		pmc__sysfs_path(out->where, sizeof(out->where), "bus/event_source/devices/cpu");
	describe_kernel(mc, m, out);
	describe_counters(mc, m, out);
}
