// SPDX-License-Identifier: MIT
/*
 * Counts estimated from samples, with their intervals (docs/accuracy.md, "Sampling
 * intervals"), and the comparisons that validation's sampling mode makes: of estimates with
 * counted values (the error of one, and over many the coverage of the intervals and the bias
 * of the period), and of precise with imprecise samples (skid).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The statuses before an estimate is tried: what the file says went missing or was exact. */
static bool check_file(const struct pmc_report *r, size_t ai, struct pmc_estimate_check *c)
{
	const struct perf_event_attr *a = &r->attrs[ai];
	uint64_t k = r->total_samples[ai];

	c->lost = r->nr_lost;
	c->throttled = r->throttled[ai];
	if (r->branch_mode) {
		c->status = PMC_ESTIMATE_BRANCHES;
		snprintf(c->reason, sizeof(c->reason),
			 "no estimate: the entries are branches of the sampled stacks, each "
			 "counting 1");
	} else if (!k) {
		c->status = PMC_ESTIMATE_NO_SAMPLE;
		snprintf(c->reason, sizeof(c->reason), "no estimate: no sample");
	} else if (c->lost) {
		c->status = PMC_ESTIMATE_LOST;
		snprintf(c->reason, sizeof(c->reason),
			 "no estimate: the kernel lost %" PRIu64 " samples", c->lost);
	} else if (c->throttled) {
		c->status = PMC_ESTIMATE_THROTTLED;
		snprintf(c->reason, sizeof(c->reason),
			 "no estimate: the kernel throttled sampling %" PRIu64
			 " time%s (no samples while throttled)",
			 c->throttled, c->throttled == 1 ? "" : "s");
	} else if (!a->freq && r->total_period[ai] == k) {
		/*
		 * Every sample's period is 1: -c 1, or a tracepoint or software event in
		 * fixed-period mode, whose every hit the kernel samples whatever the period.
		 */
		c->status = PMC_ESTIMATE_EXACT;
		c->est.lo = c->est.hi = (double)k;
	} else {
		return false;
	}
	return true;
}

void pmc__report_check(struct pmc_report *r, size_t ai, struct pmc_estimate_check *c)
{
	uint64_t k = r->total_samples[ai], sum = r->total_period[ai];

	*c = (struct pmc_estimate_check){.status = PMC_ESTIMATE_INTERVAL};
	pmc_count_estimate(k, sum, REPORT_LEVEL, &c->est);
	if (check_file(r, ai, c)) {
		if (c->status != PMC_ESTIMATE_EXACT)
			c->est.lo = c->est.hi = 0;
		return;
	}
	c->adapting = r->attrs[ai].freq ? pmc__report_adapting(r, ai) : 0;
	if (k < PMC_ESTIMATE_MIN_SAMPLES) {
		c->status = PMC_ESTIMATE_FEW_SAMPLES;
		snprintf(c->reason, sizeof(c->reason),
			 "no estimate: only %" PRIu64 " sample%s (an estimate needs %d)", k,
			 k == 1 ? "" : "s", PMC_ESTIMATE_MIN_SAMPLES);
	} else if (100 * (double)c->adapting > PMC_ESTIMATE_MAX_ADAPTING * (double)sum) {
		c->status = PMC_ESTIMATE_ADAPTING;
		snprintf(c->reason, sizeof(c->reason),
			 "no estimate: the kernel was still adapting the period (frequency mode): "
			 "%.0f%% of the period sum is from samples taken while it changed the "
			 "period",
			 100 * (double)c->adapting / (double)sum);
	} else {
		pmc__report_entry_interval(c, k, sum, &c->est.lo, &c->est.hi);
		return;
	}
	c->est.lo = c->est.hi = 0;
}

bool pmc__report_entry_interval(const struct pmc_estimate_check *c, uint64_t samples,
				uint64_t period, double *lo, double *hi)
{
	struct pmc_count_estimate e;

	if (c->status == PMC_ESTIMATE_EXACT) {
		*lo = *hi = (double)samples;
		return true;
	}
	if (c->status != PMC_ESTIMATE_INTERVAL)
		return false;
	pmc_count_estimate(samples, period, c->est.level, &e);
	/* The unsettled samples' periods are unknown: each stood for 1 event up to its period. */
	*lo = e.lo - (double)c->adapting;
	*lo = *lo < (double)samples ? (double)samples : *lo;
	*hi = e.hi + (double)c->adapting;
	return true;
}

bool pmc__report_imprecise(const struct perf_event_attr *a)
{
	/* Timer-based software samples land on the interrupted instruction: no skid to note. */
	return a->precise_ip == 0 && a->type != PERF_TYPE_SOFTWARE &&
	       a->type != PERF_TYPE_TRACEPOINT;
}

int pmc_report__event_check(struct pmc_report *r, size_t event_idx, double level,
			    struct pmc_estimate_check *out)
{
	if (!r || !out || !(level == 0 || (level > 0 && level < 1)))
		return -EINVAL;
	if (event_idx >= r->nr_attrs)
		return -ERANGE;
	pmc__report_check(r, event_idx, out);
	if (level && level != REPORT_LEVEL && out->status == PMC_ESTIMATE_INTERVAL) {
		out->est.level = level;
		pmc__report_entry_interval(out, out->est.samples, out->est.estimate, &out->est.lo,
					   &out->est.hi);
	}
	return 0;
}

/* Two reports resolve symbols apart: the same function has the same name in both. */
static bool same_function(const struct pmc__sym *a, const struct pmc__sym *b)
{
	return a == b || (a && b && !strcmp(a->name, b->name));
}

/* The i-th kept sample of event ai, walking from *pos (samples of all events interleave). */
static const struct rsample *next_of(const struct pmc_report *r, size_t ai, size_t *pos)
{
	while (*pos < r->nr_seq && r->seq[*pos].attr_idx != ai)
		(*pos)++;
	return *pos < r->nr_seq ? &r->seq[(*pos)++] : NULL;
}

int pmc_report__skid(const struct pmc_report *precise, const struct pmc_report *imprecise,
		     size_t event_idx, struct pmc_skid *out)
{
	const struct rsample *a, *b;
	size_t pa = 0, pb = 0;
	double bytes = 0;

	if (!precise || !imprecise || !out || !precise->opts.keep_samples ||
	    !imprecise->opts.keep_samples)
		return -EINVAL;
	if (event_idx >= precise->nr_attrs || event_idx >= imprecise->nr_attrs)
		return -ERANGE;
	*out = (struct pmc_skid){0};
	for (;;) {
		a = next_of(precise, event_idx, &pa);
		b = next_of(imprecise, event_idx, &pb);
		if (!a || !b)
			break;
		out->pairs++;
		if (a->ip == b->ip)
			continue;
		out->moved++;
		out->other_symbol += !same_function(a->sym, b->sym);
		bytes += a->ip > b->ip ? (double)(a->ip - b->ip) : (double)(b->ip - a->ip);
	}
	while (a && next_of(precise, event_idx, &pa))
		out->unpaired++;
	while (b && next_of(imprecise, event_idx, &pb))
		out->unpaired++;
	out->unpaired += (a != NULL) + (b != NULL);
	out->mean_bytes = out->moved ? bytes / (double)out->moved : 0;
	return 0;
}
