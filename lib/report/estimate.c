// SPDX-License-Identifier: MIT
/*
 * Counts estimated from samples, with their intervals (docs/accuracy.md, "Sampling
 * intervals"), and the comparisons of such estimates with counted values that validation's
 * sampling mode makes: the error of one estimate, and over many the coverage of the
 * intervals and the bias of the period.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <pmc/report.h>
#include <pmc/stat.h>
#include "report/report.h"

/* The p-quantile of the standard normal distribution (0.5 <= p < 1), by bisection of
 * Φ(z) = erfc(-z/√2)/2: 100 halvings of [0, 40] leave no error a double can show. */
static double normal_quantile(double p)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 100; i++) {
		double mid = 0.5 * (lo + hi);

		if (0.5 * erfc(-mid / M_SQRT2) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/*
 * The score interval of a Poisson mean from one observation k: the λ with
 * (k − λ)² ≤ z²·λ, i.e. k + z²/2 ± z·√(k + z²/4). Unlike k ± z·√k it is never below 0 and
 * keeps its level for small k.
 */
int pmc_count_estimate(uint64_t samples, uint64_t period_sum, double level,
		       struct pmc_count_estimate *e)
{
	double z, k = (double)samples, mean_period, half;

	if (level == 0)
		level = 0.95;
	if (!e || !(level > 0 && level < 1))
		return -EINVAL;
	*e = (struct pmc_count_estimate){
		.samples = samples, .estimate = period_sum, .level = level};
	if (!samples)
		return 0;
	z = normal_quantile(1 - (1 - level) / 2);
	mean_period = (double)period_sum / k;
	half = z * sqrt(k + z * z / 4);
	e->lo = (k + z * z / 2 - half) * mean_period;
	e->hi = (k + z * z / 2 + half) * mean_period;
	return 0;
}

int pmc_sampling_check(const struct pmc_count_estimate *e, uint64_t counted,
		       struct pmc_sampling_check *out)
{
	double c = (double)counted;

	if (!e || !out)
		return -EINVAL;
	*out = (struct pmc_sampling_check){0};
	out->error = (double)e->estimate - c;
	out->rel_error = counted ? out->error / c : 0;
	if (e->samples)
		out->z = out->error / ((double)e->estimate / sqrt((double)e->samples));
	out->covered = e->samples ? e->lo <= c && c <= e->hi : counted == 0;
	return 0;
}

int pmc_sampling_summarize(const struct pmc_sampling_check *v, size_t n, double level,
			   struct pmc_sampling_summary *out)
{
	struct pmc_summary s;
	double *rel, sq = 0;
	int err;

	if (!v || !n || !out)
		return -EINVAL;
	rel = malloc(n * sizeof(*rel));
	if (!rel)
		return -ENOMEM;
	*out = (struct pmc_sampling_summary){.n = n};
	for (size_t i = 0; i < n; i++) {
		rel[i] = v[i].rel_error;
		sq += rel[i] * rel[i];
		out->covered += v[i].covered;
	}
	err = pmc_summarize(rel, n, level ? level : 0.95, &s);
	free(rel);
	if (err)
		return err;
	out->coverage = (double)out->covered / (double)n;
	out->bias = s.mean;
	out->bias_ci = s.ci;
	out->rms_rel_error = sqrt(sq / (double)n);
	return 0;
}

int pmc_report__entry_estimate(struct pmc_report *r, size_t idx, double level,
			       struct pmc_count_estimate *e)
{
	struct pmc_report_entry ent;
	int err = pmc_report__entry(r, idx, &ent);

	return err ? err : pmc_count_estimate(ent.samples, ent.period, level, e);
}

int pmc_report__event_estimate(struct pmc_report *r, size_t event_idx, double level,
			       struct pmc_count_estimate *e)
{
	if (event_idx >= r->nr_attrs)
		return -ERANGE;
	return pmc_count_estimate(r->total_samples[event_idx], r->total_period[event_idx], level,
				  e);
}
