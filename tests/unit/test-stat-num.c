// SPDX-License-Identifier: MIT
/*
 * pmc stat's numbers for people (tools/pmc/common/stat-num.c, the CLI's), from tables of
 * {input, expected} rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <criterion/criterion.h>
#include "stat-num.h"

struct num_case {
	double v;
	int decimals;
	const char *sep, *point, *grouping, *want;
};

static const struct num_case nums[] = {
	/* The C locale, and --no-big-num: no separators. */
	{0, 0, "", ".", "", "0"},
	{1234567, 0, "", ".", "", "1234567"},
	{0.51234, 2, "", ".", "", "0.51"},
	/* en_US: "," every 3 digits. */
	{999, 0, ",", ".", "\3", "999"},
	{1000, 0, ",", ".", "\3", "1,000"},
	{1234567, 0, ",", ".", "\3", "1,234,567"},
	{1234567.891, 2, ",", ".", "\3", "1,234,567.89"},
	{-1234567, 0, ",", ".", "\3", "-1,234,567"},
	{999999.996, 2, ",", ".", "\3", "1,000,000.00"}, /* rounding carries into a group */
	{123456, 0, ",", ".", "\3", "123,456"},
	/* de_DE: "." groups, "," before the decimals. */
	{1234567.5, 1, ".", ",", "\3", "1.234.567,5"},
	/* en_IN: 3, then 2 repeated. */
	{123456789, 0, ",", ".", "\3\2", "12,34,56,789"},
	/* CHAR_MAX ends the grouping: one separator only. */
	{123456789, 0, ",", ".", "\3\177", "123456,789"},
	/* A separator of more than one byte (U+202F in fr_FR). */
	{1234567, 0, "\xe2\x80\xaf", ",", "\3",
	 "1\xe2\x80\xaf"
	 "234\xe2\x80\xaf"
	 "567"},
	{1.0 / 0.0, 0, ",", ".", "\3", "inf"},
	{-1.0 / 0.0, 0, ",", ".", "\3", "-inf"},
	{0.0 / 0.0, 2, ",", ".", "\3", "nan"},
};

Test(stat_num, numbers)
{
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		const struct num_case *c = &nums[i];
		struct stat_numfmt nf = {0};
		char buf[64];

		snprintf(nf.sep, sizeof(nf.sep), "%s", c->sep);
		snprintf(nf.point, sizeof(nf.point), "%s", c->point);
		snprintf(nf.grouping, sizeof(nf.grouping), "%s", c->grouping);
		stat_num(buf, sizeof(buf), c->v, c->decimals, &nf);
		cr_expect_str_eq(buf, c->want, "row %zu: %.3f", i, c->v);
	}
}

Test(stat_num, short_buffer_is_cut_not_overrun)
{
	struct stat_numfmt nf = {.sep = ",", .point = ".", .grouping = "\3"};
	char buf[6];

	stat_num(buf, sizeof(buf), 1234567, 0, &nf);
	cr_expect_str_eq(buf, "1,234");
}

Test(stat_num, c_locale_has_no_separators)
{
	struct stat_numfmt nf;
	char buf[64];

	setenv("LC_ALL", "C", 1);
	stat_numfmt__init(&nf, true);
	cr_expect_str_eq(stat_num(buf, sizeof(buf), 1234567.25, 2, &nf), "1234567.25");
}

Test(stat_num, footer_precision)
{
	static const struct {
		double sd;
		int want;
	} rows[] = {{0, 0}, {2, 0}, {1, 0}, {0.5, 1}, {0.05, 2}, {0.0000677, 5}};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		cr_expect_eq(stat_num_precision(rows[i].sd), rows[i].want, "sd %g", rows[i].sd);
}
