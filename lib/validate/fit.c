// SPDX-License-Identifier: MIT
/*
 * Validation's verdict (docs/accuracy.md, "Classes"): the least-squares fit of
 * reported = factor x predicted + overhead over every size and repetition, its residuals and
 * Student-t intervals, and the class that follows from them.
 */
#include <math.h>
#include <stdio.h>
#include "validate/validate.h"

static double t_of(double level, int dof)
{
	return dof > 0 ? pmc_t_quantile(0.5 + level / 2, dof) : 0;
}

/*
 * Pearson's r between the residuals and the page faults or interrupts counted alongside: the
 * known sources of overcounts. 0 when either does not vary.
 */
static double correlation(const double *a, const double *b, int n)
{
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;

	for (int i = 0; i < n; i++)
		ma += a[i] / n, mb += b[i] / n;
	for (int i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

/* The largest size's points: the "reported" column. */
static void largest(struct pmc_validate_row *r, double level)
{
	double sum = 0, ss = 0;
	int n = 0;

	r->big_x = -1;
	for (int i = 0; i < r->nr; i++)
		r->big_x = r->x[i] > r->big_x ? r->x[i] : r->big_x;
	for (int i = 0; i < r->nr; i++)
		if (r->x[i] == r->big_x)
			sum += r->y[i], n++;
	r->big_mean = sum / n;
	for (int i = 0; i < r->nr; i++)
		if (r->x[i] == r->big_x)
			ss += (r->y[i] - r->big_mean) * (r->y[i] - r->big_mean);
	r->big_ci = n > 1 ? t_of(level, n - 1) * sqrt(ss / (n - 1) / n) : 0;
}

/*
 * Nothing predicted to grow with the size (per_size 0): the count must stay as it is; its
 * level is the overhead and there is no factor.
 */
static void fit_flat(struct pmc_validate_row *r, double level)
{
	double ss = 0;

	r->factor = NAN;
	r->factor_ci = NAN;
	r->overhead = 0;
	for (int i = 0; i < r->nr; i++)
		r->overhead += r->y[i] / r->nr;
	for (int i = 0; i < r->nr; i++)
		ss += (r->y[i] - r->overhead) * (r->y[i] - r->overhead);
	r->resid_sd = r->nr > 1 ? sqrt(ss / (r->nr - 1)) : 0;
	r->overhead_ci = r->nr > 1 ? t_of(level, r->nr - 1) * r->resid_sd / sqrt(r->nr) : 0;
}

/* Returns the largest |residual|, or -1 when fewer than two sizes were counted. */
static double fit_line(struct pmc_validate_row *r, double level)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, ssr = 0, rmax = 0, t;
	int dof = r->nr - 2;

	for (int i = 0; i < r->nr; i++)
		mx += r->x[i] / r->nr, my += r->y[i] / r->nr;
	for (int i = 0; i < r->nr; i++) {
		sxx += (r->x[i] - mx) * (r->x[i] - mx);
		sxy += (r->x[i] - mx) * (r->y[i] - my);
	}
	if (sxx <= 0)
		return -1;
	r->factor = sxy / sxx;
	r->overhead = my - r->factor * mx;
	for (int i = 0; i < r->nr; i++) {
		double res = r->y[i] - (r->factor * r->x[i] + r->overhead);

		ssr += res * res;
		rmax = fabs(res) > rmax ? fabs(res) : rmax;
	}
	r->resid_sd = dof > 0 ? sqrt(ssr / dof) : 0;
	t = t_of(level, dof);
	r->factor_ci = t * r->resid_sd / sqrt(sxx);
	r->overhead_ci = t * r->resid_sd * sqrt(1.0 / r->nr + mx * mx / sxx);
	return rmax;
}

/*
 * The residuals' correlation with the page faults and the interrupts counted alongside (NAN
 * where either was not counted or the residuals are 0), and a note where one follows them.
 */
static void note_alongside(struct pmc_validate_row *r, const char *irq_source)
{
	double res[r->nr > 0 ? r->nr : 1];
	char note[2][160] = {"", ""};

	r->pf_r = r->irq_r = NAN;
	if (r->resid_sd == 0)
		return;
	for (int i = 0; i < r->nr; i++)
		res[i] = r->y[i] - (isnan(r->factor) ? 0 : r->factor * r->x[i]) - r->overhead;
	if (r->pf)
		r->pf_r = correlation(res, r->pf, r->nr);
	if (r->irq)
		r->irq_r = correlation(res, r->irq, r->nr);
	if (fabs(r->pf_r) >= 0.7)
		snprintf(note[0], sizeof(note[0]), "the page faults (r = %.2f)", r->pf_r);
	if (fabs(r->irq_r) >= 0.7)
		snprintf(note[1], sizeof(note[1]), "the interrupts, %s (r = %.2f)", irq_source,
			 r->irq_r);
	if (*note[0] || *note[1])
		snprintf(r->why, sizeof(r->why), "the residuals follow %s%s%s counted alongside",
			 note[0], *note[0] && *note[1] ? " and " : "", note[1]);
}

/*
 * Counts are integers: a residual under half a count is no residual, and a factor that moves
 * the largest prediction by less than half a count is 1. Deterministic points (no residual)
 * are exact, bias or multiplicative; noisy ones are multiplicative when the factor's interval
 * leaves out 1, bias when the overhead's leaves out the start-up, else random.
 */
void pmc__validate_fit_row(struct pmc_validate_row *r, double level, const char *irq_source)
{
	double rmax = 0, xmax = 0;
	bool factor_one, quiet;

	r->pf_r = r->irq_r = NAN;
	if (r->cls == PMC_VALIDATE_UNSUPPORTED || r->cls == PMC_VALIDATE_UNKNOWN)
		return;
	if (!r->nr) {
		r->cls = PMC_VALIDATE_UNKNOWN;
		snprintf(r->why, sizeof(r->why), "nothing was counted");
		return;
	}
	largest(r, level);
	if (isnan(r->per_size)) {
		r->factor = r->factor_ci = r->overhead = r->overhead_ci = r->resid_sd = NAN;
		snprintf(r->why, sizeof(r->why),
			 "nothing is predicted between the cache levels: reported, not classified");
		r->cls = PMC_VALIDATE_UNKNOWN;
		return;
	}
	if (r->per_size == 0) {
		fit_flat(r, level);
		for (int i = 0; i < r->nr; i++)
			rmax = fmax(rmax, fabs(r->y[i] - r->overhead));
	} else if ((rmax = fit_line(r, level)) < 0) {
		r->cls = PMC_VALIDATE_UNKNOWN;
		snprintf(r->why, sizeof(r->why), "fewer than two sizes were counted: no fit");
		return;
	}
	for (int i = 0; i < r->nr; i++)
		xmax = fmax(xmax, r->x[i]);
	quiet = rmax < 0.5;
	factor_one = isnan(r->factor) || fabs(r->factor - 1) * xmax < 0.5 ||
		     (!quiet && fabs(r->factor - 1) <= r->factor_ci);
	r->bias = isnan(r->startup) ? NAN : r->overhead - r->startup;
	if (!factor_one)
		r->cls = PMC_VALIDATE_MULTIPLICATIVE;
	else if (!isnan(r->bias) && fabs(r->bias) >= 0.5 &&
		 (quiet || fabs(r->bias) > r->overhead_ci))
		r->cls = PMC_VALIDATE_BIAS;
	else
		r->cls = quiet ? PMC_VALIDATE_EXACT : PMC_VALIDATE_RANDOM;
	note_alongside(r, irq_source);
}

void pmc_validate__fit(struct pmc_validate *v)
{
	for (size_t i = 0; i < v->nr_rows; i++)
		pmc__validate_fit_row(&v->rows[i], v->opts.level, v->irq_source);
}
