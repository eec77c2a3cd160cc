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

#endif /* PMC_LIB_CORE_TRACEFS_H */
