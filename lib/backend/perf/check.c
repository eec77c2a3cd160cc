// SPDX-License-Identifier: MIT
/* The perf backend's judgement of events: can this encoding be counted here, and on what. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pmc/caps.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "backend/perf/perf.h"
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

static int explain(int err, struct pmc_evsel *evsel, char *why, size_t len)
{
	const struct perf_machine *caps = pmc__perf_machine();

	if (needs_hw_pmu(evsel) && !caps->hw_pmu) {
		snprintf(why, len, "%s; try --backend=vpmu",
			 caps->hw_pmu_why[0]
				 ? caps->hw_pmu_why
				 : "no hardware PMU on this machine (virtual machine?)");
		return -PMC_E_NOPMU;
	}
	if (err == -EACCES || err == -EPERM) {
		/* The check opens the event on pmc itself: the rules of that target apply. */
		struct pmc_target self = {.sz = sizeof(self), .kind = PMC_TARGET_SELF};
		int ret = pmc__perf_why_denied(&evsel, 1, &self, why, len);

		if (ret != -ENOENT)
			return ret;
		snprintf(why, len,
			 "the kernel refuses it (%s), though it lets pmc count a software event "
			 "of its own at the same level: a security module, or a rule for this "
			 "kind of event that needs CAP_PERFMON",
			 strerror(-err));
		return -EACCES;
	}
	if (evsel->kind == PMC_EV_TRACEPOINT && !pmc__tracefs_root()) {
		snprintf(why, len,
			 "tracefs is not mounted; mount -t tracefs nodev /sys/kernel/tracing");
		return -PMC_E_NOTRACEFS;
	}
	if (err == -ENOSPC) {
		snprintf(why, len, "no free counter or debug register for it");
		return -PMC_E_TOOMANY;
	}
	snprintf(why, len, "the kernel rejects this encoding: %s", strerror(-err));
	return -PMC_E_UNSUPPORTED;
}

/*
 * Tracepoints: the kernel's answer for the first one judged (pinned, so it costs one open)
 * holds for the others; opening each would cost a 40 ms unregistration per close, and pmc
 * list judges thousands. The answer is kept as the kernel gave it, so that each event's
 * reason is explained from it. A tracepoint that fails later still fails at open.
 */
static int check_tracepoint(struct pmc_evsel *evsel, char *why, size_t len)
{
	static int answer = 1;

	if (answer == 1)
		answer = pmc__perf_pin(PERF_TYPE_TRACEPOINT, evsel->attr.config);
	return answer ? explain(answer, evsel, why, len) : 0;
}

int pmc__perf_check(struct pmc_evsel *evsel, char *why, size_t len)
{
	struct perf_event_attr a = evsel->attr;
	int fd;

	/* A dry run opens nothing: the kernel's verdict comes when the list really opens. */
	if (evsel->evlist->dry_run)
		return 0;
	if (a.type == PERF_TYPE_TRACEPOINT)
		return check_tracepoint(evsel, why, len);

	a.size = sizeof(a);
	a.disabled = 1;
	fd = pmc__perf_event_open(&a, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	/* A precise level the PMU cannot give is worth a specific reason. */
	if (a.precise_ip && fd == -EOPNOTSUPP) {
		snprintf(why, len, "precise level :%.*s is not available here", (int)a.precise_ip,
			 "ppp");
		return -PMC_E_UNSUPPORTED;
	}
	return explain(fd, evsel, why, len);
}
