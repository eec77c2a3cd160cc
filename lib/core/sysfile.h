/* SPDX-License-Identifier: MIT */
/* Small readers of /proc and /sys files, and the one place the sysfs root is chosen. */
#ifndef PMC_LIB_CORE_SYSFILE_H
#define PMC_LIB_CORE_SYSFILE_H

#include <stddef.h>

/*
 * Every read of /sys goes through the sysfs root: "/sys", or $PMC_SYSFS_ROOT (read once) so
 * that tests and users can point pmc at another machine's recorded tree (docs/events.md,
 * "The sysfs root"). Tracefs (/sys/kernel/tracing) is a live kernel interface and is not
 * under it. The root as a path without a trailing slash; static storage.
 */
const char *pmc__sysfs_root(void);
/* For tests: sets the root (NULL restores "/sys"); not thread-safe against readers. */
void pmc__sysfs_set_root(const char *root);
/* Formats "<root>/" followed by fmt into buf. Returns 0 or -ENAMETOOLONG. */
int pmc__sysfs_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* pmc__sysfile_read() of rel (e.g. "devices/system/cpu/online") under the sysfs root. */
int pmc__sysfs_read(const char *rel, char *buf, size_t len);

/* Reads a whole small file into buf (NUL-terminated, trailing newline removed).
 * Returns the length or a negative errno. */
int pmc__sysfile_read(const char *path, char *buf, size_t len);
/* Reads one integer from a file. Returns 0 or a negative errno. */
int pmc__sysfile_read_long(const char *path, long *out);
/* The integer value of a "Name:\tvalue" line of /proc/self/status, or -1. */
long pmc__sysfile_status_field(const char *name);

#endif /* PMC_LIB_CORE_SYSFILE_H */
