/* SPDX-License-Identifier: MIT */
/* CPU lists ("0,2-3"), as -C takes them and sysfs writes them. */
#ifndef PMC_LIB_CORE_CPULIST_H
#define PMC_LIB_CORE_CPULIST_H

#include <stddef.h>

/*
 * Parses list (NULL: the online CPUs, devices/system/cpu/online under the sysfs root) into
 * a new array of CPU numbers in *out (the caller frees it). Strict: numbers and ranges
 * a-b (a <= b) separated by single commas; a CPU named twice is kept once, where first
 * named. Returns the count, -EINVAL with why filled for
 * a malformed list (why may be NULL), or -ENOMEM.
 */
int pmc__cpu_list(const char *list, int **out, char *why, size_t len);

#endif /* PMC_LIB_CORE_CPULIST_H */
