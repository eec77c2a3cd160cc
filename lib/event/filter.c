// SPDX-License-Identifier: MIT
/* pmc_evsel__set_filter(): a tracepoint's filter, judged by the backend when it is set. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/backend.h"
#include "event/evsel.h"

int pmc_evsel__set_filter(struct pmc_evsel *evsel, const char *filter, char *why, size_t len)
{
	char *copy = NULL;
	int err;

	if (why && len)
		why[0] = 0;
	if (!evsel)
		return -EINVAL;
	if (filter && evsel->attr.type != PERF_TYPE_TRACEPOINT) {
		if (why && len)
			snprintf(why, len,
				 "'%s' is not a tracepoint: filters select tracepoint hits by "
				 "their fields",
				 evsel->name);
		return -EINVAL;
	}
	if (filter) {
		err = pmc__backend_check_filter(evsel->evlist->backend, evsel, filter, why, len);
		if (err)
			return err;
		copy = strdup(filter);
		if (!copy)
			return -ENOMEM;
	}
	free(evsel->filter);
	evsel->filter = copy;
	return 0;
}

const char *pmc_evsel__filter(const struct pmc_evsel *evsel)
{
	return evsel->filter;
}
