// SPDX-License-Identifier: MIT
/* The folder of the file that holds libpmc's code (selfdir.h). */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/selfdir.h"

int pmc__selfdir(char *dir, size_t len, bool *is_exe)
{
	struct link_map *lm = NULL;
	char real[PATH_MAX], *slash;
	const char *file = "/proc/self/exe";
	Dl_info info;

	dir[0] = 0;
	/* Any function of libpmc names the object it was loaded from. */
	if (!dladdr1((void *)pmc__selfdir, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
		return -ENOENT;
	/* The main program's link map has an empty name; a library's is the path it was
	 * loaded from (through RUNPATH, LD_LIBRARY_PATH or ld.so.cache). */
	*is_exe = !lm->l_name || !lm->l_name[0];
	if (!*is_exe)
		file = lm->l_name;
	/*
	 * The kernel gives /proc/self/exe's target as a canonical path already. realpath() would
	 * walk the link through /proc/self, whose target is the pid, so under vpmu a program's
	 * count moved with the number of digits of its pid.
	 */
	if (*is_exe) {
		ssize_t n = readlink(file, real, sizeof(real) - 1);

		if (n < 0)
			return -errno;
		real[n] = 0;
	} else if (!realpath(file, real)) {
		return -errno;
	}
	slash = strrchr(real, '/');
	if (!slash)
		return -ENOENT;
	*slash = 0;
	if ((size_t)snprintf(dir, len, "%s", real[0] ? real : "/") >= len) {
		dir[0] = 0;
		return -ENAMETOOLONG;
	}
	return 0;
}
