// SPDX-License-Identifier: MIT
/* The perf_event_open(2) system call, and the CPU and thread lists counters attach to. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "backend/perf/perf.h"
#include "core/sysfile.h"

int pmc__perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			  flags | PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

static int append(int **v, int *n, int *alloc, int x)
{
	if (*n == *alloc) {
		int na = *alloc ? 2 * *alloc : 16;
		int *nv = realloc(*v, (size_t)na * sizeof(int));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*alloc = na;
	}
	(*v)[(*n)++] = x;
	return 0;
}

int pmc__perf_cpu_list(const char *list, int **out)
{
	char buf[4096];
	const char *s = list;
	int *v = NULL, n = 0, alloc = 0;

	if (!s) {
		if (pmc__sysfs_read("devices/system/cpu/online", buf, sizeof(buf)) < 0)
			snprintf(buf, sizeof(buf), "0-%ld", sysconf(_SC_NPROCESSORS_ONLN) - 1);
		s = buf;
	}
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0)
			goto bad;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				goto bad;
		}
		for (long c = a; c <= b; c++)
			if (append(&v, &n, &alloc, (int)c)) {
				free(v);
				return -ENOMEM;
			}
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			goto bad;
	}
	if (!n)
		goto bad;
	*out = v;
	return n;
bad:
	free(v);
	return -EINVAL;
}

int pmc__perf_thread_list(pid_t pid, pid_t **out)
{
	char path[64];
	struct dirent *d;
	int *v = NULL, n = 0, alloc = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.' && append(&v, &n, &alloc, atoi(d->d_name))) {
			closedir(dir);
			free(v);
			return -ENOMEM;
		}
	closedir(dir);
	if (!n) {
		free(v);
		return -ESRCH;
	}
	*out = (pid_t *)v;
	return n;
}
