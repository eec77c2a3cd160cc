// SPDX-License-Identifier: MIT
/* Calibration's distributions: median, p90, p99, max and a histogram of a set of samples. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "validate/calibrate.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double quantile(const double *sorted, size_t n, double q)
{
	size_t i = (size_t)ceil(q * (double)n);

	return sorted[i ? (i > n ? n : i) - 1 : 0];
}

/* The histogram has 8 equal bins from min to p99, then "more". */
void pmc__calibrate_dist(double *v, size_t n, struct pmc_calibrate_dist *d)
{
	double lo, hi, w;

	memset(d, 0, sizeof(*d));
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp);
	lo = v[0];
	hi = quantile(v, n, 0.99);
	w = hi > lo ? (hi - lo) / 8 : 1;
	for (size_t i = 0; i < n; i++)
		d->counts[v[i] > hi ? 8 : (size_t)fmin(7, floor((v[i] - lo) / w))]++;
	for (int b = 0; b < PMC_CALIBRATE_BINS; b++)
		d->edges[b] = lo + b * w;
	d->n = n;
	d->min = v[0];
	d->median = quantile(v, n, 0.5);
	d->p90 = quantile(v, n, 0.9);
	d->p99 = hi;
	d->max = v[n - 1];
}
