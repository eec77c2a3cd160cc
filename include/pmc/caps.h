/* SPDX-License-Identifier: MIT */
/* Capabilities of this machine for measurement, probed once and cached. */
#ifndef PMC_CAPS_H
#define PMC_CAPS_H

#include <stdio.h>
#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One thing a backend (or the machine) was checked for, as pmc doctor shows it. */
struct pmc_cap_check {
	char key[32];	  /* a stable name for programs: "hw_pmu", "breakpoints", "rdpmc" */
	char name[32];	  /* what a person reads: "hardware PMU" */
	bool ok;	  /* available, or not in the way */
	long long value;  /* a number the check found (counters, debug registers), else 0 */
	char detail[256]; /* what was found, or why not */
	char todo[256];	  /* what would help, or "" */
};

#define PMC_CAPS_MAX_CHECKS 12
#define PMC_CAPS_MAX_BACKENDS 4

/* What one backend can do on this machine. */
struct pmc_backend_caps {
	char name[16];	 /* "perf", "vpmu" (--backend=NAME) */
	bool usable;	 /* it can count here */
	char why[160];	 /* why not, when !usable */
	char where[256]; /* where it was found (a sysfs PMU folder, a tool folder), or "" */
	size_t nr_checks;
	struct pmc_cap_check checks[PMC_CAPS_MAX_CHECKS];
};

/*
 * What can be measured here: the machine, then each backend of the registry describing
 * itself (struct pmc_backend_caps), so that a new backend adds an entry, not fields.
 * Filled on the first call of pmc_caps(); the library owns it. Fields may be appended in
 * later versions.
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
	/* the backends, in registry order */
	size_t nr_backends;
	struct pmc_backend_caps backends[PMC_CAPS_MAX_BACKENDS];
};

/* Returns the cached capabilities (probed on first use; thread-safe). Never NULL. */
PMC_API const struct pmc_caps *pmc_caps(void);

/* The backend called name in caps, or NULL. */
PMC_API const struct pmc_backend_caps *pmc_caps__backend(const struct pmc_caps *caps,
							 const char *name);

/* The check key of the backend called backend, or NULL when either is unknown. */
PMC_API const struct pmc_cap_check *pmc_caps__check(const struct pmc_caps *caps,
						    const char *backend, const char *key);

/*
 * The CPU model the backend called backend counts on, as data/metrics/index.tsv's model
 * column names it ("intel-skylake", "amd-zen4"; vpmu: its preset's, "nehalem"), or NULL when
 * the backend is unknown or does not know this CPU. The perf backend reads CPUID; the
 * environment variable PMC_PERF_CPU_MODEL, where set, names the model instead (with
 * PMC_SYSFS_ROOT, another machine's: docs/hardware-validation.md).
 */
PMC_API const char *pmc_caps__cpu_model(const char *backend);

/*
 * Writes pmc doctor's JSON (schema pmc-doctor/1) to f, followed by a line break: caps' CPU
 * model and kernel, the nr checks (the caller's selection and order: pmc doctor shows the
 * machine's, then each backend's) and caps' backends. Returns 0, -ENOMEM or -EIO.
 */
PMC_API int pmc_caps__write_json(const struct pmc_caps *caps,
				 const struct pmc_cap_check *const *checks, size_t nr, FILE *f);

#ifdef __cplusplus
}
#endif
#endif /* PMC_CAPS_H */
