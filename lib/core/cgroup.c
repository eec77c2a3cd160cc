// SPDX-License-Identifier: MIT
/* Cgroups by name: the hierarchy's mount found in /proc/self/mounts, the group's folder. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "core/cgroup.h"

/* The mount of the cgroup2 hierarchy, else of a v1 one with perf_event; false if none. */
static bool find_mount(char *dir, size_t len)
{
	char line[1024], mnt[512], type[64], opts[512];
	bool v1 = false;
	FILE *f = fopen("/proc/self/mounts", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %511s %63s %511s", mnt, type, opts) != 3)
			continue;
		if (!strcmp(type, "cgroup2")) {
			snprintf(dir, len, "%s", mnt);
			fclose(f);
			return true;
		}
		if (!v1 && !strcmp(type, "cgroup") && strstr(opts, "perf_event")) {
			snprintf(dir, len, "%s", mnt);
			v1 = true;
		}
	}
	fclose(f);
	return v1;
}

int pmc__cgroup_open(const char *name, char *why, size_t len)
{
	char mnt[512], path[1024];
	int fd;

	if (why && len)
		why[0] = 0;
	if (!find_mount(mnt, sizeof(mnt))) {
		if (why && len)
			snprintf(why, len,
				 "no cgroup hierarchy is mounted (no cgroup2, nor a cgroup v1 one "
				 "with perf_event, in /proc/self/mounts)");
		return -ENOENT;
	}
	while (*name == '/')
		name++;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", mnt, name) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		if (why && len)
			snprintf(why, len,
				 "no cgroup '%s': %s: %s (the cgroups are the folders under %s)",
				 name, path, strerror(-err), mnt);
		return err;
	}
	return fd;
}
