// SPDX-License-Identifier: MIT
/* pmc_target__check(): a target's CPUs, process or command checked before any work. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <unistd.h>
#include <pmc/count.h>
#include "core/cgroup.h"
#include "core/cpulist.h"
#include "core/opts.h"
#include "count/counting.h"

static bool has_cpu(const int *cpus, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return true;
	return false;
}

/* The list as sysfs writes it ("0-3,6"), for messages. */
static void format_list(const int *v, int n, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0, j; i < n && at < len; i = j + 1) {
		for (j = i; j + 1 < n && v[j + 1] == v[j] + 1; j++)
			;
		if (j > i)
			at += (size_t)snprintf(buf + at, len - at, "%s%d-%d", i ? "," : "", v[i],
					       v[j]);
		else
			at += (size_t)snprintf(buf + at, len - at, "%s%d", i ? "," : "", v[i]);
	}
}

static int check_cpus(const char *list, char *why, size_t len)
{
	char online_text[256];
	int *want = NULL, *online = NULL, nw, no, err = 0;

	nw = pmc__cpu_list(list, &want, why, len);
	if (nw < 0)
		return nw;
	no = pmc__cpu_list(NULL, &online, NULL, 0);
	if (no < 0) {
		free(want);
		return no;
	}
	for (int i = 0; i < nw && !err; i++) {
		if (has_cpu(online, no, want[i]))
			continue;
		format_list(online, no, online_text, sizeof(online_text));
		if (why && len)
			snprintf(why, len, "CPU %d is not online (the online CPUs are %s)", want[i],
				 online_text);
		err = -EINVAL;
	}
	free(want);
	free(online);
	return err;
}

int pmc__tid_list(const char *list, pid_t **out, char *why, size_t len)
{
	const char *s = list ? list : "";
	pid_t *v = NULL;
	int n = 0;

	for (;;) {
		char *end;
		long x = *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : 0;
		pid_t *nv;

		if (x <= 0 || x > INT_MAX || (*end && *end != ',')) {
			free(v);
			if (why && len)
				snprintf(why, len,
					 "'%s' is not a list of thread ids (numbers and single "
					 "commas, as 1234,1240)",
					 list ? list : "");
			return -EINVAL;
		}
		nv = realloc(v, (size_t)(n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			return -ENOMEM;
		}
		v = nv;
		v[n++] = (pid_t)x;
		if (!*end)
			break;
		s = end + 1;
	}
	*out = v;
	return n;
}

/* Every thread of the list is running: /proc/<tid> exists for any thread id. */
static int check_tids(const char *list, char *why, size_t len)
{
	char path[64];
	pid_t *v;
	int n = pmc__tid_list(list, &v, why, len), err = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n && !err; i++) {
		snprintf(path, sizeof(path), "/proc/%d/status", (int)v[i]);
		if (access(path, F_OK)) {
			if (why && len)
				snprintf(why, len, "no thread %d is running", (int)v[i]);
			err = -ESRCH;
		}
	}
	free(v);
	return err;
}

static int check_cgroup(const char *name, char *why, size_t len)
{
	int fd = pmc__cgroup_open(name, why, len);

	if (fd < 0)
		return fd == -ENOENT ? fd : -EINVAL;
	close(fd);
	return 0;
}

int pmc_target__check(const struct pmc_target *t, char *why, size_t len)
{
	if (why && len)
		why[0] = 0;
	switch (t->kind) {
	case PMC_TARGET_CPUS:
		if (t->sz >= offsetofend(struct pmc_target, cgroup) && t->cgroup &&
		    check_cgroup(t->cgroup, why, len))
			return -ENOENT;
		return check_cpus(t->cpus, why, len);
	case PMC_TARGET_TID:
		return check_tids(t->tids, why, len);
	case PMC_TARGET_PID:
		if (t->pid <= 0 || (kill(t->pid, 0) && errno == ESRCH)) {
			if (why && len)
				snprintf(why, len, "no process %d is running", (int)t->pid);
			return -ESRCH;
		}
		return 0;
	case PMC_TARGET_COMMAND:
		if (!t->argv || !t->argv[0] || !t->argv[0][0]) {
			if (why && len)
				snprintf(why, len, "no command to run");
			return -EINVAL;
		}
		return 0;
	default:
		return 0;
	}
}
