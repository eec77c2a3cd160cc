// SPDX-License-Identifier: MIT
/* The perf backend's judgement of events: can this encoding be counted here, and on what. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "backend/perf/perf.h"
#include "core/log.h"
#include "event/evsel.h"

static bool refused(int err)
{
	return err == -EACCES || err == -EPERM;
}

/*
 * perf's fall-back, said: a kernel-side event whose levels the user did not choose (no :u,
 * :k or :h, and a default privilege without the kernel) counts the kernel. Where the kernel
 * refuses that to this caller but lets it count at user level (the probes of
 * pmc__perf_machine(), made once), an event that fires at user level too (syscalls:*) is
 * counted there, with a note for its line; one that would read 0 there is refused with the
 * setting named. The user's :k or --kernel is kept: the trial open refuses it with the rule
 * named (deny.c).
 */
static int kernel_side_levels(struct pmc_evsel *evsel, char *why, size_t len)
{
	const struct perf_machine *m = pmc__perf_machine();
	static bool said;
	char note[256];

	if (!pmc__event_kernel_side(evsel) || pmc__event_levels_written(evsel) ||
	    (evsel->evlist->priv & PMC_PRIV_KERNEL) || evsel->attr.exclude_kernel ||
	    !refused(m->kernel_err) || m->user_err)
		return 0;
	if (pmc__event_user_blind(evsel))
		return pmc__perf_say_kernel_only(why, len);
	pmc__perf_say_user_fallback(note, sizeof(note));
	free(evsel->check_note);
	evsel->check_note = strdup(note);
	if (!evsel->check_note)
		return -ENOMEM;
	evsel->attr.exclude_kernel = 1;
	evsel->attr.exclude_hv = 1;
	if (!said)
		pr_info("'%s' is %s; so is every syscalls:* tracepoint without :u or :k (each "
			"system call still counts: they fire with the task's user registers)\n",
			evsel->name, note);
	said = true;
	return 0;
}

/*
 * Tracepoints: the kernel's acceptance of the first one judged (pinned, so it costs one
 * open) holds for the others; opening each would cost a 40 ms unregistration per close, and
 * pmc list judges thousands. A refusal is not shared, as it may be the tracepoint's own
 * (ftrace:function is root's only): the next one is pinned again. A tracepoint accepted
 * here that the kernel refuses at open is refused then (refusal.c). The pin counts at user
 * level: counting the kernel as well is judged by the probe of that (deny.c's rule).
 */
static int check_tracepoint(struct pmc_evsel *evsel, char *why, size_t len)
{
	static int answer = 1;
	int err;

	if (answer)
		answer = pmc__perf_pin(PERF_TYPE_TRACEPOINT, evsel->attr.config);
	err = answer;
	if (!err && !evsel->attr.exclude_kernel && refused(pmc__perf_machine()->kernel_err))
		err = pmc__perf_machine()->kernel_err;
	return err ? pmc__perf_explain(err, evsel, NULL, why, len) : 0;
}

/*
 * :P, perf's "maximum detected precise level": the highest precise_ip (3 down to the level
 * written) at which the event opens here, as perf's evsel__precise_ip_fallback() finds it;
 * left as written when none opens (the trial open then says why).
 */
static void precise_max(struct pmc_evsel *evsel)
{
	struct perf_event_attr a = evsel->attr;

	a.size = sizeof(a);
	a.disabled = 1;
	for (int lvl = 3; lvl > (int)evsel->attr.precise_ip; lvl--) {
		int fd;

		a.precise_ip = lvl;
		fd = pmc__perf_event_open(&a, 0, -1, -1, 0);
		if (fd >= 0) {
			close(fd);
			evsel->attr.precise_ip = lvl;
			return;
		}
	}
}

int pmc__perf_check(struct pmc_evsel *evsel, char *why, size_t len)
{
	struct perf_event_attr a;
	int fd, err = pmc__perf_sample_only_check(evsel, why, len);

	if (err)
		return err;
	/* A dry run opens nothing: the kernel's verdict comes when the list really opens. */
	if (evsel->evlist->dry_run) {
		if (evsel->mods & PMC_MOD_PMAX)
			evsel->attr.precise_ip = 3; /* the level perf opens first */
		return 0;
	}
	err = kernel_side_levels(evsel, why, len);
	if (err)
		return err;
	if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
		return check_tracepoint(evsel, why, len);
	if (evsel->mods & PMC_MOD_PMAX)
		precise_max(evsel);

	a = evsel->attr;
	a.size = sizeof(a);
	a.disabled = 1;
	fd = pmc__perf_event_open(&a, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	/* A precise level the PMU cannot give is worth a specific reason. */
	if (a.precise_ip && fd == -EOPNOTSUPP) {
		snprintf(why, len, "precise level :%.*s is not available here", (int)a.precise_ip,
			 "ppp");
		return -PMC_E_UNSUPPORTED;
	}
	return pmc__perf_explain(fd, evsel, NULL, why, len);
}
