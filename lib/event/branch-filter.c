// SPDX-License-Identifier: MIT
/*
 * Branch-stack filters by name (pmc record -j, the branch_type= term): perf 6.1's names for
 * the PERF_SAMPLE_BRANCH_* bits (tools/perf/util/parse-branch-options.c lists them), and
 * its rule that privilege levels alone mean "any branch" at those levels.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>
#include <pmc/error.h>
#include <pmc/sample.h>
#include "core/suggest.h"

static const struct {
	const char *name;
	uint64_t bit;
} filters[] = {
	{"u", PERF_SAMPLE_BRANCH_USER},
	{"k", PERF_SAMPLE_BRANCH_KERNEL},
	{"hv", PERF_SAMPLE_BRANCH_HV},
	{"any", PERF_SAMPLE_BRANCH_ANY},
	{"any_call", PERF_SAMPLE_BRANCH_ANY_CALL},
	{"any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN},
	{"ind_call", PERF_SAMPLE_BRANCH_IND_CALL},
	{"abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX},
	{"in_tx", PERF_SAMPLE_BRANCH_IN_TX},
	{"no_tx", PERF_SAMPLE_BRANCH_NO_TX},
	{"cond", PERF_SAMPLE_BRANCH_COND},
	{"ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP},
	{"call", PERF_SAMPLE_BRANCH_CALL},
	{"save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE},
	{"stack", PERF_SAMPLE_BRANCH_CALL_STACK},
	{"priv", PERF_SAMPLE_BRANCH_PRIV_SAVE},
};
#define NR_FILTERS (sizeof(filters) / sizeof(filters[0]))
#define PRIV_BITS (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

const char *pmc_branch_filter_name(uint64_t bit)
{
	for (size_t i = 0; i < NR_FILTERS; i++)
		if (filters[i].bit == bit)
			return filters[i].name;
	return NULL;
}

static int unknown(const char *str, size_t off, size_t len, struct pmc_parse_error *err)
{
	char name[96];
	int dist[3] = {0};

	snprintf(name, sizeof(name), "%.*s", (int)len, str + off);
	if (!err)
		return -PMC_E_PARSE;
	*err = (struct pmc_parse_error){.offset = (int)off};
	snprintf(err->msg, sizeof(err->msg),
		 "unknown branch filter '%s' (known: u k hv any any_call any_ret ind_call "
		 "ind_jmp call cond in_tx no_tx abort_tx stack save_type priv)",
		 name);
	for (size_t i = 0; i < NR_FILTERS; i++)
		pmc__suggest_add(err, dist, name, filters[i].name);
	return -PMC_E_PARSE;
}

int pmc_branch_filter_parse(const char *str, uint64_t *mode, struct pmc_parse_error *err)
{
	uint64_t m = 0;
	size_t off = 0;

	if (!str || !mode)
		return -EINVAL;
	for (;;) {
		size_t len = strcspn(str + off, ","), i;

		for (i = 0; i < NR_FILTERS; i++)
			if (strlen(filters[i].name) == len &&
			    !strncasecmp(str + off, filters[i].name, len))
				break;
		if (i == NR_FILTERS)
			return unknown(str, off, len, err);
		m |= filters[i].bit;
		if (!str[off + len])
			break;
		off += len + 1;
	}
	/* Privilege levels (or save_type/priv) alone: any branch at those levels, as perf. */
	if (!(m & ~(PRIV_BITS | PERF_SAMPLE_BRANCH_TYPE_SAVE | PERF_SAMPLE_BRANCH_PRIV_SAVE)))
		m |= PERF_SAMPLE_BRANCH_ANY;
	*mode = m;
	return 0;
}
