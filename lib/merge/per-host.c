// SPDX-License-Identifier: MIT
/*
 * Per-host events in a merge (docs/mpi.md, "Per-host events"): the events each rank's file
 * names in provenance.mpi.per_host_events (an uncore PMU's, RAPL's: they count the whole host)
 * were counted by each host's local rank 0 only, the other ranks having no value for them, so
 * their sum is over hosts, not over ranks. The merge says so, in text and JSON.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "core/field.h"
#include "core/jsonstr.h"
#include "merge/merge.h"

const json_t *pmc__merge_per_host(const struct pmc_merge *m)
{
	for (size_t i = 0; i < m->nr_files; i++) {
		json_t *mpi = json_object_get(m->files[i].provenance, "mpi");
		json_t *a = json_object_get(mpi, "per_host_events");

		if (json_is_array(a) && json_array_size(a))
			return a;
	}
	return NULL;
}

void pmc__merge_per_host_text(const struct pmc_merge *m, FILE *f)
{
	const json_t *a = pmc__merge_per_host(m);
	size_t i;
	json_t *name;

	if (!a)
		return;
	fprintf(f, "# per-host events, counted by each host's local rank 0 only (their sum is over "
		   "hosts, not over a host's ranks):");
	json_array_foreach(a, i, name)
	{
		char *s = json_is_string(name) ? strdup(json_string_value(name)) : NULL;

		if (!s)
			continue;
		pmc__json_unbytes(s);
		fputc(' ', f);
		pmc__pct_field(f, s);
		free(s);
	}
	fputc('\n', f);
}
