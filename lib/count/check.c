// SPDX-License-Identifier: MIT
/*
 * pmc_evsel__check(): the backend's verdict on an event, computed once and cached; a refusal
 * the kernel gives only when the event is opened becomes the verdict then.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include "core/backend.h"
#include "event/evsel.h"

/*
 * No silent zeros: an event that happens only in the kernel, opened with the kernel
 * excluded (:u or :h written), would open and always read 0.
 */
static int check_levels(const struct pmc_evsel *evsel, char *why, size_t len)
{
	if (!evsel->attr.exclude_kernel || !pmc__event_user_blind(evsel))
		return 0;
	snprintf(why, len,
		 "it happens only in the kernel, which its modifiers exclude: it would always "
		 "read 0; drop :u (or add :k) to count it");
	return -PMC_E_UNSUPPORTED;
}

/*
 * A tool event is pmc's own measurement, on every backend; it has no counter to read with a
 * group's others, so it is counted outside braces only.
 */
static int check_tool(const struct pmc_evsel *evsel, char *why, size_t len)
{
	if (evsel->leader->nr_members <= 1)
		return 0;
	snprintf(why, len,
		 "a tool event is a time pmc measures itself, not a counter that can be read "
		 "with a group: write it outside the braces");
	return -PMC_E_UNSUPPORTED;
}

int pmc_evsel__check(struct pmc_evsel *evsel, char *why, size_t len)
{
	char buf[512] = "";

	if (evsel->check_err == 1) {
		evsel->check_err = pmc__evsel_static_check(evsel, buf, sizeof(buf));
		if (!evsel->check_err && evsel->kind == PMC_EV_TOOL)
			evsel->check_err = check_tool(evsel, buf, sizeof(buf));
		else if (!evsel->check_err)
			evsel->check_err =
				pmc__backend_check(evsel->evlist->backend, evsel, buf, sizeof(buf));
		if (!evsel->check_err)
			evsel->check_err = check_levels(evsel, buf, sizeof(buf));
		if (evsel->check_err < 0) {
			free(evsel->check_why);
			evsel->check_why = strdup(buf[0] ? buf : "cannot be counted here");
		}
	}
	if (why && len)
		snprintf(why, len, "%s",
			 evsel->check_err < 0 && evsel->check_why ? evsel->check_why : "");
	return evsel->check_err;
}

int pmc__evsel_refuse(struct pmc_evsel *evsel, int err, const char *why)
{
	const struct pmc_evlist *l = evsel->evlist;
	char *copy = strdup(why && why[0] ? why : "cannot be counted here");

	evsel->check_err = err < 0 ? err : -PMC_E_UNSUPPORTED;
	free(evsel->check_why);
	evsel->check_why = copy;
	for (size_t i = evsel->leader->idx; i < l->nr && l->entries[i]->leader == evsel->leader;
	     i++)
		l->entries[i]->pass = -1;
	return copy ? 0 : -ENOMEM;
}
