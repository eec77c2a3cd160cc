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

static int explain(int err, const struct pmc_evsel *evsel, char *why, size_t len)
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
		snprintf(why, len,
			 "permission denied: perf_event_paranoid is %d; run as root, grant "
			 "CAP_PERFMON, or lower kernel.perf_event_paranoid",
			 pmc_caps()->paranoid);
		return -PMC_E_PARANOID;
	}
	if (evsel->kind == PMC_EV_TRACEPOINT && !pmc_caps()->tracefs) {
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
 * Tracepoints: the verdict of the first one judged (pinned, so it costs one open) holds
 * for the others; opening each would cost a 40 ms unregistration per close, and pmc list
 * judges thousands. A tracepoint that fails later still fails at open with its reason.
 */
static int check_tracepoint(struct pmc_evsel *evsel, char *why, size_t len)
{
	static int verdict = 1;
	int err;

	if (verdict == 1) {
		err = pmc__perf_tp_pin(evsel->attr.config);
		verdict = err ? explain(err, evsel, why, len) : 0;
		return verdict;
	}
	if (verdict)
		return explain(verdict, evsel, why, len);
	return 0;
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
