// SPDX-License-Identifier: MIT
/*
 * Validation's fit and classes (lib/validate/fit.c, docs/accuracy.md "Classes"), from tables
 * of points: a test the classifier could not have while it lived in the CLI.
 */
#include <math.h>
#include <string.h>
#include <criterion/criterion.h>
#include <pmc/validate.h>
#include "validate/validate.h"

#define N 6

static const struct {
	const char *what;
	double per_size, startup;
	int nr;
	double x[N], y[N];
	enum pmc_validate_class cls;
	double factor, overhead; /* NAN: not checked */
} cases[] = {
	{"exact: factor 1, an unknown constant start-up",
	 4,
	 NAN,
	 3,
	 {4e5, 8e5, 12e5},
	 {4e5 + 90, 8e5 + 90, 12e5 + 90},
	 PMC_VALIDATE_EXACT,
	 1,
	 90},
	{"bias: the overhead past a known start-up",
	 1,
	 0,
	 3,
	 {1000, 2000, 3000},
	 {1004, 2004, 3004},
	 PMC_VALIDATE_BIAS,
	 1,
	 4},
	{"multiplicative: 2% more per unit",
	 1,
	 0,
	 3,
	 {1000, 2000, 3000},
	 {1020, 2040, 3060},
	 PMC_VALIDATE_MULTIPLICATIVE,
	 1.02,
	 0},
	{"random: residuals without a trend",
	 1,
	 NAN,
	 6,
	 {1000, 2000, 3000, 1000, 2000, 3000},
	 {1003, 1998, 3001, 997, 2002, 2999},
	 PMC_VALIDATE_RANDOM,
	 NAN,
	 NAN},
	{"flat and exact: nothing predicted to grow, nothing counted",
	 0,
	 0,
	 3,
	 {0, 0, 0},
	 {0, 0, 0},
	 PMC_VALIDATE_EXACT,
	 NAN,
	 0},
	{"flat with a bias", 0, 0, 3, {0, 0, 0}, {3, 3, 3}, PMC_VALIDATE_BIAS, NAN, 3},
	{"unknown: no points", 1, 0, 0, {0}, {0}, PMC_VALIDATE_UNKNOWN, NAN, NAN},
	{"unknown: one size only",
	 1,
	 0,
	 2,
	 {1000, 1000},
	 {1000, 1000},
	 PMC_VALIDATE_UNKNOWN,
	 NAN,
	 NAN},
	{"unknown: nothing predicted",
	 NAN,
	 NAN,
	 2,
	 {1000, 2000},
	 {5, 7},
	 PMC_VALIDATE_UNKNOWN,
	 NAN,
	 NAN},
};

Test(validate, each_table_of_points_gets_its_class)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double x[N], y[N];
		struct pmc_validate_row r = {.per_size = cases[i].per_size,
					     .startup = cases[i].startup,
					     .nr = cases[i].nr,
					     .x = x,
					     .y = y};

		memcpy(x, cases[i].x, sizeof(x));
		memcpy(y, cases[i].y, sizeof(y));
		pmc__validate_fit_row(&r, 0.95, NULL);
		cr_expect_eq(r.cls, cases[i].cls, "%s: %s, expected %s (%s)", cases[i].what,
			     pmc_validate_class_name(r.cls), pmc_validate_class_name(cases[i].cls),
			     r.why);
		if (!isnan(cases[i].factor))
			cr_expect(fabs(r.factor - cases[i].factor) < 1e-9, "%s: factor %g",
				  cases[i].what, r.factor);
		if (!isnan(cases[i].overhead))
			cr_expect(fabs(r.overhead - cases[i].overhead) < 1e-6, "%s: overhead %g",
				  cases[i].what, r.overhead);
	}
}

Test(validate, a_row_the_backend_refused_keeps_its_reason)
{
	struct pmc_validate_row r = {.per_size = 1, .cls = PMC_VALIDATE_UNSUPPORTED};

	strcpy(r.why, "no such event");
	pmc__validate_fit_row(&r, 0.95, NULL);
	cr_expect_eq(r.cls, PMC_VALIDATE_UNSUPPORTED);
	cr_expect_str_eq(r.why, "no such event");
}

Test(validate, class_names_are_the_trust_files)
{
	static const char *const names[] = {"exact",  "bias",	 "multiplicative",
					    "random", "unknown", "unsupported"};

	for (int c = PMC_VALIDATE_EXACT; c <= PMC_VALIDATE_UNSUPPORTED; c++)
		cr_expect_str_eq(pmc_validate_class_name(c), names[c]);
	cr_expect_str_eq(pmc_validate_class_name((enum pmc_validate_class)42), "?");
}
