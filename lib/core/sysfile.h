/* SPDX-License-Identifier: MIT */
/* Small readers of /proc and /sys files. */
#ifndef PMC_LIB_CORE_SYSFILE_H
#define PMC_LIB_CORE_SYSFILE_H

#include <stddef.h>

/* Reads a whole small file into buf (NUL-terminated, trailing newline removed).
 * Returns the length or a negative errno. */
int pmc__sysfile_read(const char *path, char *buf, size_t len);
/* Reads one integer from a file. Returns 0 or a negative errno. */
int pmc__sysfile_read_long(const char *path, long *out);
/* The integer value of a "Name:\tvalue" line of /proc/self/status, or -1. */
long pmc__sysfile_status_field(const char *name);

#endif /* PMC_LIB_CORE_SYSFILE_H */
