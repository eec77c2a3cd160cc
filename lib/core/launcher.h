/* SPDX-License-Identifier: MIT */
/* The rank's tags in results files (docs/mpi.md). */
#ifndef PMC_LIB_CORE_LAUNCHER_H
#define PMC_LIB_CORE_LAUNCHER_H

#include <jansson.h>
#include <pmc/launcher.h>

/*
 * {"launcher", "rank", "size", "local_rank", "host", "cpus"} of l, as pmc stat's and the
 * regions' JSON carry them in provenance.mpi; NULL outside a launcher (l->rank < 0).
 */
json_t *pmc__launcher_json(const struct pmc_launcher *l);

#endif /* PMC_LIB_CORE_LAUNCHER_H */
