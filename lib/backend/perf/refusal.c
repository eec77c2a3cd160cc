// SPDX-License-Identifier: MIT
/*
 * A refusal of perf_event_open(2) explained for one event: by the trial open of the check, or
 * by the real open of a pass, where it is first told apart from a refusal of the target (the
 * run's, which stops it) and made the event's verdict, so that the others are counted.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "backend/perf/perf.h"
#include "core/log.h"
#include "core/tracefs.h"
#include "event/evsel.h"

/* Events that need the CPU's PMU (as opposed to software, tracepoint, breakpoint PMUs). */
static bool needs_hw_pmu(const struct pmc_evsel *evsel)
{
	switch (evsel->attr.type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		return true;
	default:
		return evsel->kind == PMC_EV_SYMBOLIC ||
		       (evsel->pmu &&
			(!strcmp(evsel->pmu, "cpu") || !strncmp(evsel->pmu, "cpu_", 4)));
	}
}

/* " on the command" or " on process 42" for the real open; "" for the check's on pmc. */
static void where(const struct pmc_target *t, char *buf, size_t len)
{
	if (!t || t->kind == PMC_TARGET_SELF)
		snprintf(buf, len, "%s", "");
	else if (t->kind == PMC_TARGET_COMMAND)
		snprintf(buf, len, " on the command");
	else if (t->kind == PMC_TARGET_PID)
		snprintf(buf, len, " on process %d", (int)t->pid);
	else if (t->kind == PMC_TARGET_TID)
		snprintf(buf, len, " on thread %s", t->tids ? t->tids : "?");
	else
		snprintf(buf, len, " on CPUs %s", t->cpus ? t->cpus : "(all)");
}

/* A refusal that no permission rule of the target explains (deny.c found none). */
static int say_denied(int err, const char *on, char *why, size_t len)
{
	snprintf(why, len,
		 "the kernel refuses it%s (%s), though it lets pmc count a software event %s at "
		 "the same level: a rule for this kind of event%s, or a security module",
		 on, strerror(-err), on[0] ? "there" : "on itself",
		 geteuid() ? " (some need CAP_PERFMON or root)"
			   : " (some are refused even to root)");
	return -EACCES;
}

/* What the kernel's answer means for the event, and what to do about it. */
static int say_errno(int err, const char *on, char *why, size_t len)
{
	const char *e = strerror(-err);

	switch (-err) {
	case ENOSPC:
		snprintf(why, len, "no free counter or debug register for it%s", on);
		return -PMC_E_TOOMANY;
	case EINVAL:
		snprintf(
			why, len,
			"the kernel rejects it%s (%s): an encoding, term or modifier it does not "
			"take for this event; compare the terms with the PMU's format in sysfs, or "
			"leave the modifiers out",
			on, e);
		break;
	case EOPNOTSUPP:
		snprintf(why, len,
			 "the kernel cannot count it so%s (%s): its PMU lacks what the encoding "
			 "asks (a privilege filter, a precise level, counting per task); try it "
			 "without modifiers",
			 on, e);
		break;
	case ENOENT:
	case ENODEV:
		snprintf(
			why, len,
			"the kernel has no such event%s (%s): its PMU, tracepoint or config is not "
			"in this kernel or not on these CPUs",
			on, e);
		break;
	case EBUSY:
		snprintf(
			why, len,
			"its PMU is taken%s (%s): another user (a perf session, a tracer) holds it "
			"exclusively; try again when it is done",
			on, e);
		break;
	default:
		snprintf(why, len, "the kernel rejects this encoding%s: %s", on, e);
		break;
	}
	return -PMC_E_UNSUPPORTED;
}

int pmc__perf_explain(int err, struct pmc_evsel *evsel, const struct pmc_target *target, char *why,
		      size_t len)
{
	const struct perf_machine *caps = pmc__perf_machine();
	/* The check opens the event on pmc itself: the rules of that target apply. */
	struct pmc_target self = {.sz = sizeof(self), .kind = PMC_TARGET_SELF};
	char on[64];

	if (needs_hw_pmu(evsel) && !caps->hw_pmu) {
		snprintf(why, len, "%s; try --backend=vpmu",
			 caps->hw_pmu_why[0]
				 ? caps->hw_pmu_why
				 : "no hardware PMU on this machine (virtual machine?)");
		return -PMC_E_NOPMU;
	}
	where(target, on, sizeof(on));
	if (err == -EACCES || err == -EPERM) {
		int ret = pmc__perf_why_denied(&evsel, 1, target ? target : &self, why, len);

		return ret != -ENOENT ? ret : say_denied(err, on, why, len);
	}
	if (evsel->kind == PMC_EV_TRACEPOINT && !pmc__tracefs_root()) {
		snprintf(why, len,
			 "tracefs is not mounted; mount -t tracefs nodev /sys/kernel/tracing");
		return -PMC_E_NOTRACEFS;
	}
	return say_errno(err, on, why, len);
}

/* Errors of the process, its resources or the call itself: never one event's. */
static bool concerns_all(int err)
{
	switch (-err) {
	case EMFILE:
	case ENFILE:
	case ENOMEM:
	case ESRCH:
	case EINTR:
	case EFAULT:
	case EBADF:
	case E2BIG:
		return true;
	default:
		return false;
	}
}

/*
 * Whether the refusal of ev on unit is ev's own: a permission refusal that no rule of the
 * target explains (deny.c's probes all open), or another error where a plain software event
 * opens on the same unit. Anything else is the target's, and stops the run as before.
 */
static bool refusal_is_the_events(struct perf_counting *pc, struct pmc_evsel *ev, int unit, int err)
{
	char why[512];

	if (concerns_all(err))
		return false;
	if (err == -EACCES || err == -EPERM)
		return pmc__perf_why_denied(&ev, 1, &pc->base.target, why, sizeof(why)) == -ENOENT;
	if (pc->pids[unit] == -1)
		return !pmc__perf_probe_open(PERF_PROBE_CPU, -1, pc->cpus[unit]);
	return !pmc__perf_probe_open(PERF_PROBE_USER, pc->pids[unit], -1);
}

void pmc__perf_judge_refusal(struct perf_counting *pc, struct pmc_evsel *ev, int unit, int err)
{
	char why[512];
	int code;

	if (pc->dry.fn || !refusal_is_the_events(pc, ev, unit, err))
		return;
	code = pmc__perf_explain(err, ev, &pc->base.target, why, sizeof(why));
	pr_info("'%s' is not counted: %s\n", ev->name, why);
	pmc__evsel_refuse(ev, code, why);
}
