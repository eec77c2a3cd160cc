// SPDX-License-Identifier: MIT
/* Validates the data-only name tables of lib/event/tables.c against perf_event.h and each other. */
#include <criterion/criterion.h>
#include <string.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include "event/parse.h"

Test(event_tables, generic_names_unique_and_valid)
{
	bool hw_seen[PERF_COUNT_HW_MAX] = {0}, sw_seen[PERF_COUNT_SW_MAX] = {0};

	for (size_t i = 0; i < pmc__event_nr_generic; i++) {
		const struct pmc_event_name *e = &pmc__event_generic[i];

		cr_expect_not_null(e->desc, "%s has no description", e->name);
		for (size_t j = i + 1; j < pmc__event_nr_generic; j++)
			cr_expect_str_neq(e->name, pmc__event_generic[j].name, "duplicate name");
		if (e->type == PERF_TYPE_HARDWARE) {
			cr_assert_lt(e->config, PERF_COUNT_HW_MAX, "%s", e->name);
			hw_seen[e->config] = true;
		} else {
			cr_assert_eq(e->type, PERF_TYPE_SOFTWARE, "%s: type %u", e->name, e->type);
			cr_assert_lt(e->config, PERF_COUNT_SW_MAX, "%s", e->name);
			sw_seen[e->config] = true;
		}
		/* A generic name must parse to itself, not be shadowed by a cache name. */
		cr_expect_eq(pmc__event_find_generic(e->name, strlen(e->name)), e, "%s", e->name);
	}
	for (int c = 0; c < PERF_COUNT_HW_MAX; c++)
		cr_expect(hw_seen[c], "hardware config %d has no name", c);
	for (int c = 0; c < PERF_COUNT_SW_MAX; c++)
		cr_expect(sw_seen[c], "software config %d has no name", c);
}

static void expect_unique(const char *const (*tbl)[PMC_CACHE_MAX_ALIASES], int rows)
{
	for (int r = 0; r < rows; r++) {
		cr_expect_not_null(tbl[r][0], "row %d has no canonical name", r);
		for (int a = 0; a < PMC_CACHE_MAX_ALIASES && tbl[r][a]; a++)
			for (int r2 = 0; r2 < rows; r2++)
				for (int a2 = 0; a2 < PMC_CACHE_MAX_ALIASES && tbl[r2][a2]; a2++)
					cr_expect(r == r2 && a == a2
							  ? 1
							  : strcmp(tbl[r][a], tbl[r2][a2]),
						  "alias '%s' used twice", tbl[r][a]);
	}
}

Test(event_tables, cache_aliases_unique)
{
	expect_unique(pmc__cache_names, PERF_COUNT_HW_CACHE_MAX);
	expect_unique(pmc__cache_op_names, PERF_COUNT_HW_CACHE_OP_MAX);
	expect_unique(pmc__cache_result_names, PERF_COUNT_HW_CACHE_RESULT_MAX);
	for (int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		cr_expect(pmc__cache_ops_valid[c] & 1u << PERF_COUNT_HW_CACHE_OP_READ,
			  "every cache can count reads");
}

/* Every canonical cache name round-trips to its config; invalid ops are refused. */
Test(event_tables, cache_names_round_trip)
{
	char name[64];
	uint64_t config;

	for (unsigned c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (unsigned op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++)
			for (unsigned r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				int want =
					pmc__cache_ops_valid[c] & 1u << op ? 0 : -PMC_E_UNSUPPORTED;

				pmc__event_cache_name(c, op, r, name, sizeof(name));
				cr_expect_null(pmc__event_find_generic(name, strlen(name)), "%s",
					       name);
				cr_expect_eq(pmc__event_find_cache(name, strlen(name), &config),
					     want, "%s", name);
				if (!want)
					cr_expect_eq(config, c | op << 8 | r << 16, "%s", name);
			}
}

static int count_name(const struct pmc_event_info *info, void *arg)
{
	int *n = arg;

	cr_expect_not_null(info->name);
	cr_expect(info->kind == PMC_EV_HARDWARE || info->kind == PMC_EV_SOFTWARE ||
		  info->kind == PMC_EV_CACHE || info->kind == PMC_EV_TOOL);
	(*n)++;
	return 0;
}

Test(event_tables, walk_counts)
{
	int n = 0, caches = 0;

	for (unsigned c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		caches += __builtin_popcount(pmc__cache_ops_valid[c]) *
			  PERF_COUNT_HW_CACHE_RESULT_MAX;
	cr_assert_eq(pmc__event_for_each_generic(count_name, &n), 0);
	cr_expect_eq(n, (int)pmc__event_nr_generic + (int)pmc__event_nr_tool + caches);
}
