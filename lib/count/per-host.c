// SPDX-License-Identifier: MIT
/*
 * Per-host events under an MPI launcher (docs/mpi.md, "Per-host events"): an uncore PMU's
 * event (a memory controller, RAPL's energy, a package's C-state residency: a PMU with a
 * cpumask) counts the whole host, system-wide, whatever rank opens it. Were every rank of a
 * host to count it, pmc merge's sum would count the host once per rank: the host's lowest local
 * rank (0) counts it, the others refuse it with that reason and have no value for it.
 */
#include <stdio.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include <pmc/launcher.h>
#include "count/counting.h"
#include "event/evsel.h"
#include "event/uncore.h"

bool pmc_evsel__per_host(const struct pmc_evsel *evsel)
{
	return pmc__evsel_uncore(evsel);
}

int pmc_evlist__mpi_per_host(struct pmc_evlist *evlist, const struct pmc_launcher *l)
{
	char why[512];
	int n = 0, err;

	/* Outside a launcher, in local rank 0, or where the launcher does not say: counted. */
	if (!l || l->rank < 0 || l->local_rank <= 0)
		return 0;
	for (size_t i = 0; i < evlist->nr; i++) {
		struct pmc_evsel *ev = evlist->entries[i];

		if (!pmc_evsel__per_host(ev))
			continue;
		snprintf(why, sizeof(why),
			 "a per-host event: counted by local rank 0 of host %s, not by local rank "
			 "%d (rank %d), so that pmc merge counts each host once",
			 l->host, l->local_rank, l->rank);
		err = pmc__evsel_refuse(ev, -PMC_E_UNSUPPORTED, why);
		if (err)
			return err;
		n++;
	}
	return n;
}
