/* SPDX-License-Identifier: MIT */
/* Statistics of repeated measurements: mean, spread, median and Student-t intervals. */
#ifndef PMC_STAT_H
#define PMC_STAT_H

#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pmc_summary {
	size_t n;
	double mean;
	double stddev; /* sample standard deviation (n - 1); 0 when n < 2 */
	double median;
	double min, max;
	double ci;     /* half-width of the confidence interval of the mean */
	double ci_pct; /* ci as a percentage of |mean|; 0 when the mean is 0 */
};

/*
 * Summarises values[0..n) at confidence level (0.95 for 95 %): the interval is
 * mean ± t(1-(1-level)/2, n-1) · s/√n, as run_p5mon reported it. With n < 2 the
 * interval is 0. Returns 0, -EINVAL for n == 0 or a level outside (0, 1), -ENOMEM.
 */
PMC_API int pmc_summarize(const double *values, size_t n, double level, struct pmc_summary *out);

/* The p-quantile of Student's t distribution with df degrees of freedom (df > 0, 0 < p < 1). */
PMC_API double pmc_t_quantile(double p, double df);

#ifdef __cplusplus
}
#endif
#endif /* PMC_STAT_H */
