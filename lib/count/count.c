// SPDX-License-Identifier: MIT
/* The public counting API: dispatch from an event list to its backend's ops. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pmc/count.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "core/opts.h"
#include "count/child.h"
#include "count/counting.h"
#include "event/evsel.h"

int pmc__counting_init(struct pmc_counting *c, struct pmc_evlist *evlist,
		       const struct pmc_target *target, int pass)
{
	c->ops = evlist->backend;
	c->evlist = evlist;
	c->target = *target; /* checked and completed by pmc_evlist__open() */
	c->pass = pass;
	c->values = calloc(evlist->nr ? evlist->nr : 1, sizeof(*c->values));
	c->open = calloc(evlist->nr ? evlist->nr : 1, sizeof(*c->open));
	if (!c->values || !c->open) {
		pmc__counting_fini(c);
		return -ENOMEM;
	}
	return 0;
}

void pmc__counting_fini(struct pmc_counting *c)
{
	pmc__child_delete(c->child);
	c->child = NULL;
	free(c->values);
	free(c->open);
	c->values = NULL;
	c->open = NULL;
	pmc__counting_units(c, 0);
}

bool pmc__counting_selects(const struct pmc_counting *c, const struct pmc_evsel *evsel)
{
	if (evsel->pass < 0 || evsel->kind == PMC_EV_TOOL)
		return false;
	return c->pass < 0 || evsel->pass == c->pass;
}

int pmc_evlist__explain(struct pmc_evlist *evlist, const struct pmc_target *target, int err,
			char *why, size_t len)
{
	struct pmc_target t;

	if (!why || !len)
		return -EINVAL;
	why[0] = 0;
	if (!evlist || !target || PMC_OPTS_COPY(pmc_target, &t, target, cpus))
		return -EINVAL;
	if (err != -EACCES && err != -EPERM && err != -PMC_E_PARANOID)
		return -ENOENT;
	err = pmc__backend_why_denied(evlist->backend, evlist, &t, why, len);
	if (err == -ENOENT)
		why[0] = 0;
	return err == -ENOENT ? -ENOENT : 0;
}

int pmc_evlist__open(struct pmc_evlist *evlist, const struct pmc_target *target, int pass)
{
	struct pmc_counting *c = NULL;
	struct pmc_target t;
	int err;

	/* Backends read every field of the copy: those an older caller lacks are zero. */
	err = target ? PMC_OPTS_COPY(pmc_target, &t, target, cpus) : -EINVAL;
	if (err)
		return err;
	if (evlist->counting)
		return -EBUSY;
	if (evlist->dry_run && !pmc__backend_can_dry_run(evlist->backend))
		return -EOPNOTSUPP;
	err = pmc__backend_open(evlist->backend, evlist, &t, pass, &c);
	if (err || !c) /* a dry run leaves the list closed */
		return err;
	evlist->counting = c;
	return 0;
}

#define OPEN_OR_FAIL(evlist)             \
	do {                             \
		if (!(evlist)->counting) \
			return -EBADF;   \
	} while (0)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int pmc_evlist__start(struct pmc_evlist *evlist)
{
	OPEN_OR_FAIL(evlist);
	evlist->counting->started = true;
	evlist->counting->start_ns = now_ns();
	evlist->counting->end_ns = 0;
	return pmc__backend_start(evlist->backend, evlist->counting);
}

int pmc_evlist__stop(struct pmc_evlist *evlist)
{
	OPEN_OR_FAIL(evlist);
	if (!evlist->counting->end_ns)
		evlist->counting->end_ns = now_ns();
	return pmc__backend_stop(evlist->backend, evlist->counting);
}

int pmc_evlist__enable(struct pmc_evlist *evlist)
{
	OPEN_OR_FAIL(evlist);
	return pmc__backend_set_enabled(evlist->backend, evlist->counting, NULL, true);
}

bool pmc_evlist__counts_live(const struct pmc_evlist *evlist)
{
	return evlist && pmc__backend_live(evlist->backend);
}

int pmc__evsel_set_enabled(struct pmc_evsel *evsel, bool on)
{
	struct pmc_counting *c = evsel->evlist->counting;

	if (!c || !c->open[evsel->idx])
		return -ENOENT;
	return pmc__backend_set_enabled(c->ops, c, evsel, on);
}

int pmc_evlist__reset(struct pmc_evlist *evlist)
{
	OPEN_OR_FAIL(evlist);
	return pmc__backend_reset(evlist->backend, evlist->counting);
}

int pmc_evlist__wait(struct pmc_evlist *evlist, int *status)
{
	struct pmc_counting *c = evlist->counting;
	int err;

	OPEN_OR_FAIL(evlist);
	if (!c->child)
		return -ECHILD;
	err = pmc__child_wait(c->child, status);
	if (err)
		return err;
	if (!c->end_ns)
		c->end_ns = now_ns();
	return pmc__backend_reap(c->ops, c);
}

int pmc_evlist__kill(struct pmc_evlist *evlist, int sig)
{
	struct pmc_counting *c = evlist->counting;

	if (!c || !c->child || c->child->reaped)
		return -ESRCH;
	return kill(c->child->pid, sig) ? -errno : 0;
}

pid_t pmc_evlist__child_pid(const struct pmc_evlist *evlist)
{
	const struct pmc_counting *c = evlist->counting;

	return c && c->child ? c->child->pid : -1;
}

int pmc__counting_start_ns(const struct pmc_evlist *evlist, uint64_t *out)
{
	const struct pmc_counting *c = evlist->counting;

	if (!c)
		return -EBADF;
	if (!c->started)
		return -EAGAIN;
	*out = c->start_ns;
	return 0;
}

int pmc__counting_times(const struct pmc_evlist *evlist, struct pmc__run_times *out)
{
	const struct pmc_counting *c = evlist->counting;
	const struct pmc_child *ch;

	if (!c)
		return -EBADF;
	if (!c->started || !c->end_ns)
		return -EAGAIN;
	ch = c->child;
	*out = (struct pmc__run_times){.wall_ns = c->end_ns - c->start_ns};
	if (ch && ch->have_rusage) {
		out->have_rusage = true;
		out->user_ns = (uint64_t)ch->rusage.ru_utime.tv_sec * 1000000000u +
			       (uint64_t)ch->rusage.ru_utime.tv_usec * 1000u;
		out->sys_ns = (uint64_t)ch->rusage.ru_stime.tv_sec * 1000000000u +
			      (uint64_t)ch->rusage.ru_stime.tv_usec * 1000u;
	}
	return 0;
}

/*
 * The tool events of the pass take the run's times (docs/events.md, "Tool events"): user_time
 * and system_time only when pmc started and reaped the command (its rusage).
 */
static void read_tools(struct pmc_counting *c)
{
	struct pmc__run_times t;

	if (pmc__counting_times(c->evlist, &t))
		return;
	for (size_t i = 0; i < c->evlist->nr; i++) {
		const struct pmc_evsel *ev = c->evlist->entries[i];
		uint64_t v = ev->tool == PMC_TOOL_DURATION_TIME ? t.wall_ns
			     : ev->tool == PMC_TOOL_USER_TIME	? t.user_ns
								: t.sys_ns;

		if (ev->kind != PMC_EV_TOOL || ev->pass < 0 ||
		    (c->pass >= 0 && ev->pass != c->pass) ||
		    (ev->tool != PMC_TOOL_DURATION_TIME && !t.have_rusage))
			continue;
		c->values[i] = (struct pmc_count){
			.value = v, .time_enabled_ns = t.wall_ns, .time_running_ns = t.wall_ns};
		c->open[i] = true;
	}
}

int pmc_evlist__read(struct pmc_evlist *evlist)
{
	int err;

	OPEN_OR_FAIL(evlist);
	/* The backends read every open event: tool events are theirs only after the read. */
	for (size_t i = 0; i < evlist->nr; i++)
		if (evlist->entries[i]->kind == PMC_EV_TOOL)
			evlist->counting->open[i] = false;
	err = pmc__backend_read(evlist->backend, evlist->counting);
	if (!err)
		read_tools(evlist->counting);
	return err;
}

int pmc_evsel__count(const struct pmc_evsel *evsel, struct pmc_count *out)
{
	const struct pmc_counting *c = evsel->evlist->counting;

	if (!c || !c->open[evsel->idx])
		return -ENOENT;
	*out = c->values[evsel->idx];
	return 0;
}

int pmc_evsel__read_group(const struct pmc_evsel *leader, struct pmc_count *values, size_t nr)
{
	struct pmc_counting *c = leader->evlist->counting;

	if (!c || !c->open[leader->idx])
		return -EBADF;
	return pmc__backend_read_group(c->ops, c, leader, values, nr);
}
