// SPDX-License-Identifier: MIT
/*
 * From a parsed event to the vpmu tool's programming: the model in use, table look-ups, and
 * the PerfEvtSel (Core i7), fixed-counter control or ES|CC (Pentium) encoding, refused with
 * the tool's own reason when the model does not support it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>
#include <pmc/error.h>
#include "backend/vpmu/generic.h"
#include "backend/vpmu/vpmu.h"
#include "event/evsel.h"

int pmc__vpmu_model(void)
{
	const char *m = secure_getenv("PMC_VPMU_MODEL"), *p = secure_getenv("PMC_VPMU_PRESET");

	if (m && *m)
		return !strcmp(m, "pentium") ? VPMU_MODEL_PENTIUM : VPMU_MODEL_COREI7;
	return p && !strcmp(p, "pentium") ? VPMU_MODEL_PENTIUM : VPMU_MODEL_COREI7;
}

const char *pmc__vpmu_model_name(int model)
{
	return model == VPMU_MODEL_PENTIUM ? "Pentium" : "Core i7";
}

/* Names compare without case, and EVENT:UMASK (as the parser appends umasks) as EVENT.UMASK. */
static bool same_name(const char *row, const char *name)
{
	for (; *row && *name; row++, name++) {
		char a = *row, b = *name == ':' ? '.' : *name;

		if (a != b && (a | 0x20) != (b | 0x20))
			return false;
	}
	return !*row && !*name;
}

const struct vpmu_event *pmc__vpmu_event_find(int model, const char *name)
{
	if (!strncasecmp(name, "vpmu::", 6))
		name += 6;
	for (size_t i = 0; i < pmc__vpmu_nr_events; i++)
		if (pmc__vpmu_events[i].model == model && same_name(pmc__vpmu_events[i].name, name))
			return &pmc__vpmu_events[i];
	return NULL;
}

const struct vpmu_event *pmc__vpmu_event_find_code(int model, unsigned event, unsigned umask)
{
	for (size_t i = 0; i < pmc__vpmu_nr_events; i++) {
		const struct vpmu_event *e = &pmc__vpmu_events[i];

		if (e->model == model && !e->extra && e->event == event &&
		    (model == VPMU_MODEL_PENTIUM || e->umask == umask))
			return e;
	}
	return NULL;
}

/*
 * Core i7 events whose umask is a set of independent conditions: an unlisted umask is the
 * OR of its bits, each of which must be a supported row (the tool's rule, vpmu-counter.c).
 */
static bool umask_is_bitset(unsigned event)
{
	static const unsigned char evs[] = {0x88, 0x89, 0x24, 0xc7, 0x10, 0xcb,
					    0x0b, 0xf0, 0x60, 0x62, 0x63};

	return memchr(evs, (int)event, sizeof(evs)) != NULL;
}

/* Whether the model counts event/umask; the tool's verdict and reason otherwise. */
static int judge_code(int model, unsigned event, unsigned umask, char *why, size_t len)
{
	const struct vpmu_event *r = pmc__vpmu_event_find_code(model, event, umask);

	if (r && r->kind == VPMU_EV_UNSUPPORTED) {
		snprintf(why, len, "%s is not supported by the vpmu %s model: %s", r->name,
			 pmc__vpmu_model_name(model), r->desc);
		return -PMC_E_UNSUPPORTED;
	}
	if (r)
		return 0;
	if (model == VPMU_MODEL_PENTIUM || !umask_is_bitset(event) || !umask) {
		snprintf(why, len, "event 0x%02x umask 0x%02x is unknown to the vpmu %s model",
			 event, umask, pmc__vpmu_model_name(model));
		return -PMC_E_UNSUPPORTED;
	}
	for (unsigned bit = 1; bit < 0x100; bit <<= 1) {
		if (!(umask & bit))
			continue;
		r = pmc__vpmu_event_find_code(model, event, bit);
		if (!r || r->kind == VPMU_EV_UNSUPPORTED) {
			snprintf(why, len, "event 0x%02x umask bit 0x%02x: %s", event, bit,
				 r ? r->desc : "no such condition in the vpmu model");
			return -PMC_E_UNSUPPORTED;
		}
	}
	return 0;
}

/* The row a generic or cache event maps onto, or NULL with the reason. */
static const struct vpmu_event *generic_row(const struct perf_event_attr *a, int model, char *why,
					    size_t len)
{
	for (size_t i = 0; i < pmc__vpmu_nr_generics; i++) {
		const struct vpmu_generic *g = &pmc__vpmu_generics[i];

		if (g->type != a->type || g->config != a->config || g->model != model)
			continue;
		if (g->target)
			return pmc__vpmu_event_find(model, g->target);
		snprintf(why, len, "not available on vpmu: %s", g->why);
		return NULL;
	}
	snprintf(why, len, "not available on vpmu: %s",
		 pmc__vpmu_generic_reason(a->type, a->config));
	return NULL;
}

/* Why the vpmu backend cannot count events of this type at all, or NULL. */
static const char *type_reason(const struct pmc_evsel *evsel)
{
	switch (evsel->attr.type) {
	case PERF_TYPE_SOFTWARE:
		return "software events are kept by the kernel; vpmu models the CPU's PMU only "
		       "(use --backend=perf)";
	case PERF_TYPE_TRACEPOINT:
		return "tracepoints are kernel events; vpmu runs user-level code only "
		       "(use --backend=perf)";
	case PERF_TYPE_BREAKPOINT:
		return "vpmu models no debug registers (use --backend=perf for mem: breakpoints)";
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		return NULL;
	default:
		return evsel->kind == PMC_EV_PMU && evsel->pmu && !strcmp(evsel->pmu, "cpu")
			       ? NULL
			       : "events of this PMU are not modelled by vpmu (use --backend=perf)";
	}
}

/* The fields of a general-counter encoding, before privilege bits. */
struct fields {
	unsigned event, umask, cmask, inv, edge, extra;
};

static void fields_of_row(const struct vpmu_event *r, struct fields *f)
{
	*f = (struct fields){r->event, r->umask, r->cmask, r->inv, r->edge, r->extra};
}

/* A raw or resolved encoding in attr.config; resolve() keeps a row's extra in config1. */
static int fields_of_raw(const struct perf_event_attr *a, int model, struct fields *f, char *why,
			 size_t len)
{
	uint64_t c = a->config;

	if (model == VPMU_MODEL_PENTIUM) {
		uint64_t q = c & (0xffULL << 24 | VPMU_EVTSEL_INV | VPMU_EVTSEL_EDGE);

		if ((c & ~q) >> 9) {
			snprintf(why, len, "a Pentium encoding is ES[5:0] | CC[8:6] (0x%llx)",
				 (unsigned long long)c);
			return -PMC_E_UNSUPPORTED;
		}
		/* Qualifiers sit where Core i7 has them, only to be refused with a reason. */
		*f = (struct fields){.event = c & 0x3f,
				     .cmask = VPMU_EVTSEL_CMASK(q),
				     .inv = !!(q & VPMU_EVTSEL_INV),
				     .edge = !!(q & VPMU_EVTSEL_EDGE),
				     .extra = (c >> 6) & VPMU_P5_CC_CLOCKS ? VPMU_X_P5_CLOCKS : 0};
		return 0;
	}
	if (c >> 32) {
		snprintf(why, len, "PerfEvtSel bits 63:32 are reserved (0x%llx)",
			 (unsigned long long)c);
		return -PMC_E_UNSUPPORTED;
	}
	*f = (struct fields){VPMU_EVTSEL_EVENT(c),     VPMU_EVTSEL_UMASK(c),
			     VPMU_EVTSEL_CMASK(c),     !!(c & VPMU_EVTSEL_INV),
			     !!(c & VPMU_EVTSEL_EDGE), (unsigned)a->config1};
	return 0;
}

static int fields_of(const struct pmc_evsel *evsel, int model, struct fields *f, char *why,
		     size_t len)
{
	const struct perf_event_attr *a = &evsel->attr;
	const char *r = type_reason(evsel);
	const struct vpmu_event *row;

	if (r) {
		snprintf(why, len, "%s", r);
		return -PMC_E_UNSUPPORTED;
	}
	if (a->type != PERF_TYPE_HARDWARE && a->type != PERF_TYPE_HW_CACHE)
		return fields_of_raw(a, model, f, why, len);
	row = generic_row(a, model, why, len);
	if (!row)
		return -PMC_E_UNSUPPORTED;
	fields_of_row(row, f);
	return 0;
}

static int encode_pentium(const struct fields *f, unsigned cc, struct vpmu_enc *enc, char *why,
			  size_t len)
{
	int err;

	if (f->cmask || f->inv || f->edge) {
		snprintf(why, len,
			 "the Pentium counters have no counter mask, invert or edge detect");
		return -PMC_E_UNSUPPORTED;
	}
	if (f->extra == VPMU_X_P5_CLOCKS)
		cc |= VPMU_P5_CC_CLOCKS;
	else if ((err = judge_code(VPMU_MODEL_PENTIUM, f->event, 0, why, len)))
		return err;
	enc->config = f->event | (uint64_t)cc << 6;
	return 0;
}

static int encode_corei7(const struct fields *f, bool usr, bool os, struct vpmu_enc *enc, char *why,
			 size_t len)
{
	bool fixed = f->extra >= VPMU_X_FIXED0 && f->extra <= VPMU_X_FIXED2;
	int err;

	if ((f->inv || f->edge) && !f->cmask) {
		snprintf(why, len, "invert and edge detect need a counter mask (:c=N) on vpmu");
		return -PMC_E_UNSUPPORTED;
	}
	err = judge_code(VPMU_MODEL_COREI7, f->event, f->umask, why, len);
	if (err)
		return err;
	enc->config = VPMU_EVTSEL(f->event, f->umask) | (usr ? VPMU_EVTSEL_USR : 0) |
		      (os ? VPMU_EVTSEL_OS : 0) | (f->edge ? VPMU_EVTSEL_EDGE : 0) |
		      VPMU_EVTSEL_EN | (f->inv ? VPMU_EVTSEL_INV : 0) | (uint64_t)f->cmask << 24;
	/* Fixed counters have no qualifiers: a qualified fixed event takes a general one. */
	if (fixed && !f->cmask) {
		enc->fixed = (int)(f->extra - VPMU_X_FIXED0);
		enc->fixed_ctrl = (usr ? VPMU_FIXED_USR : 0) | (os ? VPMU_FIXED_OS : 0);
	}
	return 0;
}

int pmc__vpmu_encode(const struct pmc_evsel *evsel, int model, struct vpmu_enc *enc, char *why,
		     size_t len)
{
	bool usr = !evsel->attr.exclude_user, os = !evsel->attr.exclude_kernel;
	struct fields f;
	int err;

	*enc = (struct vpmu_enc){.model = model, .fixed = -1};
	err = fields_of(evsel, model, &f, why, len);
	if (err)
		return err;
	if (!usr) {
		snprintf(why, len,
			 "vpmu runs user-level code only: an event that excludes the "
			 "user level (:k) would always count 0");
		return -PMC_E_UNSUPPORTED;
	}
	if (model == VPMU_MODEL_PENTIUM)
		return encode_pentium(&f, (usr ? VPMU_P5_CC_USR : 0) | (os ? VPMU_P5_CC_OS : 0),
				      enc, why, len);
	return encode_corei7(&f, usr, os, enc, why, len);
}
