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

/* Threads and the processes they belong to, side by side. */
struct thread_set {
	int *tids, *pids, n, alloc;
};

static int add_thread(struct thread_set *s, pid_t tid, pid_t pid)
{
	if (s->n == s->alloc) {
		int na = s->alloc ? 2 * s->alloc : 256;
		int *t = realloc(s->tids, (size_t)na * sizeof(int));
		int *p = t ? realloc(s->pids, (size_t)na * sizeof(int)) : NULL;

		if (t)
			s->tids = t;
		if (!p)
			return -ENOMEM;
		s->pids = p;
		s->alloc = na;
	}
	s->tids[s->n] = tid;
	s->pids[s->n++] = pid;
	return 0;
}

int pmc__perf_all_threads(pid_t **tids, pid_t **pids)
{
	struct thread_set s = {0};
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int err = 0;

	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir))) {
		pid_t pid = atoi(d->d_name), *v;
		int nt = d->d_name[0] >= '1' && d->d_name[0] <= '9'
				 ? pmc__perf_thread_list(pid, &v)
				 : 0; /* a process that ended since readdir has none */

		for (int i = 0; i < nt && !err; i++)
			err = add_thread(&s, v[i], pid);
		if (nt > 0)
			free(v);
	}
	closedir(dir);
	if (err || !s.n) {
		free(s.tids);
		free(s.pids);
		return err ? err : -ESRCH;
	}
	*tids = (pid_t *)s.tids;
	*pids = (pid_t *)s.pids;
	return s.n;
}
