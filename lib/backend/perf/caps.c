// SPDX-License-Identifier: MIT
/* The perf backend described for pmc_caps() and pmc doctor: its checks, and what would help. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pmc/caps.h>
#include "backend/perf/perf.h"
#include "core/backend.h"
#include "core/sysfile.h"
#include "event/pmus.h"

/*
 * What a level means for a user without CAP_PERFMON. Above 2 it depends on the kernel, so the
 * probe of user-level counting (user_err) says which: upstream kernels treat 3 like 2,
 * Debian's and Android's refuse perf_event_open altogether.
 */
static const char *paranoid_meaning(int level, int user_err)
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
		return user_err == -EACCES || user_err == -EPERM
			       ? "this kernel enforces it: no counting without CAP_PERFMON"
			       : "this kernel treats it as 2: user-level counting of own processes";
	}
}

/* Sets a check's detail (and todo, when not NULL); c may be NULL (no room left). */
#define SAY(c, ...) ((c) ? (void)snprintf((c)->detail, sizeof((c)->detail), __VA_ARGS__) : (void)0)
#define TODO(c, ...) ((c) ? (void)snprintf((c)->todo, sizeof((c)->todo), __VA_ARGS__) : (void)0)

static bool refused(int err)
{
	return err == -EACCES || err == -EPERM;
}

/* The system call and the hardware PMU. */
static void describe_kernel(const struct pmc_caps *mc, const struct perf_machine *m,
			    struct pmc_backend_caps *out)
{
	struct pmc_cap_check *c =
		pmc__caps_add_check(out, "perf_event", "perf_event_open", m->perf_event);

	SAY(c, "%s",
	    m->perf_event ? "the system call works (software events count)" : m->hw_pmu_why);
	if (!m->perf_event && refused(m->user_err) && mc->paranoid > 2 && mc->paranoid != 99)
		TODO(c, "sysctl kernel.perf_event_paranoid=2 allows user-level counting of your "
			"own processes; or run with CAP_PERFMON; or use --backend=vpmu");
	else if (!m->perf_event)
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
}

/* One permission probe as a check: what opened, or the kernel's refusal and what allows it. */
static void describe_probe(struct pmc_backend_caps *out, const char *key, const char *name, int err,
			   const char *what, const char *needs, const char *todo)
{
	struct pmc_cap_check *c = pmc__caps_add_check(out, key, name, !err);

	if (!err)
		SAY(c, "%s: opened", what);
	else if (refused(err))
		SAY(c, "%s: refused (%s); %s", what, strerror(-err), needs);
	else
		SAY(c, "%s: fails (%s)", what, strerror(-err));
	if (refused(err))
		TODO(c, "%s", todo);
}

/*
 * The permissions: perf_event_paranoid as a number, and what this process may count as
 * tried by the probes (probe.c), which is what holds whatever the number says.
 */
static void describe_permissions(const struct pmc_caps *mc, const struct perf_machine *m,
				 struct pmc_backend_caps *out)
{
	bool priv = mc->root || mc->cap_perfmon;
	struct pmc_cap_check *c =
		pmc__caps_add_check(out, "paranoid", "perf_event_paranoid", !m->kernel_err);

	if (c)
		c->value = mc->paranoid;
	SAY(c, "%d: %s%s", mc->paranoid, paranoid_meaning(mc->paranoid, m->user_err),
	    priv ? " (does not apply: privileged)" : "");
	if (refused(m->kernel_err))
		TODO(c, "kernel-level counting needs sysctl kernel.perf_event_paranoid=1, "
			"system-wide =0 (or -1), or CAP_PERFMON");
	describe_probe(out, "open_user", "user-level counting", m->user_err,
		       "task-clock:u on pmc itself", "no counting at all without CAP_PERFMON",
		       "sysctl kernel.perf_event_paranoid=2 (or lower), or run with CAP_PERFMON");
	describe_probe(out, "open_kernel", "kernel-level counting", m->kernel_err,
		       "task-clock:uk on pmc itself",
		       "events that count the kernel need perf_event_paranoid <= 1",
		       "add :u to events to count user level only; or sysctl "
		       "kernel.perf_event_paranoid=1; or run with CAP_PERFMON");
	describe_probe(out, "open_cpu", "CPU-wide counting", m->cpu_err,
		       "cpu-clock on one CPU, every task (-a, -C)",
		       "counting CPUs needs perf_event_paranoid <= 0",
		       "count a command of your own instead; or sysctl "
		       "kernel.perf_event_paranoid=0; or run with CAP_PERFMON");
}

/* What holds or speeds up counters: the NMI watchdog, rdpmc, the debug registers. */
static void describe_counters(const struct pmc_caps *mc, const struct perf_machine *m,
			      struct pmc_backend_caps *out)
{
	const struct perf_breakpoints *bp = pmc__perf_breakpoints();
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
	c = pmc__caps_add_check(out, "breakpoints", "hardware breakpoints", bp->nr > 0 && bp->fire);
	if (c)
		c->value = bp->nr;
	if (bp->nr > 0 && !bp->fire)
		SAY(c,
		    "%d debug registers, but a watched write was not counted: mem: events read 0 "
		    "here (the hypervisor does not deliver debug exceptions)",
		    bp->nr);
	else
		SAY(c, "%d debug registers for mem: events", bp->nr);
}

/* The PMUs of sysfs: the core types (hybrid) and the uncore units (event/pmus.h). */
static void describe_pmus(struct pmc_backend_caps *out)
{
	char buf[256];
	int n = pmc__pmus_summary(buf, sizeof(buf));
	struct pmc_cap_check *c = pmc__caps_add_check(out, "pmus", "PMUs", n > 0);

	if (c)
		c->value = n;
	if (n > 0)
		SAY(c, "%s", buf);
	else
		SAY(c, "none under %s/bus/event_source/devices", pmc__sysfs_root());
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
	describe_permissions(mc, m, out);
	describe_counters(mc, m, out);
	describe_pmus(out);
}
