// SPDX-License-Identifier: MIT
/*
 * Data-only table of the events the vpmu tool models: the rows of data/vpmu/events.tsv
 * (docs/vpmu.md, "Events"), which the build turns into data/vpmu/events.def, then the names
 * libpmc adds: the Core i7 fixed counters and the Pentium's clock count.
 */
#include <vpmu/protocol.h>
#include "backend/vpmu/events.h"

#define ROW(model, n, ev, um, cm, inv, edge, kind, desc) \
	{n, model, ev, um, cm, inv, edge, VPMU_EV_##kind, VPMU_X_NONE, desc},
/* The signals a row sums are the tool's business: libpmc leaves them out. */
#define VPMU_EVENT_COREI7(n, ev, um, cm, inv, edge, kind, sigs, errata, desc) \
	ROW(VPMU_MODEL_COREI7, n, ev, um, cm, inv, edge, kind, desc)
#define VPMU_EVENT_PENTIUM(n, ev, um, cm, inv, edge, kind, sigs, errata, desc) \
	ROW(VPMU_MODEL_PENTIUM, n, ev, um, cm, inv, edge, kind, desc)
#define FIXED(n, idx, ev, um, d)                                             \
	{                                                                    \
		n, VPMU_MODEL_COREI7, ev, um, 0, 0, 0, VPMU_EV_EXACT, idx, d \
	}

const struct vpmu_event pmc__vpmu_events[] = {
#include "data/vpmu/events.def"
	FIXED("INST_RETIRED.ANY", VPMU_X_FIXED0, 0xc0, 0x01,
	      "Instructions retired, on fixed counter 0 (a REP string instruction counts once)"),
	FIXED("CPU_CLK_UNHALTED.THREAD", VPMU_X_FIXED1, 0x3c, 0x00,
	      "Modelled core cycles, on fixed counter 1"),
	FIXED("CPU_CLK_UNHALTED.REF", VPMU_X_FIXED2, 0x3c, 0x01,
	      "Reference cycles (equal to core cycles in the model), on fixed counter 2"),
	{"clocks", VPMU_MODEL_PENTIUM, 0x16, 0, 0, 0, 0, VPMU_EV_MODELLED, VPMU_X_P5_CLOCKS,
	 "Clocks: the counter control's clock bit (CC bit 2) counts modelled cycles"},
};

const size_t pmc__vpmu_nr_events = sizeof(pmc__vpmu_events) / sizeof(pmc__vpmu_events[0]);
