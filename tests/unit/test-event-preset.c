// SPDX-License-Identifier: MIT
/*
 * The PAPI presets (data/presets/papi.tsv, docs/events.md "PAPI presets"): every row's events
 * resolve on their backend and model, the Core i7 column encodes what PAPI's Nehalem
 * definition encodes (libpfm4, its Nehalem PMU forced), a preset without an event says why,
 * and the walk shows what each stands for. Also the walk's aliases and breakpoint forms.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include <vpmu/protocol.h>
#include "backend/vpmu/events.h"
#include "event/evsel.h"
#include "event/parse.h"

static struct pmc_evlist *new_list(const char *backend)
{
	struct pmc_evlist_opts o = {.sz = sizeof(o), .backend = backend};
	struct pmc_evlist *evlist;

	cr_assert_eq(pmc_evlist__new(&o, &evlist), 0);
	return evlist;
}

/* Parses str alone on backend; the one event it gives, or NULL with err filled. */
static struct pmc_evlist *parse_one(const char *backend, const char *str,
				    struct pmc_parse_error *err, int *ret)
{
	struct pmc_evlist *l = new_list(backend);

	*ret = pmc_evlist__parse(l, str, err);
	if (!*ret)
		cr_assert_eq(pmc_evlist__nr(l), 1, "%s gives one event", str);
	return l;
}

static const struct perf_event_attr *attr_of(const struct pmc_evlist *l)
{
	return &pmc_evlist__at(l, 0)->attr;
}

/* The preset parses like its target on backend: same type, config and config1. */
static void expect_same_as(const char *backend, const char *preset, const char *target)
{
	struct pmc_parse_error err;
	int ret;
	struct pmc_evlist *p = parse_one(backend, preset, &err, &ret), *t;

	cr_assert_eq(ret, 0, "%s on %s: %s", preset, backend, err.msg);
	t = parse_one(backend, target, &err, &ret);
	cr_assert_eq(ret, 0, "%s (for %s) on %s: %s", target, preset, backend, err.msg);
	cr_expect_eq(attr_of(p)->type, attr_of(t)->type, "%s: type", preset);
	cr_expect_eq(attr_of(p)->config, attr_of(t)->config, "%s: config", preset);
	cr_expect_eq(attr_of(p)->config1, attr_of(t)->config1, "%s: config1", preset);
	cr_expect_str_eq(pmc_evsel__name(pmc_evlist__at(p, 0)), preset);
	cr_expect_eq(pmc_evsel__kind(pmc_evlist__at(p, 0)), pmc_evsel__kind(pmc_evlist__at(t, 0)));
	pmc_evlist__delete(p);
	pmc_evlist__delete(t);
}

static void expect_no_event(const char *backend, const struct pmc_preset *ps)
{
	struct pmc_parse_error err;
	int ret;
	struct pmc_evlist *l = parse_one(backend, ps->name, &err, &ret);

	cr_expect_eq(ret, -PMC_E_UNKNOWN_EVENT, "%s on %s has no event", ps->name, backend);
	cr_expect(strstr(err.msg, ps->name) != NULL, "the message names %s: %s", ps->name, err.msg);
	cr_expect(strstr(err.msg, ps->papi && strncmp(ps->papi, "NOT_DERIVED", 11) ? "derived"
										   : "no event on"),
		  "%s says why: %s", ps->name, err.msg);
	pmc_evlist__delete(l);
}

Test(event_preset, perf_backend_takes_the_generic_column)
{
	for (size_t i = 0; i < pmc__nr_presets; i++) {
		const struct pmc_preset *ps = &pmc__presets[i];

		if (ps->generic)
			expect_same_as("perf", ps->name, ps->generic);
		else
			expect_no_event("perf", ps);
	}
}

Test(event_preset, pentium_model_takes_the_generic_column)
{
	setenv("PMC_VPMU_MODEL", "pentium", 1);
	for (size_t i = 0; i < pmc__nr_presets; i++) {
		const struct pmc_preset *ps = &pmc__presets[i];

		if (ps->generic)
			expect_same_as("vpmu", ps->name, ps->generic);
		else
			expect_no_event("vpmu", ps);
	}
}

Test(event_preset, corei7_model_takes_its_column_then_the_generic_one)
{
	setenv("PMC_VPMU_MODEL", "corei7", 1);
	for (size_t i = 0; i < pmc__nr_presets; i++) {
		const struct pmc_preset *ps = &pmc__presets[i];
		const char *target = ps->corei7 ? ps->corei7 : ps->generic;

		if (target)
			expect_same_as("vpmu", ps->name, target);
		else
			expect_no_event("vpmu", ps);
	}
}

/* The bits of a PerfEvtSel that say what is counted: event, umask, edge, inv, cmask. */
#define WHAT_MASK 0xff84ffffULL

/*
 * Whether PAPI's Nehalem event, encoded by libpfm4 as n, is what the model's event v counts.
 * For a general counter: the same event, umask, edge, inv and cmask. For the model's fixed
 * counters, libpfm4 writes an architectural or pseudo encoding of the same count: fixed
 * counter 0's instructions as 0xc0 (umask 0x00, INSTRUCTION_RETIRED), fixed counter 2's
 * reference cycles as 0x0300 (event 0x00, umask 0x03, perf's pseudo-encoding of that counter).
 */
static bool same_count(const struct perf_event_attr *v, const struct perf_event_attr *n)
{
	static const uint64_t fixed[3][2] = {{0x00c0, 0x01c0}, {0x003c, 0x003c}, {0x013c, 0x0300}};
	uint64_t nc = n->config & WHAT_MASK;

	if (v->config1 < VPMU_X_FIXED0 || v->config1 > VPMU_X_FIXED2)
		return (v->config & WHAT_MASK) == nc;
	return nc == fixed[v->config1 - VPMU_X_FIXED0][0] ||
	       nc == fixed[v->config1 - VPMU_X_FIXED0][1];
}

/*
 * Each corei7 event is PAPI's Nehalem event: libpfm4's encoding of the papi_nhm name, its
 * Nehalem PMU forced (LIBPFM_FORCE_PMU), counts what the model's does, and the model counts it.
 */
Test(event_preset, corei7_events_encode_papi_nehalem_events)
{
	setenv("PMC_VPMU_MODEL", "corei7", 1);
	setenv("LIBPFM_FORCE_PMU", "nhm", 1);
	for (size_t i = 0; i < pmc__nr_presets; i++) {
		const struct pmc_preset *ps = &pmc__presets[i];
		struct pmc_parse_error err;
		struct pmc_evlist *v, *n;
		struct vpmu_enc enc;
		char native[128], why[256];
		int ret;

		if (!ps->corei7)
			continue;
		snprintf(native, sizeof(native), "nhm::%s", strchr(ps->papi, ',') + 1);
		v = parse_one("vpmu", ps->name, &err, &ret);
		cr_assert_eq(ret, 0, "%s: %s", ps->name, err.msg);
		n = parse_one("perf", native, &err, &ret);
		cr_assert_eq(ret, 0, "%s (libpfm4): %s", native, err.msg);
		cr_expect(same_count(attr_of(v), attr_of(n)), "%s: %s is %#llx, PAPI's %s is %#llx",
			  ps->name, ps->corei7, (unsigned long long)attr_of(v)->config, native,
			  (unsigned long long)attr_of(n)->config);
		cr_expect_eq(pmc__vpmu_encode(pmc_evlist__at(v, 0), VPMU_MODEL_COREI7, &enc, why,
					      sizeof(why)),
			     0, "%s: the model counts %s: %s", ps->name, ps->corei7, why);
		pmc_evlist__delete(v);
		pmc_evlist__delete(n);
	}
}

Test(event_preset, modifiers_groups_and_names)
{
	struct pmc_evlist *l = new_list("perf");
	const struct pmc_evsel *e;

	cr_assert_eq(pmc_evlist__parse(l, "{PAPI_TOT_CYC,PAPI_TOT_INS:k},PAPI_L1_DCM:u", NULL), 0);
	cr_assert_eq(pmc_evlist__nr(l), 3);
	e = pmc_evlist__at(l, 1);
	cr_expect_str_eq(pmc_evsel__name(e), "PAPI_TOT_INS:k");
	cr_expect_eq(pmc_evsel__leader(e), pmc_evlist__at(l, 0));
	cr_expect_eq(e->attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	cr_expect(e->attr.exclude_user && !e->attr.exclude_kernel);
	e = pmc_evlist__at(l, 2);
	cr_expect_str_eq(pmc_evsel__name(e), "PAPI_L1_DCM:u");
	cr_expect_eq(pmc_evsel__kind(e), PMC_EV_CACHE);
	cr_expect(!e->attr.exclude_user && e->attr.exclude_kernel);
	pmc_evlist__delete(l);
}

Test(event_preset, errors_point_at_the_preset_and_suggest)
{
	struct pmc_evlist *l = new_list("perf");
	struct pmc_parse_error err;

	cr_expect_eq(pmc_evlist__parse(l, "cycles,PAPI_L2_DCM", &err), -PMC_E_UNKNOWN_EVENT);
	cr_expect_eq(err.offset, 7);
	cr_expect(strstr(err.msg, "L2_RQSTS:LD_MISS,L2_RQSTS:RFO_MISS"), "%s", err.msg);
	cr_expect_eq(pmc_evlist__nr(l), 0, "a failed parse leaves the list as it was");
	cr_expect_eq(pmc_evlist__parse(l, "PAPI_TOT_INZ", &err), -PMC_E_UNKNOWN_EVENT);
	cr_expect(err.nr_suggest > 0 && !strcmp(err.suggest[0], "PAPI_TOT_INS"), "%s",
		  err.nr_suggest ? err.suggest[0] : "no suggestion");
	pmc_evlist__delete(l);
}

struct walk {
	const char *name, *alias_of, *maps_to;
	int presets, forms, forms_parse;
	bool seen;
};

static int check_info(const struct pmc_event_info *info, void *arg)
{
	struct walk *w = arg;

	if (info->kind == PMC_EV_PRESET)
		w->presets++;
	if (info->example) {
		struct pmc_evlist *l = new_list("perf");

		w->forms++;
		w->forms_parse += info->kind == PMC_EV_BREAKPOINT &&
				  pmc_evlist__parse(l, info->example, NULL) == 0;
		pmc_evlist__delete(l);
	}
	if (strcmp(info->name, w->name))
		return 0;
	w->seen = true;
	w->alias_of = info->alias_of;
	w->maps_to = info->maps_to;
	return 0;
}

static struct walk walk_for(const char *backend, const char *name)
{
	struct pmc_evlist *l = new_list(backend);
	struct walk w = {.name = name};

	cr_assert_eq(pmc_evlist__for_each_known(l, check_info, &w), 0);
	pmc_evlist__delete(l);
	cr_assert(w.seen, "%s is walked", name);
	return w;
}

Test(event_preset, walk_says_what_presets_stand_for)
{
	struct walk w = walk_for("perf", "PAPI_TOT_INS");

	cr_expect_eq(w.presets, (int)pmc__nr_presets);
	cr_expect_str_eq(w.maps_to, "instructions");
	cr_expect_null(walk_for("perf", "PAPI_L2_DCM").maps_to);
	setenv("PMC_VPMU_MODEL", "corei7", 1);
	cr_expect_str_eq(walk_for("vpmu", "PAPI_TOT_INS").maps_to, "INST_RETIRED.ANY");
	cr_expect_str_eq(walk_for("vpmu", "PAPI_L1_STM").maps_to, "L1-dcache-store-misses");
}

Test(event_preset, walk_names_aliases_and_forms)
{
	struct walk w = walk_for("perf", "cs");

	cr_expect_str_eq(w.alias_of, "context-switches");
	cr_expect_str_eq(walk_for("perf", "cycles").alias_of, "cpu-cycles");
	cr_expect_null(walk_for("perf", "cpu-cycles").alias_of);
	cr_expect_null(walk_for("perf", "instructions").alias_of);
	cr_expect_eq(w.forms, (int)pmc__nr_breakpoint_forms);
	cr_expect_eq(w.forms_parse, w.forms, "every form's example parses as a breakpoint");
}
