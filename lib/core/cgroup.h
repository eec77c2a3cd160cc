/* SPDX-License-Identifier: MIT */
/* Cgroups that counters select tasks by (pmc stat -G): their folders under the mount. */
#ifndef PMC_LIB_CORE_CGROUP_H
#define PMC_LIB_CORE_CGROUP_H

#include <stddef.h>

/*
 * Opens the folder of cgroup name (a path relative to the hierarchy's root, with or without
 * a leading '/') under the cgroup2 mount, or under a cgroup v1 hierarchy with the perf_event
 * controller when no cgroup2 is mounted (/proc/self/mounts), read-only and close-on-exec:
 * the fd perf_event_open(2) takes with PERF_FLAG_PID_CGROUP. Returns the fd, or -ENOENT /
 * -errno with why saying what is missing and where it was looked for (why may be NULL).
 */
int pmc__cgroup_open(const char *name, char *why, size_t len);

#endif /* PMC_LIB_CORE_CGROUP_H */
