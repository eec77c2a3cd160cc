/* SPDX-License-Identifier: MIT */
/* Where tracefs is, mounted by pmc when it can as perf does (tracefs.c). */
#ifndef PMC_LIB_CORE_TRACEFS_H
#define PMC_LIB_CORE_TRACEFS_H

/*
 * The tracefs root whose events/ can be read ("/sys/kernel/tracing" or, on older kernels,
 * "/sys/kernel/debug/tracing"), or NULL. When neither is there and the process may mount
 * (root or CAP_SYS_ADMIN), tracefs is mounted on /sys/kernel/tracing first, once per
 * process, as perf does. Not cached otherwise: it may be mounted later.
 */
const char *pmc__tracefs_root(void);

/*
 * The tracefs mount point ("/sys/kernel/tracing") when tracefs is mounted there but this
 * process cannot read its events/ (a root-only mount, mode 0700 by default); NULL when it
 * can, or when nothing is mounted there.
 */
const char *pmc__tracefs_unreadable(void);

#endif /* PMC_LIB_CORE_TRACEFS_H */
