// SPDX-License-Identifier: MIT
/* The perf_event_open(2) system call, and the CPU and thread lists counters attach to. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "backend/perf/perf.h"

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
