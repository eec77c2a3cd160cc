/* SPDX-License-Identifier: MIT */
/*
 * The vpmu models' event table and the encoder of parsed events; models are enum vpmu_model
 * values (VPMU_MODEL_COREI7 = 1, VPMU_MODEL_PENTIUM = 2, include/vpmu/protocol.h).
 */
#ifndef PMC_LIB_BACKEND_VPMU_EVENTS_H
#define PMC_LIB_BACKEND_VPMU_EVENTS_H

#include <stddef.h>
#include <stdint.h>

struct pmc_evsel;

enum vpmu_ev_kind {
	VPMU_EV_EXACT,	     /* counted exactly from the instruction stream */
	VPMU_EV_MODELLED,    /* produced by the cache, TLB, predictor or timing model */
	VPMU_EV_UNSUPPORTED, /* the tool refuses it; desc is the reason */
};

/* Rows libpmc adds to data/vpmu/events.tsv (extra != 0): they are not in the TSV. */
enum vpmu_ev_extra {
	VPMU_X_NONE,
	VPMU_X_FIXED0, /* Core i7 fixed counters 0..2: VPMU_X_FIXED0 + index */
	VPMU_X_FIXED1,
	VPMU_X_FIXED2,
	VPMU_X_P5_CLOCKS, /* Pentium: the counter control's "count clocks" bit */
};

/* One event of a model: the name and its encoding, as in data/vpmu/events.tsv. */
struct vpmu_event {
	const char *name;
	unsigned char model; /* enum vpmu_model */
	unsigned char event; /* event select (Pentium: ES) */
	unsigned char umask;
	unsigned char cmask; /* defining qualifiers of the guide's predefined programmings */
	unsigned char inv;
	unsigned char edge;
	unsigned char kind;  /* enum vpmu_ev_kind */
	unsigned char extra; /* enum vpmu_ev_extra */
	const char *desc;    /* what it counts, or why it is unsupported */
};

extern const struct vpmu_event pmc__vpmu_events[];
extern const size_t pmc__vpmu_nr_events;

/* The model selected by PMC_VPMU_MODEL / PMC_VPMU_PRESET (docs/vpmu.md), Core i7 by default. */
int pmc__vpmu_model(void);
const char *pmc__vpmu_model_name(int model);
/* The row named name in model's table (EVENT.UMASK or EVENT:UMASK), or NULL. */
const struct vpmu_event *pmc__vpmu_event_find(int model, const char *name);
/* The first row with this event select and umask in model's table, or NULL. */
const struct vpmu_event *pmc__vpmu_event_find_code(int model, unsigned event, unsigned umask);

/* How an event is programmed on the tool. */
struct vpmu_enc {
	int model;
	int fixed;	     /* Core i7 fixed counter 0..2, or -1 */
	uint64_t config;     /* general counter: PerfEvtSel (Core i7) or ES|CC<<6 (Pentium) */
	uint64_t fixed_ctrl; /* fixed counter: its 4-bit control field */
};

/* Encodes evsel for model; 0, or a negative code with the reason in why. */
int pmc__vpmu_encode(const struct pmc_evsel *evsel, int model, struct vpmu_enc *enc, char *why,
		     size_t len);

#endif /* PMC_LIB_BACKEND_VPMU_EVENTS_H */
