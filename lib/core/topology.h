/* SPDX-License-Identifier: MIT */
/* Where a CPU sits (socket, die, core), from sysfs's topology files, and units grouped by it. */
#ifndef PMC_LIB_CORE_TOPOLOGY_H
#define PMC_LIB_CORE_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

struct pmc__topo {
	int socket; /* physical_package_id */
	int die;    /* die_id (0 where the kernel has none) */
	int core;   /* core_id: unique within its die only, as the kernel numbers them */
};

/*
 * Reads cpu's devices/system/cpu/cpuN/topology/{physical_package_id,die_id,core_id} under
 * the sysfs root (pmc__sysfs_root(), so that recorded trees stand in). A missing file reads
 * as 0 (a die_id before Linux 5.3; a machine that says nothing has one socket, die and core);
 * a negative id (-1: unknown) as 0. Returns 0.
 */
int pmc__topo_read(int cpu, struct pmc__topo *out);

/* Ways of grouping CPUs: each CPU alone, by physical core, or by socket. */
enum pmc__topo_by { PMC__TOPO_CPU, PMC__TOPO_CORE, PMC__TOPO_SOCKET, PMC__TOPO_DIE };

/*
 * The group of a CPU at t: a key that is equal for the CPUs of one group and orders groups
 * as perf does (socket, then die, then core; CPU number for PMC__TOPO_CPU), and perf's label
 * of the group ("CPU3", "S0-D0-C1", "S0", "S0-D1") in label. A pure function.
 */
int64_t pmc__topo_key(int cpu, const struct pmc__topo *t, enum pmc__topo_by by, char *label,
		      size_t len);

#endif /* PMC_LIB_CORE_TOPOLOGY_H */
