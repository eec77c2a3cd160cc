// SPDX-License-Identifier: MIT
/* Statistics: Student-t quantiles against published tables, and summaries. */
#include <errno.h>
#include <math.h>
#include <criterion/criterion.h>
#include <pmc/stat.h>

struct tq {
	double p, df, t;
};

/* Two-sided 95 %/99 % and one-sided 95 % critical values from standard t tables. */
static const struct tq table[] = {
	{0.975, 1, 12.706205}, {0.975, 2, 4.302653},   {0.975, 4, 2.776445},
	{0.975, 9, 2.262157},  {0.975, 10, 2.228139},  {0.975, 19, 2.093024},
	{0.975, 30, 2.042272}, {0.975, 120, 1.979930}, {0.995, 1, 63.656741},
	{0.995, 4, 4.604095},  {0.995, 19, 2.860935},  {0.95, 2, 2.919986},
	{0.95, 5, 2.015048},   {0.9, 3, 1.637744},     {0.975, 1000, 1.962339},
	{0.025, 4, -2.776445},
};

Test(stat, t_quantiles_match_tables)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		double t = pmc_t_quantile(table[i].p, table[i].df);

		cr_expect(fabs(t - table[i].t) < 1e-5, "t(%g, %g) = %.7f, table says %.6f",
			  table[i].p, table[i].df, t, table[i].t);
	}
}

Test(stat, t_quantile_rejects_bad_arguments)
{
	cr_expect(isnan(pmc_t_quantile(0, 3)));
	cr_expect(isnan(pmc_t_quantile(1, 3)));
	cr_expect(isnan(pmc_t_quantile(0.5, 0)));
	cr_expect(fabs(pmc_t_quantile(0.5, 7)) < 1e-9);
}

/*
 * Levels near 0 and near 100 %: with one degree of freedom t is Cauchy's, tan(pi (p - 1/2)),
 * so the quantile is known exactly. --ci 1e-9 gave a negative interval, and a quantile
 * above 1e12 was cut there.
 */
Test(stat, t_quantile_at_extreme_levels)
{
	static const double ps[] = {0.5 + 5e-12, 0.5 + 5e-10, 0.5 + 5e-8, 0.75,
				    0.9,	 1 - 5e-10,   1 - 5e-14};

	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		/* Near 1, from 1 - p: tan near pi/2 would magnify M_PI's own rounding. */
		double want =
			ps[i] < 0.75 ? tan(M_PI * (ps[i] - 0.5)) : 1 / tan(M_PI * (1 - ps[i]));
		double t = pmc_t_quantile(ps[i], 1);

		cr_expect(t > 0 && fabs(t - want) <= 1e-6 * want, "t(%.17g, 1) = %.10g, want %.10g",
			  ps[i], t, want);
	}
}

Test(stat, tiny_level_gives_a_small_nonnegative_interval)
{
	double v[] = {10, 20, 30, 40};
	struct pmc_summary s;

	cr_assert_eq(pmc_summarize(v, 4, 1e-9, &s), 0);
	cr_expect(s.ci > 0 && s.ci < 1e-6, "ci %g", s.ci);
	cr_assert_eq(pmc_summarize(v, 4, 0.9999999999999, &s), 0);
	cr_expect(s.ci > 1e3 && isfinite(s.ci), "ci %g", s.ci);
}

Test(stat, summary_of_constant_values_has_zero_interval)
{
	double v[] = {1000, 1000, 1000, 1000, 1000};
	struct pmc_summary s;

	cr_assert_eq(pmc_summarize(v, 5, 0.95, &s), 0);
	cr_expect_eq(s.mean, 1000);
	cr_expect_eq(s.ci, 0);
	cr_expect_eq(s.ci_pct, 0);
	cr_expect_eq(s.stddev, 0);
}

Test(stat, summary_of_one_to_five)
{
	double v[] = {5, 1, 4, 2, 3};
	struct pmc_summary s;

	cr_assert_eq(pmc_summarize(v, 5, 0.95, &s), 0);
	cr_expect_eq(s.n, 5);
	cr_expect_float_eq(s.mean, 3.0, 1e-12);
	cr_expect_float_eq(s.median, 3.0, 1e-12);
	cr_expect_float_eq(s.stddev, 1.5811388300841898, 1e-12);
	cr_expect_float_eq(s.ci, 2.776445105 * 1.5811388300841898 / sqrt(5), 1e-6);
	cr_expect_float_eq(s.ci_pct, 100 * s.ci / 3.0, 1e-9);
	cr_expect_eq(s.min, 1);
	cr_expect_eq(s.max, 5);
	cr_expect_eq(v[0], 5, "the input is not reordered");
}

Test(stat, even_count_median_and_99_percent)
{
	double v[] = {10, 20, 30, 40};
	struct pmc_summary s95, s99;

	cr_assert_eq(pmc_summarize(v, 4, 0.95, &s95), 0);
	cr_assert_eq(pmc_summarize(v, 4, 0.99, &s99), 0);
	cr_expect_float_eq(s95.median, 25.0, 1e-12);
	cr_expect(s99.ci > s95.ci, "a 99 %% interval is wider than a 95 %% one");
	cr_expect_float_eq(s99.ci / s95.ci, 5.840909 / 3.182446, 1e-5);
}

Test(stat, single_value_and_errors)
{
	double v[] = {42};
	struct pmc_summary s;

	cr_assert_eq(pmc_summarize(v, 1, 0.95, &s), 0);
	cr_expect_eq(s.mean, 42);
	cr_expect_eq(s.ci, 0);
	cr_expect_eq(pmc_summarize(v, 0, 0.95, &s), -EINVAL);
	cr_expect_eq(pmc_summarize(v, 1, 1.5, &s), -EINVAL);
	cr_expect_eq(pmc_summarize(v, 1, 0, &s), -EINVAL);
}
