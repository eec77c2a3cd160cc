// SPDX-License-Identifier: MIT
/*
 * The intervals of metrics (pmc_metric__summarize(), lib/metric/summary.c) over made-up counts
 * whose answers are worked out by hand: the repetitions' t interval when the inputs share a pass,
 * the delta method across passes (each pass's variance, Welch-Satterthwaite's degrees of
 * freedom) and over scaled inputs (a pass's covariances kept), one run, unavailable inputs.
 */
#include <math.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>

static struct pmc_metrics *set;

/* A set with one metric, "m = expr". */
static const struct pmc_metric *metric(const char *def)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .no_shipped = true};

	cr_assert_eq(pmc_metrics__new(&o, NULL, &set), 0);
	cr_assert_eq(pmc_metrics__define(set, def, NULL), 0);
	return pmc_metrics__find(set, "m");
}

/* The test's result: its values are freed after the test. */
static struct pmc_metric_summary last;

static void done(void)
{
	pmc_metric_summary__fini(&last);
	pmc_metrics__delete(set);
}

static struct pmc_metric_summary run(const struct pmc_metric *m, const struct pmc_metric_counts *in,
				     size_t nr)
{
	struct pmc_metric_summary_opts o = {.sz = sizeof(o), .level = 0.95};
	struct pmc_metric_summary r = {.sz = sizeof(r)};

	cr_assert_eq(pmc_metric__summarize(m, in, nr, &o, &r), 0);
	last = r;
	return r;
}

static const double a3[] = {10, 12, 14}, b3[] = {5, 5, 5}, b3v[] = {4, 5, 6};

Test(stat_metric, one_pass_is_per_repetition, .fini = done)
{
	struct pmc_metric_counts in[] = {{"a", 0, true, NULL, 3, a3, false},
					 {"b", 0, true, NULL, 3, b3, false}};
	struct pmc_metric_summary r = run(metric("m = a / b"), in, 2);

	/* Values 2, 2.4, 2.8: s = 0.4; t(0.975, 2) = 4.302652729911275. */
	cr_expect_eq(r.method, PMC_METRIC_PER_REP);
	cr_expect_eq(r.n, 3);
	cr_expect_float_eq(r.v.value, 2.4, 1e-12);
	cr_expect_float_eq(r.ci, 4.302652729911275 * 0.4 / sqrt(3), 1e-9);
	cr_expect_float_eq(r.ci_pct, 100 * r.ci / 2.4, 1e-9);
	cr_expect_str_eq(r.inputs, "a, b");
	cr_expect_eq(r.first, 0);
	/* each repetition's value, for the page's dots */
	cr_assert_not_null(r.values);
	cr_expect_float_eq(r.values[0], 2.0, 1e-12);
	cr_expect_float_eq(r.values[1], 2.4, 1e-12);
	cr_expect_float_eq(r.values[2], 2.8, 1e-12);
}

Test(stat_metric, passes_are_the_delta_method, .fini = done)
{
	struct pmc_metric_counts in[] = {{"a", 0, true, NULL, 3, a3, false},
					 {"b", 1, true, NULL, 3, b3v, false}};
	struct pmc_metric_summary r = run(metric("m = a / b"), in, 2);
	/* d/da = 1/5, d/db = -12/25; var(a) = 4, var(b) = 1; each over n = 3. */
	double va = 0.04 * 4 / 3, vb = 0.2304 * 1 / 3, v = va + vb;
	double df = v * v / (va * va / 2 + vb * vb / 2);

	cr_expect_eq(r.method, PMC_METRIC_DELTA);
	cr_expect_float_eq(r.v.value, 2.4, 1e-12);
	cr_expect_float_eq(r.ci, pmc_t_quantile(0.975, df) * sqrt(v), 1e-6);
	cr_expect_null(r.values); /* no repetition has both inputs: no value of its own */
}

Test(stat_metric, scaled_inputs_keep_their_covariance, .fini = done)
{
	static const double a[] = {2, 4, 6}, b[] = {1, 2, 3};
	struct pmc_metric_counts in[] = {{"a", 0, true, NULL, 3, a, true},
					 {"b", 0, true, NULL, 3, b, true}};
	struct pmc_metric_summary r = run(metric("m = a / b"), in, 2);

	/* a = 2b in every repetition: the linearised ratio 0.5 a - b is 0 in each. */
	cr_expect_eq(r.method, PMC_METRIC_DELTA);
	cr_expect_float_eq(r.v.value, 2, 1e-12);
	cr_expect_float_eq(r.ci, 0, 1e-9);
}

Test(stat_metric, unequal_repetitions_are_the_delta_method, .fini = done)
{
	struct pmc_metric_counts in[] = {{"a", 0, true, NULL, 3, a3, false},
					 {"b", 0, true, NULL, 2, b3v, false}};
	struct pmc_metric_summary r = run(metric("m = a / b"), in, 2);

	cr_expect_eq(r.method, PMC_METRIC_DELTA);
}

Test(stat_metric, one_run_has_no_interval, .fini = done)
{
	struct pmc_metric_counts in[] = {{"a", 0, true, NULL, 1, a3, false},
					 {"b", 1, true, NULL, 1, b3, false}};
	struct pmc_metric_summary r = run(metric("m = a / b"), in, 2);

	cr_expect_eq(r.method, PMC_METRIC_ONE_RUN);
	cr_expect_float_eq(r.v.value, 2, 1e-12);
	cr_expect_eq(r.ci, 0);
}

Test(stat_metric, weak_group_names_match, .fini = done)
{
	struct pmc_metric_counts in[] = {{"a:W", 0, true, NULL, 3, a3, false},
					 {"b:W", 0, true, NULL, 3, b3, false}};
	struct pmc_metric_summary r = run(metric("m = a / b"), in, 2);

	cr_expect_float_eq(r.v.value, 2.4, 1e-12);
}

Test(stat_metric, unavailable_inputs_say_why, .fini = done)
{
	struct pmc_metric_counts in[] = {{"a", 0, true, NULL, 3, a3, false},
					 {"b", -1, false, "b is not counted here", 0, NULL, false}};
	struct pmc_metric_summary r = run(metric("m = a / b + c"), in, 2);

	cr_expect_eq(r.v.status, PMC_METRIC_UNAVAILABLE);
	cr_expect(strstr(r.v.why, "b is not counted here"), "%s", r.v.why);
	cr_expect_str_eq(r.inputs, "a, b, c");
}

Test(stat_metric, a_zero_divisor_is_na, .fini = done)
{
	static const double z[] = {0, 0, 0};
	struct pmc_metric_counts in[] = {{"a", 0, true, NULL, 3, a3, false},
					 {"b", 0, true, NULL, 3, z, false}};
	struct pmc_metric_summary r = run(metric("m = a / b"), in, 2);

	cr_expect_eq(r.v.status, PMC_METRIC_NA);
	cr_expect_eq(r.method, PMC_METRIC_PER_REP);
}
