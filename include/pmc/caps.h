/* SPDX-License-Identifier: MIT */
/* Capabilities of this machine for measurement, probed once and cached. */
#ifndef PMC_CAPS_H
#define PMC_CAPS_H

#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What can be measured here. Filled on the first call of pmc_caps(); the library owns
 * it. Fields may be appended in later versions.
 */
struct pmc_caps {
	/* the machine */
	char cpu_model[128];   /* /proc/cpuinfo "model name" */
	char kernel[128];      /* uname release */
	int paranoid;	       /* /proc/sys/kernel/perf_event_paranoid, or 99 if unreadable */
	bool cap_perfmon;      /* the process has CAP_PERFMON (or CAP_SYS_ADMIN) */
	bool root;	       /* effective uid 0 */
	bool seccomp;	       /* the process runs under a seccomp filter */
	int nmi_watchdog;      /* /proc/sys/kernel/nmi_watchdog: 1 holds a counter, -1 unknown */
	bool tracefs;	       /* tracefs mounted and its events readable */
	char tracefs_path[64]; /* where, e.g. /sys/kernel/tracing */
	/* the perf backend */
	bool perf_event;       /* perf_event_open(2) works at all (software event) */
	bool hw_pmu;	       /* a hardware PMU counts (the cycles event opens) */
	char hw_pmu_why[160];  /* why not, when !hw_pmu */
	char pmu_name[64];     /* libpfm4's name of the CPU's PMU, or "" */
	int nr_gp_counters;    /* general counters (0 without a PMU) */
	int nr_fixed_counters; /* fixed counters */
	bool rdpmc;	       /* user-space counter reads allowed (cap_user_rdpmc) */
	int nr_breakpoints;    /* hardware breakpoints a task can hold (debug registers) */
	/* the vpmu backend */
	bool vpmu;	     /* the vpmu Valgrind tool is built and runs */
	char vpmu_path[256]; /* its VALGRIND_LIB folder */
	char vpmu_why[160];  /* why not, when !vpmu */
	/* the perf backend, appended */
	bool breakpoints_fire; /* a write to a watched variable is counted (some hypervisors
				* accept breakpoints but never deliver their debug exceptions) */
};

/* Returns the cached capabilities (probed on first use; thread-safe). Never NULL. */
PMC_API const struct pmc_caps *pmc_caps(void);

#ifdef __cplusplus
}
#endif
#endif /* PMC_CAPS_H */
