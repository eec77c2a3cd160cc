/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Core i7 and Pentium event tables: the rows of data/vpmu/events.tsv (docs/vpmu.md,
 * "Events"), which the build turns into events.def, each expanded into a vp_event_desc. */
#include "vpmu-events.h"

#define VPMU_SIG(s) VP_BIT(VP_SIG_##s)
#define VPMU_SIGS(g) VP_##g##_MASK
#define ROW(n, ev, um, cm, inv, edge, kind, sigs, errata, desc) \
	{n, ev, um, cm, inv, edge, VP_EV_##kind, sigs, errata, desc},

const struct vp_event_desc vp_events_corei7[] = {
#define VPMU_EVENT_COREI7 ROW
#define VPMU_EVENT_PENTIUM(...)
#include "events.def"
#undef VPMU_EVENT_COREI7
#undef VPMU_EVENT_PENTIUM
};

const unsigned vp_nr_events_corei7 = sizeof(vp_events_corei7) / sizeof(vp_events_corei7[0]);

const struct vp_event_desc vp_events_pentium[] = {
#define VPMU_EVENT_COREI7(...)
#define VPMU_EVENT_PENTIUM ROW
#include "events.def"
#undef VPMU_EVENT_COREI7
#undef VPMU_EVENT_PENTIUM
};

const unsigned vp_nr_events_pentium = sizeof(vp_events_pentium) / sizeof(vp_events_pentium[0]);
