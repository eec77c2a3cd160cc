// SPDX-License-Identifier: MIT
/*
 * A metric's value and confidence interval from the counts of repetitions (pmc_metric__summarize(),
 * docs/metrics.md, "Statistics"): inputs of one pass give one metric value per repetition and
 * the Student-t interval of those; inputs of several passes (or scaled by multiplexing) give
 * the value of the means and an interval propagated by the delta method, the passes
 * independent.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/stat.h>
#include "core/opts.h"
#include "metric/metric.h"

/*
 * The inputs of the metric being computed, and the value each has in this evaluation. The
 * first 64 inputs take part in the delta method's derivatives (a metric of more events has
 * its other inputs held at their means there; no shipped formula has that many).
 */
struct inputs {
	const struct pmc_metric_counts *in; /* the caller's counts */
	size_t nr_in;
	const struct pmc_metric_counts *absent; /* then the set's events unknown here */
	size_t nr;				/* nr_in + the absent ones */
	const struct pmc_metric_summary_opts *o;
	long idx[64];	      /* its inputs' indices (at()), -1 when neither has it */
	const char *name[64]; /* as the formula names them (valid while computing) */
	size_t nr_idx;
	double *x; /* [nr]: the value each count stands at now */
};

/* Count i: the caller's, then the set's absent events. */
static const struct pmc_metric_counts *at(const struct inputs *p, size_t i)
{
	return i < p->nr_in ? &p->in[i] : &p->absent[i - p->nr_in];
}

static long find(const struct inputs *p, const char *event)
{
	size_t len = strlen(event);

	for (size_t i = 0; i < p->nr; i++) {
		const char *name = at(p, i)->name;

		if (!strcmp(name, event) ||
		    (!strncmp(name, event, len) && !strcmp(name + len, ":W")))
			return (long)i;
	}
	return -1;
}

static int input(const char *event, struct pmc_metric_input *in, char *why, size_t len, void *arg)
{
	const struct inputs *p = arg;
	long i = find(p, event);
	const struct pmc_metric_counts *c = i >= 0 ? at(p, (size_t)i) : NULL;

	if (!c || !c->counted || !c->nr) {
		snprintf(why, len, "%s", c && c->why ? c->why : "the event was not counted");
		if (!c || !c->why)
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
	if (ev->exact || p->nr_idx == sizeof(p->idx) / sizeof(p->idx[0]))
		return 0;
	p->idx[p->nr_idx] = find(p, ev->event);
	p->name[p->nr_idx] = strdup(ev->event);
	if (!p->name[p->nr_idx])
		return -ENOMEM;
	p->nr_idx++;
	return 0;
}

static double mean_of(const struct pmc_metric_counts *in)
{
	double s = 0;

	for (int r = 0; r < in->nr; r++)
		s += in->values[r];
	return in->nr ? s / in->nr : 0;
}

static void set_means(struct inputs *p)
{
	for (size_t i = 0; i < p->nr; i++)
		p->x[i] = mean_of(at(p, i));
}

static int literal(const char *name, double *value, void *arg)
{
	const struct inputs *p = arg;

	return p->o->literal ? p->o->literal(name, value, p->o->literal_arg) : -ENOENT;
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
	for (size_t k = 0; k < p->nr_idx; k++) {
		const struct pmc_metric_counts *in =
			p->idx[k] >= 0 ? at(p, (size_t)p->idx[k]) : NULL;

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
		   struct pmc_metric_summary *out)
{
	struct pmc_metric_value v;
	struct pmc_summary s;
	double *vals = calloc((size_t)n, sizeof(*vals));
	int rc = 0;

	if (!vals)
		return -ENOMEM;
	for (int r = 0; r < n && !rc; r++) {
		for (size_t i = 0; i < p->nr; i++)
			p->x[i] = at(p, i)->nr > r ? at(p, i)->values[r] : 0;
		rc = eval(metric, p, &v);
		if (!rc && v.status != PMC_METRIC_OK)
			rc = 1;
		vals[r] = v.value;
	}
	if (!rc)
		rc = pmc_summarize(vals, (size_t)n, p->o->level, &s);
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
static int delta(const struct pmc_metric *metric, struct inputs *p, struct pmc_metric_summary *out)
{
	size_t nr = p->nr;
	double *d = calloc(nr, sizeof(*d)), var = 0, df_den = 0;
	bool *used = calloc(nr, sizeof(*used)), *done = calloc(nr, sizeof(*done));
	int rc = d && used && done ? 0 : -ENOMEM;

	for (size_t k = 0; k < p->nr_idx && !rc; k++)
		if (p->idx[k] >= 0 && !used[p->idx[k]]) {
			used[p->idx[k]] = true;
			rc = partial(metric, p, (size_t)p->idx[k], &d[p->idx[k]]);
		}
	for (size_t i = 0; i < nr && !rc; i++) {
		int pass = at(p, i)->pass, n = -1;
		double s = 0, s2 = 0, vp;

		if (!used[i] || done[i])
			continue;
		for (size_t j = i; j < nr; j++)
			if (used[j] && at(p, j)->pass == pass && (n < 0 || at(p, j)->nr < n))
				n = at(p, j)->nr;
		for (int r = 0; r < n; r++) {
			double l = 0;

			for (size_t j = i; j < nr; j++)
				if (used[j] && at(p, j)->pass == pass)
					l += d[j] * at(p, j)->values[r];
			s += l;
			s2 += l * l;
		}
		for (size_t j = i; j < nr; j++)
			if (used[j] && at(p, j)->pass == pass)
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
		out->ci = pmc_t_quantile(1 - (1 - p->o->level) / 2, var * var / df_den) * sqrt(var);
	free(d);
	free(used);
	free(done);
	return rc;
}

static void set_inputs(struct pmc_metric_summary *out, const struct inputs *p)
{
	size_t len = 0;

	out->first = -1;
	out->inputs[0] = 0;
	for (size_t k = 0; k < p->nr_idx; k++) {
		if (out->first < 0 && p->idx[k] >= 0)
			out->first = p->idx[k];
		if (len < sizeof(out->inputs))
			len += (size_t)snprintf(out->inputs + len, sizeof(out->inputs) - len,
						"%s%s", k ? ", " : "", p->name[k]);
	}
}

static int compute(const struct pmc_metric *metric, struct inputs *p,
		   struct pmc_metric_summary *out)
{
	bool one_pass;
	int rc = pmc_metric__for_each_event(metric, walk_one, p), n;

	if (rc)
		return rc;
	set_inputs(out, p);
	n = reps(p, &one_pass);
	out->n = n;
	out->method = n < 2 ? PMC_METRIC_ONE_RUN : one_pass ? PMC_METRIC_PER_REP : PMC_METRIC_DELTA;
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
	if (out->method == PMC_METRIC_PER_REP) {
		rc = per_rep(metric, p, n, out);
		if (rc == 1)
			out->method = PMC_METRIC_DELTA;
		rc = rc == 1 ? 0 : rc;
		set_means(p);
	}
	if (!rc && out->method == PMC_METRIC_DELTA)
		rc = delta(metric, p, out);
	if (out->v.value != 0)
		out->ci_pct = 100 * out->ci / fabs(out->v.value);
	return rc;
}

int pmc_metric__summarize(const struct pmc_metric *metric, const struct pmc_metric_counts *counts,
			  size_t nr, const struct pmc_metric_summary_opts *opts,
			  struct pmc_metric_summary *out)
{
	struct pmc_metric_summary_opts o;
	const struct pmc_metrics *set = metric ? metric->set : NULL;
	struct inputs p = {.in = counts, .nr_in = nr, .o = &o};
	int rc;

	if (!metric || !out || out->sz < sizeof(*out) || (nr && !counts) ||
	    PMC_OPTS_COPY(pmc_metric_summary_opts, &o, opts, level))
		return -EINVAL;
	if (!(o.level > 0 && o.level < 1))
		o.level = 0.95;
	p.absent = set ? set->absent : NULL;
	p.nr = nr + (set ? set->nr_absent : 0);
	*out = (struct pmc_metric_summary){.sz = sizeof(*out), .metric = metric, .first = -1};
	p.x = calloc(p.nr + 1, sizeof(double));
	if (!p.x)
		return -ENOMEM;
	rc = compute(metric, &p, out);
	if (rc)
		pmc_metric_summary__fini(out);
	for (size_t k = 0; k < p.nr_idx; k++)
		free((char *)p.name[k]);
	free(p.x);
	return rc;
}

void pmc_metric_summary__fini(struct pmc_metric_summary *s)
{
	if (!s)
		return;
	free(s->values);
	s->values = NULL;
}

const char *pmc_metric_method__name(enum pmc_metric_method m)
{
	return m == PMC_METRIC_PER_REP ? "per-repetition"
	       : m == PMC_METRIC_DELTA ? "delta method"
				       : "one run";
}
