// SPDX-License-Identifier: MIT
/*
 * Names the generic parser leaves to the vpmu backend: the models' CPU-specific names
 * (INST_RETIRED.ANY:u:c=1, data_read) and vpmu/event=0xc4,umask=0x1,cmask=1,inv,edge/.
 * Both become a PERF_TYPE_RAW encoding without privilege bits; config1 keeps the row's
 * extra (fixed counter, Pentium clocks). Unsupported rows resolve too, so that check()
 * can give the model's reason instead of "unknown event".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include "backend/vpmu/vpmu.h"
#include "event/evsel.h"
#include "event/parse.h"

static int unknown(struct pmc_parse_error *err, const char *fmt, const char *what, int model)
{
	snprintf(err->msg, sizeof(err->msg), fmt, what, pmc__vpmu_model_name(model));
	err->offset = 0;
	return -PMC_E_UNKNOWN_EVENT;
}

/*
 * Whether an encoding is the load-latency event, the one that reads the threshold of
 * ldlat= (MSR 0x3f6): Core i7's MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD.
 */
static bool takes_ldlat(int model, uint64_t config)
{
	return model == VPMU_MODEL_COREI7 && VPMU_EVTSEL_EVENT(config) == 0x0b &&
	       VPMU_EVTSEL_UMASK(config) == 0x10;
}

static int ldlat_refused(struct pmc_parse_error *err, unsigned ldlat)
{
	snprintf(err->msg, sizeof(err->msg),
		 ldlat > 0xffff ? "ldlat=%u: the threshold is 1 to 65535 cycles"
				: "ldlat=%u: a load-latency threshold applies to "
				  "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD only",
		 ldlat);
	err->offset = 0;
	return -PMC_E_PARSE;
}

static int resolve_symbol(struct pmc_evsel *evsel, int model, struct pmc_parse_error *err)
{
	/* libpfm4's attribute :ldlat=N, the last of the name, is the planner's (evsel.h). */
	unsigned ldlat = pmc__symbol_ldlat(evsel->symbol);
	const char *at = ldlat ? strcasestr(evsel->symbol, ":ldlat=") : NULL;
	char name[160];
	const struct vpmu_event *r;

	snprintf(name, sizeof(name), "%.*s", at ? (int)(at - evsel->symbol) : (int)sizeof(name),
		 evsel->symbol);
	r = pmc__vpmu_event_find(model, name);
	int other = model == VPMU_MODEL_PENTIUM ? VPMU_MODEL_COREI7 : VPMU_MODEL_PENTIUM;
	unsigned cmask, inv, edge;

	if (!r && pmc__vpmu_event_find(other, evsel->symbol))
		return unknown(err,
			       "'%s' is an event of the other vpmu model, not of the %s "
			       "model (set PMC_VPMU_MODEL=corei7|pentium)",
			       evsel->symbol, model);
	if (!r)
		return unknown(err,
			       "unknown event '%s' (not in the vpmu %s model's table; "
			       "pmc list --backend=vpmu shows them)",
			       evsel->symbol, model);
	cmask = evsel->mods & PMC_MOD_CMASK ? (unsigned)evsel->cmask : r->cmask;
	inv = evsel->mods & PMC_MOD_INV ? 1 : r->inv;
	edge = evsel->mods & PMC_MOD_EDGE ? 1 : r->edge;
	evsel->attr.type = PERF_TYPE_RAW;
	if (model == VPMU_MODEL_PENTIUM)
		evsel->attr.config =
			r->event | (r->extra == VPMU_X_P5_CLOCKS ? VPMU_P5_CC_CLOCKS << 6 : 0) |
			(uint64_t)cmask << 24 | (uint64_t)inv << 23 | (uint64_t)edge << 18;
	else
		evsel->attr.config = VPMU_EVTSEL(r->event, r->umask) | (uint64_t)cmask << 24 |
				     (inv ? VPMU_EVTSEL_INV : 0) | (edge ? VPMU_EVTSEL_EDGE : 0);
	evsel->attr.config1 = r->extra;
	if (ldlat && !takes_ldlat(model, evsel->attr.config))
		return ldlat_refused(err, ldlat);
	evsel->ldlat = ldlat;
	return 0;
}

/* One term of vpmu/.../: event=, umask=, cmask= (or c=), inv, edge, config=. */
static int apply_term(struct perf_event_attr *a, const char *key, size_t klen, const char *val)
{
	static const struct {
		const char *name;
		int shift, bits;
	} terms[] = {
		{"event", 0, 8}, {"umask", 8, 8}, {"cmask", 24, 8},  {"c", 24, 8},
		{"inv", 23, 1},	 {"edge", 18, 1}, {"config", 0, 64},
	};
	char *end;
	unsigned long long v = val ? strtoull(val, &end, 0) : 1;

	if (val && (end == val || (*end && *end != ',')))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++) {
		uint64_t mask = terms[i].bits == 64 ? ~0ULL : (1ULL << terms[i].bits) - 1;

		if (strlen(terms[i].name) != klen || strncmp(terms[i].name, key, klen))
			continue;
		if (v & ~mask)
			return -ERANGE;
		a->config = (a->config & ~(mask << terms[i].shift)) | (uint64_t)v << terms[i].shift;
		return 0;
	}
	return -ENOENT;
}

/* ldlat=N of vpmu/.../: the threshold of the load-latency event (evsel.h). */
static int ldlat_term(struct pmc_evsel *evsel, const char *s, size_t klen)
{
	char *end;
	unsigned long v;

	if (klen != 5 || strncmp(s, "ldlat", 5) || s[5] != '=')
		return 1;
	v = strtoul(s + 6, &end, 0);
	if (end == s + 6 || (*end && *end != ',') || !v || v > 0xffff)
		return -ERANGE;
	evsel->ldlat = (unsigned)v;
	return 0;
}

static int resolve_pmu(struct pmc_evsel *evsel, struct pmc_parse_error *err)
{
	const char *s = evsel->terms ? evsel->terms : "";

	evsel->attr.type = PERF_TYPE_RAW;
	evsel->attr.config = 0;
	evsel->attr.config1 = 0;
	while (*s) {
		size_t klen = strcspn(s, "=,");
		const char *val = s[klen] == '=' ? s + klen + 1 : NULL;
		int ret = ldlat_term(evsel, s, klen);

		if (ret > 0)
			ret = apply_term(&evsel->attr, s, klen, val);
		if (ret) {
			snprintf(err->msg, sizeof(err->msg),
				 ret == -ENOENT ? "unknown vpmu term '%.*s' (terms: event, umask, "
						  "cmask, inv, edge, config, ldlat)"
						: "bad value for vpmu term '%.*s'",
				 (int)klen, s);
			err->offset = (int)(s - (evsel->terms ? evsel->terms : s));
			return -PMC_E_PARSE;
		}
		s += strcspn(s, ",");
		s += *s == ',';
	}
	if (evsel->ldlat && !takes_ldlat(pmc__vpmu_model(), evsel->attr.config))
		return ldlat_refused(err, evsel->ldlat);
	return 0;
}

int pmc__vpmu_resolve(struct pmc_evsel *evsel, struct pmc_parse_error *err)
{
	int model = pmc__vpmu_model();

	if (evsel->kind == PMC_EV_SYMBOLIC && evsel->symbol)
		return resolve_symbol(evsel, model, err);
	if (evsel->kind == PMC_EV_PMU && evsel->pmu &&
	    (!strcmp(evsel->pmu, "vpmu") || !strcmp(evsel->pmu, "cpu")))
		return resolve_pmu(evsel, err);
	snprintf(err->msg, sizeof(err->msg),
		 "the vpmu backend knows the PMU 'vpmu' (and 'cpu'), "
		 "not '%s'",
		 evsel->pmu ? evsel->pmu : "?");
	return -PMC_E_UNKNOWN_EVENT;
}

/* Whether an earlier row of the model has the same name (listed once). */
static bool listed_before(size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (pmc__vpmu_events[j].model == pmc__vpmu_events[i].model &&
		    !strcmp(pmc__vpmu_events[j].name, pmc__vpmu_events[i].name))
			return true;
	return false;
}

int pmc__vpmu_for_each(pmc_event_fn fn, void *arg)
{
	int model = pmc__vpmu_model(), ret = 0;
	struct pmc_event_info info = {
		.kind = PMC_EV_SYMBOLIC,
		.pmu = model == VPMU_MODEL_PENTIUM ? "vpmu-pentium" : "vpmu-corei7",
	};

	for (size_t i = 0; i < pmc__vpmu_nr_events && !ret; i++) {
		if (pmc__vpmu_events[i].model != model || listed_before(i))
			continue;
		info.name = pmc__vpmu_events[i].name;
		info.desc = pmc__vpmu_events[i].desc;
		ret = fn(&info, arg);
	}
	return ret;
}
