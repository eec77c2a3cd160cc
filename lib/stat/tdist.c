// SPDX-License-Identifier: MIT
/*
 * Student's t distribution: the CDF through the regularised incomplete beta function
 * (continued fraction, modified Lentz), and its quantile by bracketing and bisection
 * refined with Newton steps. Accurate to about 1e-10, more than a confidence interval
 * needs; tests compare it with published t tables.
 *
 * Written here rather than linked because of licences: libpmc is MIT, and the C libraries
 * Debian ships with a t quantile are GPL: GSL's gsl_cdf_tdist_Pinv() (libgsl, GPL-3+) and
 * R's standalone qt() (r-mathlib's libRmath, GPL-2+); linking either would make every
 * program linked with libpmc GPL. Boost.Math's (Boost licence) is C++ only. The method is
 * textbook numerics (the continued fraction as in Numerical Recipes' betacf, written anew),
 * small enough to keep here.
 */
#include <math.h>
#include <pmc/stat.h>

/* Continued fraction of the incomplete beta function (Numerical Recipes' betacf form). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	d = 1.0 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		d = 1.0 + aa * d;
		c = 1.0 + aa / c;
		d = 1.0 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		d = 1.0 + aa * d;
		c = 1.0 + aa / c;
		d = 1.0 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1.0) < 1e-15)
			break;
	}
	return h;
}

/* The regularised incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

/*
 * P(0 < T < t) and P(T > t) for t >= 0, each from its own incomplete beta so that neither
 * is a difference of numbers near 1: a level of 1e-9 % asks for the first near 0, a level
 * of 99.99999999999 % for the second near 0, and 1 - (something near 1) keeps no digits.
 */
static double t_center(double t, double df)
{
	return 0.5 * beta_inc(0.5, df / 2.0, t * t / (df + t * t));
}

static double t_tail(double t, double df)
{
	return 0.5 * beta_inc(df / 2.0, 0.5, df / (df + t * t));
}

static double t_pdf(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI) -
		   (df + 1) / 2 * log1p(t * t / df));
}

/* How far t is below the quantile p >= 0.5 (negative below it); its slope is t_pdf(). */
static double t_residual(double t, double p, double df)
{
	return p < 0.75 ? t_center(t, df) - (p - 0.5) : (1 - p) - t_tail(t, df);
}

static double t_quantile(double p, double df)
{
	double lo = 0, hi = 1, t;

	while (t_residual(hi, p, df) < 0 && hi < 1e300)
		lo = hi, hi *= 2;
	for (int i = 0; i < 2000 && hi - lo > 1e-12 * hi; i++) {
		double mid = 0.5 * (lo + hi);

		if (t_residual(mid, p, df) < 0)
			lo = mid;
		else
			hi = mid;
	}
	t = 0.5 * (lo + hi);
	for (int i = 0; i < 3; i++) {
		double f = t_pdf(t, df), next = f > 0 ? t - t_residual(t, p, df) / f : t;

		if (!(next > lo && next < hi))
			break; /* a step out of the bracket is worse than none */
		t = next;
	}
	return t;
}

/*
 * A run asks for the same few quantiles again and again (one level, one n, every event,
 * metric and region), and each costs some fifty incomplete-beta evaluations: the last
 * ones asked are kept, per thread.
 */
#define T_MEMO 4
struct t_memo {
	double p, df, t;
};
static _Thread_local struct t_memo t_memo[T_MEMO];
static _Thread_local unsigned t_memo_next;

double pmc_t_quantile(double p, double df)
{
	double t;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -pmc_t_quantile(1 - p, df);
	for (unsigned i = 0; i < T_MEMO; i++)
		if (t_memo[i].p == p && t_memo[i].df == df)
			return t_memo[i].t;
	t = t_quantile(p, df);
	t_memo[t_memo_next] = (struct t_memo){p, df, t};
	t_memo_next = (t_memo_next + 1) % T_MEMO;
	return t;
}
