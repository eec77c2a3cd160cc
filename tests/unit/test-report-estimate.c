// SPDX-License-Identifier: MIT
/* Counts estimated from samples: the Poisson score interval, and the checks against counted
 * values that validation's sampling mode makes (docs/accuracy.md, "Sampling intervals"). */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <pmc/report.h>

/* Expected bounds from k + z²/2 ± z·√(k + z²/4), times the mean period, computed apart
 * (Python: statistics.NormalDist().inv_cdf). */
static const struct {
	uint64_t k, sum;
	double level, lo, hi;
} rows[] = {
	{100, 100000, 0.95, 82227.20043412788, 121614.25838656625},
	{1, 4000, 0.95, 706.0982197406123, 22659.737063035886},
	{100, 1000, 0.99, 773.4640436060165, 1292.8849224041958},
	{100, 100000, 0, 82227.20043412788, 121614.25838656625}, /* 0: the default, 95 % */
};

Test(estimate, score_interval)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_count_estimate e;

		cr_assert_eq(pmc_count_estimate(rows[i].k, rows[i].sum, rows[i].level, &e), 0);
		cr_expect_eq(e.samples, rows[i].k);
		cr_expect_eq(e.estimate, rows[i].sum);
		cr_expect(fabs(e.lo - rows[i].lo) < 1e-6 * rows[i].lo, "row %zu: lo %.6f, not %.6f",
			  i, e.lo, rows[i].lo);
		cr_expect(fabs(e.hi - rows[i].hi) < 1e-6 * rows[i].hi, "row %zu: hi %.6f, not %.6f",
			  i, e.hi, rows[i].hi);
	}
}

Test(estimate, no_samples_and_bad_levels)
{
	struct pmc_count_estimate e;

	cr_assert_eq(pmc_count_estimate(0, 0, 0.95, &e), 0);
	cr_expect(e.lo == 0 && e.hi == 0);
	cr_expect_eq(pmc_count_estimate(10, 100, 1, &e), -EINVAL);
	cr_expect_eq(pmc_count_estimate(10, 100, -0.5, &e), -EINVAL);
	cr_expect_eq(pmc_count_estimate(10, 100, NAN, &e), -EINVAL);
}

Test(estimate, check_against_a_count)
{
	struct pmc_count_estimate e;
	struct pmc_sampling_check c;

	pmc_count_estimate(100, 100000, 0.95, &e);
	cr_assert_eq(pmc_sampling_check(&e, 110000, &c), 0);
	cr_expect_eq(c.error, -10000);
	cr_expect(fabs(c.rel_error + 10000.0 / 110000) < 1e-12);
	cr_expect(fabs(c.z + 1.0) < 1e-12, "z %f: 10000 below, one standard error (10000)", c.z);
	cr_expect(c.covered);
	cr_assert_eq(pmc_sampling_check(&e, 130000, &c), 0);
	cr_expect(!c.covered, "130000 is above 121614");
	cr_assert_eq(pmc_sampling_check(&e, 82228, &c), 0);
	cr_expect(c.covered);
	cr_assert_eq(pmc_sampling_check(&e, 82227, &c), 0);
	cr_expect(!c.covered, "82227 is below 82227.2");
	pmc_count_estimate(0, 0, 0.95, &e);
	pmc_sampling_check(&e, 0, &c);
	cr_expect(c.covered && c.rel_error == 0 && c.z == 0);
}

Test(estimate, summary_of_runs)
{
	struct pmc_sampling_check v[4] = {
		{.rel_error = 0.1, .covered = true},
		{.rel_error = -0.1, .covered = true},
		{.rel_error = 0.3, .covered = false},
		{.rel_error = 0.1, .covered = true},
	};
	struct pmc_sampling_summary s;

	cr_assert_eq(pmc_sampling_summarize(v, 4, 0.95, &s), 0);
	cr_expect_eq(s.n, 4);
	cr_expect_eq(s.covered, 3);
	cr_expect(fabs(s.coverage - 0.75) < 1e-12);
	cr_expect(fabs(s.bias - 0.1) < 1e-12);
	/* sd of {0.1, -0.1, 0.3, 0.1} is 0.163299; t(0.975, 3) = 3.182446; /√4 */
	cr_expect(fabs(s.bias_ci - 3.182446305 * 0.16329931618 / 2) < 1e-6, "bias_ci %f",
		  s.bias_ci);
	cr_expect(fabs(s.rms_rel_error - sqrt(0.12 / 4)) < 1e-12);
	cr_expect_eq(pmc_sampling_summarize(v, 0, 0.95, &s), -EINVAL);
}
