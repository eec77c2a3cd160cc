// SPDX-License-Identifier: MIT
/* CPU topology from sysfs (through the sysfs root) and perf's grouping keys and labels. */
#include <stdio.h>
#include <stdlib.h>
#include "core/sysfile.h"
#include "core/topology.h"

static void read_id(int cpu, const char *file, int *out)
{
	char rel[128], buf[32];
	char *end;
	long v;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/%s", cpu, file);
	*out = 0;
	if (pmc__sysfs_read(rel, buf, sizeof(buf)) < 0)
		return;
	v = strtol(buf, &end, 10);
	if (end != buf && v >= 0 && v < (1L << 20))
		*out = (int)v;
}

int pmc__topo_read(int cpu, struct pmc__topo *out)
{
	read_id(cpu, "physical_package_id", &out->socket);
	read_id(cpu, "die_id", &out->die);
	read_id(cpu, "core_id", &out->core);
	return 0;
}

int64_t pmc__topo_key(int cpu, const struct pmc__topo *t, enum pmc__topo_by by, char *label,
		      size_t len)
{
	switch (by) {
	case PMC__TOPO_SOCKET:
		snprintf(label, len, "S%d", t->socket);
		return (int64_t)t->socket << 40;
	case PMC__TOPO_DIE:
		snprintf(label, len, "S%d-D%d", t->socket, t->die);
		return (int64_t)t->socket << 40 | (int64_t)t->die << 20;
	case PMC__TOPO_CORE:
		snprintf(label, len, "S%d-D%d-C%d", t->socket, t->die, t->core);
		return (int64_t)t->socket << 40 | (int64_t)t->die << 20 | t->core;
	default:
		snprintf(label, len, "CPU%d", cpu);
		return cpu;
	}
}
