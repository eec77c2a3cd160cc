// SPDX-License-Identifier: MIT
/*
 * Uncore events on the perf backend: opened on their PMU's cpumask CPUs only, pid -1 (one
 * counter per socket, die or CCX, as perf opens them), also when a task is counted: an uncore
 * PMU has no task context, so a command's or a process's run counts them system-wide, as perf
 * does, and says so once (docs/pmus.md, "Uncore").
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "backend/perf/perf.h"
#include "core/log.h"
#include "event/evsel.h"
#include "event/pmus.h"
#include "event/uncore.h"

static bool has_cpu(const struct pmc__pmu *p, int cpu)
{
	for (int i = 0; i < p->nr_cpus; i++)
		if (p->cpus[i] == cpu)
			return true;
	return false;
}

/* Adds (pid -1, cpu) after the units unless there; 0 or -ENOMEM. */
static int add_cpu_unit(struct perf_counting *pc, int cpu)
{
	pid_t *pids;
	int *cpus;

	for (int u = pc->nr_task_units; u < pc->nr_units; u++)
		if (pc->cpus[u] == cpu)
			return 0;
	pids = realloc(pc->pids, (size_t)(pc->nr_units + 1) * sizeof(*pids));
	if (pids)
		pc->pids = pids;
	cpus = realloc(pc->cpus, (size_t)(pc->nr_units + 1) * sizeof(*cpus));
	if (cpus)
		pc->cpus = cpus;
	if (!pids || !cpus)
		return -ENOMEM;
	pc->pids[pc->nr_units] = -1;
	pc->cpus[pc->nr_units++] = cpu;
	return 0;
}

/* The note, once per process: a task's run counts uncore events system-wide. */
static void say_system_wide(const struct pmc_evsel *ev)
{
	static atomic_flag said = ATOMIC_FLAG_INIT;

	if (!atomic_flag_test_and_set(&said))
		pr_warn("'%s' is an uncore event: an uncore PMU counts for its whole socket or "
			"die, "
			"not for one task, so it is counted system-wide (pid -1, on the PMU's "
			"cpumask "
			"CPUs) while the target runs, as perf does\n",
			ev->name);
}

/* A task's target (a command, a process, threads, pmc itself), counted as a whole. */
static bool task_target(const struct perf_counting *pc)
{
	const struct pmc_target *t = &pc->base.target;

	return t->kind != PMC_TARGET_CPUS && !t->per_thread && !pc->threads;
}

int pmc__perf_uncore_units(struct perf_counting *pc)
{
	struct pmc_evlist *evlist = pc->base.evlist;
	int err = 0;

	pc->nr_task_units = pc->nr_units;
	if (!task_target(pc))
		return 0;
	for (size_t i = 0; !err && i < evlist->nr; i++) {
		const struct pmc_evsel *ev = evlist->entries[i];
		const struct pmc__pmu *p;

		if (!pmc__counting_selects(&pc->base, ev) || !pmc__evsel_uncore(ev))
			continue; /* a group's other members follow its uncore event's PMU */
		p = pmc__evsel_pmu(ev);
		say_system_wide(ev);
		pc->uncore_apart = true;
		for (int c = 0; !err && c < p->nr_cpus; c++)
			err = add_cpu_unit(pc, p->cpus[c]);
	}
	return err;
}

bool pmc__perf_uncore_opens(const struct perf_counting *pc, const struct pmc_evsel *ev, int unit)
{
	const struct pmc_target *t = &pc->base.target;
	const struct pmc_evsel *u = pmc__group_uncore(ev);

	if (!u)
		return unit < pc->nr_task_units;
	if (pc->uncore_apart)
		return unit >= pc->nr_task_units && has_cpu(pmc__evsel_pmu(u), pc->cpus[unit]);
	/* -a: the PMU's cpumask CPUs; -C and -G: the CPUs asked for, as perf 6.1 opens them. */
	if (t->kind == PMC_TARGET_CPUS && !t->cpus && !t->cgroup && pc->cpus[unit] >= 0)
		return has_cpu(pmc__evsel_pmu(u), pc->cpus[unit]);
	return true;
}

void pmc__perf_uncore_attr(const struct perf_counting *pc, const struct pmc_evsel *ev,
			   struct perf_event_attr *a)
{
	if (!pc->uncore_apart || !pmc__group_uncore(ev))
		return;
	/* On a CPU, not a task: nothing to inherit, no exec to enable on (enabled at start). */
	a->inherit = 0;
	a->enable_on_exec = 0;
}

int pmc__perf_uncore_enable(struct perf_counting *pc)
{
	struct pmc_evlist *evlist = pc->base.evlist;

	for (size_t i = 0; pc->uncore_apart && i < evlist->nr; i++) {
		const struct pmc_evsel *ev = evlist->entries[i];

		if (!pc->base.open[i] || ev->leader != ev || !pmc__group_uncore(ev))
			continue;
		for (int u = pc->nr_task_units; u < pc->nr_units; u++)
			if (*perf_fd(pc, i, u) >= 0 &&
			    ioctl(*perf_fd(pc, i, u), PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) <
				    0)
				return -errno;
	}
	return 0;
}
