/* SPDX-License-Identifier: MIT */
/*
 * The comment column of pmc stat (perf's "shadow" values): what an event's mean says next to
 * the others' ("insn per cycle", "of all branches", "CPUs utilized", "K/sec"). The printers
 * ask it per event and never pair events themselves; the metric engine goes under it.
 */
#ifndef PMC_TOOLS_STAT_DERIVED_H
#define PMC_TOOLS_STAT_DERIVED_H

#include <stdbool.h>
#include <stddef.h>

/* One event as the rules see it: its generic name (pmc_evsel__generic_name(), "" if none). */
struct stat_derived_event {
	const char *generic;
	unsigned priv; /* pmc_evsel__priv(): values pair only with the same levels, as perf's */
	bool counted;  /* supported, with values */
	double mean;   /* in the event's own unit (ns for clocks and tool events) */
};

/* A comment: the value, how perf writes it (width, decimals, what follows) and its unit. */
struct stat_derived {
	double value;
	int width, decimals;
	const char *suffix; /* "", " ", "%" or " %", written right after the value */
	char unit[32];	    /* "insn per cycle", "K/sec", ... */
};

/*
 * The comment of events[idx] over the nr events of a run whose mean wall time per run is
 * wall_ns: 1 with *out filled, 0 when the event has none (or what it needs was not counted).
 */
int stat_derived__compute(const struct stat_derived_event *events, size_t nr, size_t idx,
			  double wall_ns, struct stat_derived *out);

#endif /* PMC_TOOLS_STAT_DERIVED_H */
