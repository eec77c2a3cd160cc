// SPDX-License-Identifier: MIT
/*
 * The perf backend's units beyond one thread, a process or plain CPUs: threads named by id
 * (-t), the CPUs of one cgroup (-G), every thread of the system (-a --per-thread) and a
 * command counted per thread (one inherited counter per CPU, threads.c); and the generic
 * units (struct pmc__unit) that carry values apart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "backend/perf/perf.h"
#include "core/cgroup.h"
#include "core/cpulist.h"
#include "core/log.h"
#include "count/child.h"
#include "core/sysfile.h"

static int fill(int **v, int n, int x)
{
	*v = malloc((size_t)(n ? n : 1) * sizeof(**v));
	if (!*v)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		(*v)[i] = x;
	return 0;
}

/* -G: every online CPU (or the list), counting the tasks of the cgroup whose folder pids hold. */
static int cgroup_units(struct perf_counting *pc, const struct pmc_target *t)
{
	char why[512];
	int n = pmc__cpu_list(t->cpus, &pc->cpus, NULL, 0), err;

	if (n < 0)
		return n;
	pc->cgroup_fd = pmc__cgroup_open(t->cgroup, why, sizeof(why));
	if (pc->cgroup_fd < 0) {
		pr_warn("%s\n", why);
		return pc->cgroup_fd;
	}
	err = fill(&pc->pids, n, pc->cgroup_fd);
	pc->open_flags = PERF_FLAG_PID_CGROUP;
	return err ? err : n;
}

/* -a --per-thread: each thread running now, on every CPU; one that ends first is left out. */
static int system_threads(struct perf_counting *pc)
{
	pid_t *owners;
	int n = pmc__perf_all_threads(&pc->pids, &owners), err;

	if (n < 0)
		return n;
	free(owners);
	pc->skip_gone = true;
	err = fill(&pc->cpus, n, -1);
	return err ? err : n;
}

/* A command per thread: a counter per CPU on it, inherited by its threads (threads.c). */
static int command_threads(struct perf_counting *pc)
{
	pid_t child = pc->base.child ? pc->base.child->pid : PMC__DRY_RUN_CHILD_PID;
	int n = pmc__cpu_list(NULL, &pc->cpus, NULL, 0), err;

	if (n < 0)
		return n;
	err = fill(&pc->pids, n, child);
	if (!err && !pc->dry.fn) {
		pc->threads = pmc__perf_threads_new();
		err = pc->threads ? 0 : -ENOMEM;
	}
	return err ? err : n;
}

int pmc__perf_units_setup(struct perf_counting *pc, const struct pmc_target *t)
{
	int n;

	if (t->kind == PMC_TARGET_TID) {
		n = pmc__tid_list(t->tids, &pc->pids, NULL, 0);
		if (n > 0 && fill(&pc->cpus, n, -1))
			n = -ENOMEM;
	} else if (t->kind == PMC_TARGET_CPUS && t->cgroup) {
		n = cgroup_units(pc, t);
	} else if (t->kind == PMC_TARGET_CPUS && t->per_thread && !t->cpus) {
		n = system_threads(pc);
	} else if (t->kind == PMC_TARGET_COMMAND && t->per_thread) {
		n = command_threads(pc);
	} else {
		return 0;
	}
	if (n <= 0)
		return n < 0 ? n : -ESRCH;
	pc->nr_units = n;
	return 1;
}

bool pmc__perf_units_kept(const struct perf_counting *pc)
{
	switch (pc->base.target.kind) {
	case PMC_TARGET_CPUS:
	case PMC_TARGET_PID:
	case PMC_TARGET_TID:
		return !pc->dry.fn;
	default:
		return false;
	}
}

/* The name of a thread from /proc (empty when it has ended). */
static void thread_comm(pid_t tid, char *comm, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	if (pmc__sysfile_read(path, comm, len) < 0)
		comm[0] = 0;
}

/* The process a thread belongs to (its Tgid), or the thread itself when unknown. */
static pid_t thread_owner(pid_t tid)
{
	char path[64], buf[4096], *at;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (pmc__sysfile_read(path, buf, sizeof(buf)) < 0 || !(at = strstr(buf, "\nTgid:")))
		return tid;
	return (pid_t)strtol(at + 6, NULL, 10);
}

int pmc__perf_units_describe(struct perf_counting *pc)
{
	struct pmc_counting *c = &pc->base;
	bool cpus = c->target.kind == PMC_TARGET_CPUS && !pc->skip_gone;
	int err = pmc__counting_units(c, pc->nr_units);

	for (int u = 0; !err && u < pc->nr_units; u++) {
		struct pmc__unit *un = &c->units[u];

		un->cpu = pc->cpus[u];
		un->pid = un->tid = -1;
		if (cpus)
			continue;
		un->tid = pc->pids[u];
		un->pid = thread_owner(un->tid);
		thread_comm(un->tid, un->comm, sizeof(un->comm));
	}
	c->units_live = !err;
	return err;
}

void pmc__perf_units_close(struct perf_counting *pc)
{
	if (pc->cgroup_fd >= 0)
		close(pc->cgroup_fd);
	pc->cgroup_fd = -1;
}
