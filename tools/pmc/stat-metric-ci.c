// SPDX-License-Identifier: MIT
/*
 * A metric's value and confidence interval from the counts of repetitions (docs/metrics.md,
 * "Statistics"): inputs of one pass give one metric value per repetition and the Student-t
 * interval of those; inputs of several passes (or scaled by multiplexing) give the value of
 * the means and an interval propagated by the delta method, the passes independent.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stat-metric.h"

/*
 * The inputs of the metric being computed, and the value each has in this evaluation. The
 * first 64 inputs take part in the delta method's derivatives (a metric of more events has
 * its other inputs held at their means there; no shipped formula has that many).
 */
struct inputs {
	const struct metric_counts *c;
	long idx[64];	      /* its inputs' indices into c, -1 when c lacks it */
	const char *name[64]; /* as the formula names them (valid while computing) */
	size_t nr;
	double *x; /* [c->nr]: the value each count stands at now */
};

static long find(const struct metric_counts *c, const char *event)
{
	size_t len = strlen(event);

	for (size_t i = 0; i < c->nr; i++)
		if (!strcmp(c->in[i].name, event) ||
		    (!strncmp(c->in[i].name, event, len) && !strcmp(c->in[i].name + len, ":W")))
			return (long)i;
	return -1;
}

static int input(const char *event, struct pmc_metric_input *in, char *why, size_t len, void *arg)
{
	const struct inputs *p = arg;
	long i = find(p->c, event);

	if (i < 0 || !p->c->in[i].counted || !p->c->in[i].nr) {
		snprintf(why, len, "%s",
			 i >= 0 && p->c->in[i].why ? p->c->in[i].why : "the event was not counted");
		if (i < 0 || !p->c->in[i].why)
			snprintf(why, len, "'%s' was not counted", event);
		return -ENOENT;
	}
	*in = (struct pmc_metric_input){.value = p->x[i]};
	return 0;
}

/* Walks the metric's inputs into p (names and indices), the first counted one in *first. */
static int walk_one(const struct pmc_metric_event *ev, void *arg)
{
	struct inputs *p = arg;

	/* an event the exact value alone reads is no input of the estimate */
	if (ev->exact || p->nr == sizeof(p->idx) / sizeof(p->idx[0]))
		return 0;
	p->idx[p->nr] = find(p->c, ev->event);
	p->name[p->nr] = strdup(ev->event);
	if (!p->name[p->nr])
		return -ENOMEM;
	p->nr++;
	return 0;
}

static double mean_of(const struct metric_input *in)
{
	double s = 0;

	for (int r = 0; r < in->nr; r++)
		s += in->values[r];
	return in->nr ? s / in->nr : 0;
}

static void set_means(struct inputs *p)
{
	for (size_t i = 0; i < p->c->nr; i++)
		p->x[i] = mean_of(&p->c->in[i]);
}

static int literal(const char *name, double *value, void *arg)
{
	const struct inputs *p = arg;

	return p->c->literal ? p->c->literal(name, value, p->c->literal_arg) : -ENOENT;
}

static int eval_as(const struct pmc_metric *metric, struct inputs *p, bool exact,
		   struct pmc_metric_value *v)
{
	struct pmc_metric_eval_opts o = {
		.sz = sizeof(o), .input = input, .literal = literal, .arg = p, .exact = exact};

	*v = (struct pmc_metric_value){.sz = sizeof(*v)};
	return pmc_metric__eval(metric, &o, v);
}

static int eval(const struct pmc_metric *metric, struct inputs *p, struct pmc_metric_value *v)
{
	return eval_as(metric, p, false, v);
}

/* The fewest repetitions of the inputs, and whether they are of one pass and unscaled. */
static int reps(const struct inputs *p, bool *one_pass)
{
	int n = -1, first = -1, pass = -1;

	*one_pass = true;
	for (size_t k = 0; k < p->nr; k++) {
		const struct metric_input *in = p->idx[k] >= 0 ? &p->c->in[p->idx[k]] : NULL;

		if (!in || !in->counted)
			continue;
		if (first < 0) {
			first = in->nr;
			pass = in->pass;
		}
		if (n < 0 || in->nr < n)
			n = in->nr;
		if (in->pass != pass || in->nr != first || in->scaled)
			*one_pass = false;
	}
	return n < 0 ? 0 : n;
}

/*
 * One pass: the interval of the metric's values of each repetition (the value stays the one of
 * the means, as perf's and as a reader computes it from the counts printed). 1 when a
 * repetition has no value.
 */
static int per_rep(const struct pmc_metric *metric, struct inputs *p, int n,
		   struct metric_result *out)
{
	struct pmc_metric_value v;
	struct pmc_summary s;
	double *vals = calloc((size_t)n, sizeof(*vals));
	int rc = 0;

	if (!vals)
		return -ENOMEM;
	for (int r = 0; r < n && !rc; r++) {
		for (size_t i = 0; i < p->c->nr; i++)
			p->x[i] = p->c->in[i].nr > r ? p->c->in[i].values[r] : 0;
		rc = eval(metric, p, &v);
		if (!rc && v.status != PMC_METRIC_OK)
			rc = 1;
		vals[r] = v.value;
	}
	if (!rc)
		rc = pmc_summarize(vals, (size_t)n, p->c->level, &s);
	if (!rc) {
		out->ci = s.ci;
		out->values = vals; /* the page draws each repetition's value */
		return 0;
	}
	free(vals);
	return rc;
}

/* d value / d x[i] at the means, by central differences (one side where the other is NA). */
static int partial(const struct pmc_metric *metric, struct inputs *p, size_t i, double *d)
{
	double m = p->x[i], h = 1e-6 * (fabs(m) > 1 ? fabs(m) : 1), f[2];
	bool ok[2];
	struct pmc_metric_value v;
	int rc = 0;

	for (int s = 0; s < 2 && !rc; s++) {
		p->x[i] = m + (s ? -h : h);
		rc = eval(metric, p, &v);
		ok[s] = !rc && v.status == PMC_METRIC_OK;
		f[s] = v.value;
	}
	p->x[i] = m;
	if (!rc)
		rc = eval(metric, p, &v);
	if (rc)
		return rc;
	*d = ok[0] && ok[1] ? (f[0] - f[1]) / (2 * h)
	     : ok[0]	    ? (f[0] - v.value) / h
	     : ok[1]	    ? (v.value - f[1]) / h
			    : 0;
	return 0;
}

/*
 * The delta method over independent passes: in each pass the linearised metric of each
 * repetition, sum_j d_j x_j[r], whose variance of the mean keeps the pass's covariances;
 * the passes' variances add, and the degrees of freedom are Welch-Satterthwaite's.
 */
static int delta(const struct pmc_metric *metric, struct inputs *p, struct metric_result *out)
{
	size_t nr = p->c->nr;
	double *d = calloc(nr, sizeof(*d)), var = 0, df_den = 0;
	bool *used = calloc(nr, sizeof(*used)), *done = calloc(nr, sizeof(*done));
	int rc = d && used && done ? 0 : -ENOMEM;

	for (size_t k = 0; k < p->nr && !rc; k++)
		if (p->idx[k] >= 0 && !used[p->idx[k]]) {
			used[p->idx[k]] = true;
			rc = partial(metric, p, (size_t)p->idx[k], &d[p->idx[k]]);
		}
	for (size_t i = 0; i < nr && !rc; i++) {
		int pass = p->c->in[i].pass, n = -1;
		double s = 0, s2 = 0, vp;

		if (!used[i] || done[i])
			continue;
		for (size_t j = i; j < nr; j++)
			if (used[j] && p->c->in[j].pass == pass && (n < 0 || p->c->in[j].nr < n))
				n = p->c->in[j].nr;
		for (int r = 0; r < n; r++) {
			double l = 0;

			for (size_t j = i; j < nr; j++)
				if (used[j] && p->c->in[j].pass == pass)
					l += d[j] * p->c->in[j].values[r];
			s += l;
			s2 += l * l;
		}
		for (size_t j = i; j < nr; j++)
			if (used[j] && p->c->in[j].pass == pass)
				done[j] = true;
		if (n < 2)
			continue;
		vp = (s2 - s * s / n) / (n - 1) / n;
		if (vp < 0)
			vp = 0;
		var += vp;
		df_den += vp * vp / (n - 1);
	}
	if (!rc && var > 0)
		out->ci = pmc_t_quantile(1 - (1 - p->c->level) / 2, var * var / df_den) * sqrt(var);
	free(d);
	free(used);
	free(done);
	return rc;
}

static void set_inputs(struct metric_result *out, const struct inputs *p)
{
	size_t len = 0;

	out->first = -1;
	out->inputs[0] = 0;
	for (size_t k = 0; k < p->nr; k++) {
		if (out->first < 0 && p->idx[k] >= 0)
			out->first = p->idx[k];
		if (len < sizeof(out->inputs))
			len += (size_t)snprintf(out->inputs + len, sizeof(out->inputs) - len,
						"%s%s", k ? ", " : "", p->name[k]);
	}
}

static int compute(const struct pmc_metric *metric, struct inputs *p, struct metric_result *out)
{
	bool one_pass;
	int rc = pmc_metric__for_each_event(metric, walk_one, p), n;

	if (rc)
		return rc;
	set_inputs(out, p);
	n = reps(p, &one_pass);
	out->n = n;
	out->method = n < 2 ? METRIC_ONE_RUN : one_pass ? METRIC_PER_REP : METRIC_DELTA;
	set_means(p);
	/* the model's exact answer (PmcExactExpr) from the same means, beside the estimate */
	if (pmc_metric__info(metric)->exact) {
		rc = eval_as(metric, p, true, &out->exact);
		out->has_exact = !rc;
	}
	if (!rc)
		rc = eval(metric, p, &out->v);
	if (rc || out->v.status != PMC_METRIC_OK)
		return rc;
	if (out->method == METRIC_PER_REP) {
		rc = per_rep(metric, p, n, out);
		if (rc == 1)
			out->method = METRIC_DELTA;
		rc = rc == 1 ? 0 : rc;
		set_means(p);
	}
	if (!rc && out->method == METRIC_DELTA)
		rc = delta(metric, p, out);
	if (out->v.value != 0)
		out->ci_pct = 100 * out->ci / fabs(out->v.value);
	return rc;
}

int metric_compute(const struct pmc_metric *metric, const struct metric_counts *c,
		   struct metric_result *out)
{
	struct inputs p = {.c = c, .x = calloc(c->nr + 1, sizeof(double))};
	int rc;

	*out = (struct metric_result){.metric = metric, .first = -1};
	if (!p.x)
		return -ENOMEM;
	rc = compute(metric, &p, out);
	if (rc)
		metric_result_free(out);
	for (size_t k = 0; k < p.nr; k++)
		free((char *)p.name[k]);
	free(p.x);
	return rc;
}

void metric_result_free(struct metric_result *r)
{
	free(r->values);
	r->values = NULL;
}

const char *metric_method__name(enum metric_method m)
{
	return m == METRIC_PER_REP ? "per-repetition"
	       : m == METRIC_DELTA ? "delta method"
				   : "one run";
}
