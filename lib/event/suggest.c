// SPDX-License-Identifier: MIT
/* "Did you mean" for unknown event names: every source of names, offered to core/suggest.h. */
#include <string.h>
#include "core/backend.h"
#include "core/suggest.h"
#include "event/parse.h"
#include "event/pmu.h"

struct collect {
	const char *name;
	struct pmc_parse_error *err;
	int dist[3];
};

static int collect(const struct pmc_event_info *info, void *arg)
{
	struct collect *c = arg;

	pmc__suggest_add(c->err, c->dist, c->name, info->name);
	return 0;
}

void pmc__suggest(const struct pmc_evlist *evlist, const char *name, const char *subsys,
		  struct pmc_parse_error *err)
{
	struct collect c = {.name = name, .err = err};

	err->nr_suggest = 0;
	if (subsys && pmc__tp_for_each(subsys, collect, &c) == 0 && err->nr_suggest)
		return;
	/*
	 * Tracepoints are "subsys:name": a name without ':' is never within the distance
	 * limit of one, and walking tracefs is most of the cost of a suggestion.
	 */
	if (strchr(name, ':')) {
		pmc_evlist__for_each_known(evlist, collect, &c);
		return;
	}
	pmc__event_for_each_generic(collect, &c);
	pmc__pmu_for_each(collect, &c);
	if (evlist && evlist->backend)
		pmc__backend_for_each_known(evlist->backend, collect, &c);
	pmc__preset_for_each(evlist, collect, &c);
}
