// SPDX-License-Identifier: MIT
/* pmc_summarize(): mean, sample standard deviation, median, extremes, Student-t interval. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/stat.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int pmc_summarize(const double *values, size_t n, double level, struct pmc_summary *out)
{
	double sum = 0, ss = 0, *sorted;

	if (!n || !(level > 0 && level < 1))
		return -EINVAL;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, values, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	memset(out, 0, sizeof(*out));
	out->n = n;
	for (size_t i = 0; i < n; i++)
		sum += values[i];
	out->mean = sum / (double)n;
	/* Two passes: the deviations from the mean, so large counts keep their precision. */
	for (size_t i = 0; i < n; i++)
		ss += (values[i] - out->mean) * (values[i] - out->mean);
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
	free(sorted);
	if (n < 2)
		return 0;
	out->stddev = sqrt(ss / (double)(n - 1));
	out->ci = pmc_t_quantile(1 - (1 - level) / 2, (double)(n - 1)) * out->stddev /
		  sqrt((double)n);
	if (out->mean != 0)
		out->ci_pct = 100.0 * out->ci / fabs(out->mean);
	return 0;
}
