// SPDX-License-Identifier: MIT
/* pmc_target__check(): a target's CPUs, process or command checked before any work. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <pmc/count.h>
#include "core/cpulist.h"

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

int pmc_target__check(const struct pmc_target *t, char *why, size_t len)
{
	if (why && len)
		why[0] = 0;
	switch (t->kind) {
	case PMC_TARGET_CPUS:
		return check_cpus(t->cpus, why, len);
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
