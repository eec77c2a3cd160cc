// SPDX-License-Identifier: MIT
/*
 * The statistics of a value over ranks (docs/mpi.md): sum, min and max with their ranks,
 * mean, sample standard deviation, coefficient of variation, imbalance (max / mean, as
 * LIKWID's and Caliper's tables), load balance (mean / max, the POP project's metric) and
 * percentiles by linear interpolation between closest ranks (Hyndman and Fan's type 7, R's
 * and NumPy's default).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "merge/merge.h"

const double pmc__merge_pct[MERGE_NR_PCT] = {10, 25, 50, 75, 90};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The p-th percentile of sorted[n] (n >= 1). */
static double percentile(const double *sorted, size_t n, double p)
{
	double h = (double)(n - 1) * p / 100.0;
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

/* max / mean and mean / max, NAN where a quotient has no meaning (a zero divisor). */
static void balance(struct merge_stat *s)
{
	s->cv = s->mean != 0 ? s->stddev / fabs(s->mean) : NAN;
	s->imbalance = s->mean != 0 ? s->max / s->mean : NAN;
	s->load_balance = s->max != 0 ? s->mean / s->max : NAN;
}

size_t pmc__merge_stat(const double *values, const int *ranks, size_t n, double *scratch,
		       struct merge_stat *s)
{
	/* In long double (to 1e4932 here): ranks of 1.7e308 each have a mean, though their
	 * sum is past the largest double (it then has no value, docs/mpi.md). */
	long double sum = 0, mean, ss = 0;

	memset(s, 0, sizeof(*s));
	s->min_rank = s->max_rank = -1;
	for (size_t i = 0; i < n; i++) {
		double v = values[i];

		if (isnan(v))
			continue;
		if (!s->n || v < s->min) {
			s->min = v;
			s->min_rank = ranks[i];
		}
		if (!s->n || v > s->max) {
			s->max = v;
			s->max_rank = ranks[i];
		}
		sum += v;
		scratch[s->n++] = v;
	}
	if (!s->n)
		return 0;
	s->sum = (double)sum;
	mean = sum / (long double)s->n;
	s->mean = (double)mean;
	for (size_t i = 0; i < s->n; i++)
		ss += (scratch[i] - mean) * (scratch[i] - mean);
	s->stddev = s->n > 1 ? (double)sqrtl(ss / (long double)(s->n - 1)) : 0;
	balance(s);
	qsort(scratch, s->n, sizeof(*scratch), cmp_double);
	for (int k = 0; k < MERGE_NR_PCT; k++)
		s->pct[k] = percentile(scratch, s->n, pmc__merge_pct[k]);
	return s->n;
}
