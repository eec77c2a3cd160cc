// SPDX-License-Identifier: MIT
/* Lookups in the generic, software and cache name tables, and their walk (with the breakpoint
 * forms) for pmc list. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pmc/error.h>
#include "event/parse.h"

const struct pmc_event_name *pmc__event_find_generic(const char *name, size_t len)
{
	for (size_t i = 0; i < pmc__event_nr_generic; i++) {
		const char *n = pmc__event_generic[i].name;

		if (strlen(n) == len && !memcmp(n, name, len))
			return &pmc__event_generic[i];
	}
	return NULL;
}

const struct pmc_event_name *pmc__event_find_tool(const char *name, size_t len)
{
	for (size_t i = 0; i < pmc__event_nr_tool; i++) {
		const char *n = pmc__event_tool[i].name;

		if (strlen(n) == len && !memcmp(n, name, len))
			return &pmc__event_tool[i];
	}
	return NULL;
}

/*
 * Matches the longest alias of a table at s (aliases such as "L1-dcache" contain '-', so
 * the name cannot simply be split at dashes). Returns the row, or -1.
 */
static int match_alias(const char *const tbl[][PMC_CACHE_MAX_ALIASES], int rows, const char *s,
		       size_t len, size_t *used)
{
	int best = -1;

	*used = 0;
	for (int r = 0; r < rows; r++) {
		for (int a = 0; a < PMC_CACHE_MAX_ALIASES && tbl[r][a]; a++) {
			size_t n = strlen(tbl[r][a]);

			if (n > *used && n <= len && !memcmp(tbl[r][a], s, n) &&
			    (n == len || s[n] == '-')) {
				best = r;
				*used = n;
			}
		}
	}
	return best;
}

/*
 * perf's cache names: CACHE[-PART[-PART]], each part an op or a result spelling. As perf's
 * parse_events_add_cache() assigns them, a part sets the op if none is set yet and it is one
 * (one the cache lacks is refused), else the result if none is set yet; a part that can set
 * neither is ignored (L1-dcache-load-load is L1-dcache-load). The op defaults to load, the
 * result to access.
 */
int pmc__event_find_cache(const char *name, size_t len, uint64_t *config)
{
	size_t used;
	int cache = match_alias(pmc__cache_names, PERF_COUNT_HW_CACHE_MAX, name, len, &used);
	int op = -1, res = -1;

	/* perf's scanner reads "branches" as the hardware event, never as this cache. */
	if (cache < 0 || (used == 8 && !memcmp(name, "branches", 8)))
		return -PMC_E_UNKNOWN_EVENT;
	for (int part = 0; part < 2 && used < len; part++) {
		const char *s = name + used + 1;
		size_t rest = len - used - 1, n_op, n_res;
		int o = match_alias(pmc__cache_op_names, PERF_COUNT_HW_CACHE_OP_MAX, s, rest,
				    &n_op);
		int r = match_alias(pmc__cache_result_names, PERF_COUNT_HW_CACHE_RESULT_MAX, s,
				    rest, &n_res);

		if (o < 0 && r < 0)
			return -PMC_E_UNKNOWN_EVENT;
		if (o >= 0 && op < 0 && !(pmc__cache_ops_valid[cache] & (1u << o)))
			return -PMC_E_UNSUPPORTED;
		if (o >= 0 && op < 0)
			op = o;
		else if (r >= 0 && res < 0)
			res = r;
		used += 1 + (o >= 0 ? n_op : n_res);
	}
	if (used != len)
		return -PMC_E_UNKNOWN_EVENT;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (res < 0)
		res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!(pmc__cache_ops_valid[cache] & (1u << op)))
		return -PMC_E_UNSUPPORTED;
	*config = (uint64_t)cache | (uint64_t)op << 8 | (uint64_t)res << 16;
	return 0;
}

void pmc__event_cache_name(unsigned cache, unsigned op, unsigned result, char *buf, size_t len)
{
	if (result == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		snprintf(buf, len, "%s-%s", pmc__cache_names[cache][0], pmc__cache_op_names[op][1]);
	else
		snprintf(buf, len, "%s-%s-%s", pmc__cache_names[cache][0],
			 pmc__cache_op_names[op][0], pmc__cache_result_names[result][0]);
}

static int for_each_cache(pmc_event_fn fn, void *arg)
{
	char name[64], desc[96];
	struct pmc_event_info info = {
		.name = name, .kind = PMC_EV_CACHE, .pmu = "cache", .desc = desc};
	int ret;

	for (unsigned c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (unsigned op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!(pmc__cache_ops_valid[c] & (1u << op)))
				continue;
			for (unsigned r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				pmc__event_cache_name(c, op, r, name, sizeof(name));
				snprintf(desc, sizeof(desc), "%s %s%s", pmc__cache_descs[c],
					 pmc__cache_op_names[op][r ? 0 : 1], r ? " misses" : "");
				ret = fn(&info, arg);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

/* The first name of the table with e's encoding, when that is not e: e is its alias. */
static const char *canonical_of(const struct pmc_event_name *e)
{
	for (const struct pmc_event_name *c = pmc__event_generic; c < e; c++)
		if (c->type == e->type && c->config == e->config)
			return c->name;
	return NULL;
}

int pmc__event_for_each_generic(pmc_event_fn fn, void *arg)
{
	for (size_t i = 0; i < pmc__event_nr_generic; i++) {
		const struct pmc_event_name *e = &pmc__event_generic[i];
		struct pmc_event_info info = {
			.name = e->name,
			.kind = e->type == PERF_TYPE_HARDWARE ? PMC_EV_HARDWARE : PMC_EV_SOFTWARE,
			.pmu = e->type == PERF_TYPE_HARDWARE ? "hardware" : "software",
			.desc = e->desc,
			.alias_of = canonical_of(e),
		};
		int ret = fn(&info, arg);

		if (ret)
			return ret;
	}
	for (size_t i = 0; i < pmc__event_nr_tool; i++) {
		struct pmc_event_info info = {.name = pmc__event_tool[i].name,
					      .kind = PMC_EV_TOOL,
					      .pmu = "tool",
					      .desc = pmc__event_tool[i].desc};
		int ret = fn(&info, arg);

		if (ret)
			return ret;
	}
	return for_each_cache(fn, arg);
}

uint64_t pmc__event_hw_id(const struct pmc_evsel *evsel)
{
	uint32_t t = evsel->attr.type;

	/* The extended type (a hybrid core PMU's type) sits in config[63:32]. */
	if (t == PERF_TYPE_HARDWARE || t == PERF_TYPE_HW_CACHE)
		return evsel->attr.config & 0xffffffffULL;
	return evsel->attr.config;
}

int pmc_evsel__generic_name(const struct pmc_evsel *evsel, char *buf, size_t len)
{
	const struct perf_event_attr *a = &evsel->attr;

	if (!buf || !len)
		return -EINVAL;
	buf[0] = 0;
	for (size_t i = 0; evsel->kind == PMC_EV_TOOL && i < pmc__event_nr_tool; i++)
		if (pmc__event_tool[i].config == (uint64_t)evsel->tool) {
			snprintf(buf, len, "%s", pmc__event_tool[i].name);
			return 0;
		}
	if (evsel->kind == PMC_EV_CACHE) {
		pmc__event_cache_name(a->config & 0xff, (a->config >> 8) & 0xff,
				      (a->config >> 16) & 0xff, buf, len);
		return 0;
	}
	if (evsel->kind != PMC_EV_HARDWARE && evsel->kind != PMC_EV_SOFTWARE)
		return -ENOENT;
	for (size_t i = 0; i < pmc__event_nr_generic; i++)
		if (pmc__event_generic[i].type == a->type &&
		    pmc__event_generic[i].config == pmc__event_hw_id(evsel)) {
			snprintf(buf, len, "%s", pmc__event_generic[i].name);
			return 0;
		}
	return -ENOENT;
}

int pmc__event_for_each_form(pmc_event_fn fn, void *arg)
{
	int ret = 0;

	for (size_t i = 0; i < pmc__nr_breakpoint_forms && !ret; i++) {
		const struct pmc_event_form *f = &pmc__breakpoint_forms[i];
		struct pmc_event_info info = {
			.name = f->syntax,
			.kind = PMC_EV_BREAKPOINT,
			.pmu = "breakpoint",
			.desc = f->desc,
			.example = f->example,
		};

		ret = fn(&info, arg);
	}
	return ret;
}
