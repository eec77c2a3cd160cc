// SPDX-License-Identifier: MIT
/*
 * Evaluating a metric's expression from counts, with perf's semantics where perf has a
 * value and a reason where it has none (docs/metrics.md, "Evaluation"): n/a for a division
 * by zero or a value out of range, unavailable for a missing input, never an infinity; and
 * pmc_metric__eval(), the public call.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <pmc/error.h>
#include "core/opts.h"
#include "metric/metric.h"

/* Writes the first reason of a walk, prefixed with the metric it arose in when that is not
 * the one evaluated. Returns status. */
static __attribute__((format(printf, 3, 4))) enum pmc_metric_status
why(struct pmc__eval *ev, enum pmc_metric_status status, const char *fmt, ...)
{
	size_t n = 0;
	va_list ap;

	if (!ev->why || ev->why[0])
		return status;
	if (ev->depth > 1)
		n = (size_t)snprintf(ev->why, ev->len,
				     "in metric '%s': ", ev->stack[ev->depth - 1]->info.name);
	if (n < ev->len) {
		va_start(ap, fmt);
		vsnprintf(ev->why + n, ev->len - n, fmt, ap);
		va_end(ap);
	}
	return status;
}

/* The source text of a node, as messages quote it (shortened past 60 bytes). */
struct quote {
	char s[72];
};

static struct quote quote(const struct pmc__eval *ev, const struct pmc__expr *e)
{
	const char *text = ev->text;
	struct quote q;
	int len = e->end - e->start;

	if (len > 60)
		snprintf(q.s, sizeof(q.s), "%.57s...", text + e->start);
	else
		snprintf(q.s, sizeof(q.s), "%.*s", len, text + e->start);
	return q;
}

struct pmc__expr *pmc__metric_expr(const struct pmc__eval *ev, const struct pmc_metric *m,
				   const char **text)
{
	if (ev->exact && m->exact) {
		*text = m->info.exact;
		return m->exact;
	}
	*text = m->info.expr;
	return m->expr;
}

struct pmc_metric *pmc__expr_ref(const struct pmc__eval *ev, struct pmc__expr *e)
{
	struct pmc_metrics *set = ev->root->set;

	if (!set)
		return NULL;
	if (e->ref_gen != set->gen + 1) {
		e->ref = pmc__metrics_lookup(set, e->name);
		e->ref_gen = set->gen + 1;
	}
	return e->ref;
}

#define eval pmc__expr_eval

static enum pmc_metric_status input(struct pmc__eval *ev, struct pmc__expr *e, double *out)
{
	struct pmc_metric_input in = {0};
	char reason[192] = "";

	if (!ev->opts)
		return PMC_METRIC_UNAVAILABLE; /* constant folding: no event has a value */
	if (ev->opts->input(e->event, &in, reason, sizeof(reason), ev->opts->arg))
		return why(ev, PMC_METRIC_UNAVAILABLE, "needs '%s', %s", e->event,
			   reason[0] ? reason : "which was not counted");
	if (e->kind == PMC_EXPR_SOURCE_COUNT)
		*out = in.nr_sources > 0 ? in.nr_sources : 1;
	else
		*out = in.value;
	if (!isfinite(*out))
		return why(ev, PMC_METRIC_NA, "'%s' has no finite value", e->event);
	return PMC_METRIC_OK;
}

static enum pmc_metric_status literal(struct pmc__eval *ev, struct pmc__expr *e, double *out)
{
	struct pmc_metrics *set = ev->root->set;
	int err = -ENOENT;

	if (ev->opts && ev->opts->literal)
		err = ev->opts->literal(e->name, out, ev->opts->arg);
	if (err == -ENOENT)
		err = set ? pmc__literal_value(set, e->name, out) : -ENOENT;
	if (err)
		return why(ev, PMC_METRIC_NA, "%s has no value on this machine: %s", e->name,
			   pmc_strerror(err));
	if (!isfinite(*out))
		return why(ev, PMC_METRIC_NA, "%s has no finite value", e->name);
	return PMC_METRIC_OK;
}

/* A metric evaluated before, when its chain of references fits below this depth too. */
static bool remembered(struct pmc__eval *ev, const struct pmc_metric *m, double *out)
{
	const struct pmc__memo_slot *s = pmc__memo_get(ev->memo, m);

	if (!s || ev->depth + s->height > PMC_METRIC_MAX_DEPTH)
		return false;
	*out = s->value;
	if (ev->depth + s->height > ev->deepest)
		ev->deepest = ev->depth + s->height;
	return true;
}

/*
 * A referenced metric's value, its name on the walk's stack. A value is remembered: a metric
 * that many paths reach is evaluated once (a value missing ends the whole walk).
 */
static enum pmc_metric_status reference(struct pmc__eval *ev, const struct pmc_metric *m,
					double *out)
{
	enum pmc_metric_status st;
	const char *text = ev->text;
	int deepest = ev->deepest;

	if (remembered(ev, m, out))
		return PMC_METRIC_OK;
	for (int i = 0; i < ev->depth; i++)
		if (ev->stack[i] == m)
			return why(ev, PMC_METRIC_NA, "metric '%s' refers to itself", m->info.name);
	if (ev->depth == PMC_METRIC_MAX_DEPTH)
		return why(ev, PMC_METRIC_NA, "metrics refer to metrics deeper than %d",
			   PMC_METRIC_MAX_DEPTH);
	ev->stack[ev->depth++] = m;
	ev->deepest = ev->depth;
	st = eval(ev, pmc__metric_expr(ev, m, &ev->text), out);
	ev->text = text;
	ev->depth--;
	if (st == PMC_METRIC_OK)
		pmc__memo_put(ev->memo, m, *out, ev->deepest - ev->depth);
	if (deepest > ev->deepest)
		ev->deepest = deepest;
	return st;
}

/* perf casts the operands of | & ^ % to long: those out of its range have no value. */
static bool to_long(double v, long *out)
{
	if (!(v >= (double)LONG_MIN && v < -(double)LONG_MIN))
		return false;
	*out = (long)v;
	return true;
}

static enum pmc_metric_status integer_op(struct pmc__eval *ev, struct pmc__expr *e, double a,
					 double b, double *out)
{
	long x, y;

	if (!to_long(a, &x) || !to_long(b, &y))
		return why(ev, PMC_METRIC_NA,
			   "an operand of '%c' is out of the integer range in '%s'", e->op,
			   quote(ev, e).s);
	if (e->op == '%' && y == 0)
		return why(ev, PMC_METRIC_NA, "division by zero: '%s' is 0 in '%s'",
			   quote(ev, e->kid[1]).s, quote(ev, e).s);
	switch (e->op) {
	case '|':
		*out = (double)(x | y);
		break;
	case '&':
		*out = (double)(x & y);
		break;
	case '^':
		*out = (double)(x ^ y);
		break;
	default: /* '%': LONG_MIN % -1 overflows in C; its value is 0 */
		*out = y == -1 ? 0 : (double)(x % y);
	}
	return PMC_METRIC_OK;
}

static enum pmc_metric_status binary(struct pmc__eval *ev, struct pmc__expr *e, double *out)
{
	enum pmc_metric_status st;
	double a, b;

	if ((st = eval(ev, e->kid[0], &a)) || (st = eval(ev, e->kid[1], &b)))
		return st;
	switch (e->op) {
	case '<':
		*out = a < b;
		return PMC_METRIC_OK;
	case '>':
		*out = a > b;
		return PMC_METRIC_OK;
	case '+':
		*out = a + b;
		break;
	case '-':
		*out = a - b;
		break;
	case '*':
		*out = a * b;
		break;
	case '/':
		if (b == 0)
			return why(ev, PMC_METRIC_NA, "division by zero: '%s' is 0 in '%s'",
				   quote(ev, e->kid[1]).s, quote(ev, e).s);
		*out = a / b;
		break;
	default:
		return integer_op(ev, e, a, b, out);
	}
	if (!isfinite(*out))
		return why(ev, PMC_METRIC_NA, "'%s' is out of range", quote(ev, e).s);
	return PMC_METRIC_OK;
}

/* min, max, d_ratio: both arguments, always. */
static enum pmc_metric_status call(struct pmc__eval *ev, struct pmc__expr *e, double *out)
{
	enum pmc_metric_status st;
	double a, b;

	if ((st = eval(ev, e->kid[0], &a)) || (st = eval(ev, e->kid[1], &b)))
		return st;
	if (e->kind == PMC_EXPR_MIN)
		*out = a < b ? a : b;
	else if (e->kind == PMC_EXPR_MAX)
		*out = a > b ? a : b;
	else
		*out = b == 0 ? 0 : a / b; /* d_ratio: perf's "safe" division */
	if (!isfinite(*out))
		return why(ev, PMC_METRIC_NA, "'%s' is out of range", quote(ev, e).s);
	return PMC_METRIC_OK;
}

enum pmc_metric_status pmc__expr_eval(struct pmc__eval *ev, struct pmc__expr *e, double *out)
{
	enum pmc_metric_status st;
	const struct pmc_metric *m;
	double cond;

	switch (e->kind) {
	case PMC_EXPR_NUMBER:
		*out = e->num;
		return PMC_METRIC_OK;
	case PMC_EXPR_ID:
		m = pmc__expr_ref(ev, e);
		return m ? reference(ev, m, out) : input(ev, e, out);
	case PMC_EXPR_SOURCE_COUNT:
		return input(ev, e, out);
	case PMC_EXPR_LITERAL:
		return literal(ev, e, out);
	case PMC_EXPR_NEG:
		st = eval(ev, e->kid[0], out);
		*out = -*out;
		return st;
	case PMC_EXPR_BINARY:
		return binary(ev, e, out);
	case PMC_EXPR_IF:
		/* Only the branch taken: the other may divide by zero where it is not taken. */
		if ((st = eval(ev, e->kid[1], &cond)))
			return st;
		return eval(ev, e->kid[cond != 0 ? 0 : 2], out);
	default:
		return call(ev, e, out);
	}
}

/* The value of a metric, and of its threshold: PMC_METRIC_OK with *out, or another status
 * with the reason in ev->why. */
static enum pmc_metric_status metric_value(struct pmc__eval *ev, const struct pmc_metric *metric,
					   double *out)
{
	ev->root = metric;
	ev->depth = 0;
	return reference(ev, metric, out);
}

static enum pmc_metric_status metric_threshold(struct pmc__eval *ev,
					       const struct pmc_metric *metric, double *out)
{
	ev->root = metric;
	ev->depth = 0;
	ev->text = metric->info.threshold;
	return eval(ev, metric->threshold, out);
}

int pmc_metric__eval(const struct pmc_metric *metric, const struct pmc_metric_eval_opts *opts,
		     struct pmc_metric_value *out)
{
	struct pmc_metric_eval_opts o;
	struct pmc_metric_value v = {.unit = metric->info.unit, .flagged = -1};
	struct pmc__memo memo = {0};
	struct pmc__eval ev = {.opts = &o, .why = v.why, .len = sizeof(v.why), .memo = &memo};
	double t;

	if (!out || out->sz < offsetofend(struct pmc_metric_value, why) ||
	    PMC_OPTS_COPY(pmc_metric_eval_opts, &o, opts, arg) || !o.input)
		return -EINVAL;
	ev.exact = o.exact;
	if (o.exact && !metric->exact) {
		v.status = PMC_METRIC_UNAVAILABLE;
		snprintf(v.why, sizeof(v.why),
			 "metric '%s' has no exact value: its file gives it no PmcExactExpr",
			 metric->info.name);
	} else {
		v.status = metric_value(&ev, metric, &v.raw);
	}
	if (v.status == PMC_METRIC_OK) {
		v.value = v.raw * metric->info.scale;
		if (!isfinite(v.value))
			v.status = PMC_METRIC_NA;
		if (!isfinite(v.value))
			snprintf(v.why, sizeof(v.why), "%g scaled by %g is out of range", v.raw,
				 metric->info.scale);
	}
	ev.why = NULL; /* a threshold without a value says nothing of the metric's */
	if (metric->threshold && (metric->exact || !o.exact))
		v.flagged = metric_threshold(&ev, metric, &t) == PMC_METRIC_OK ? t != 0 : -1;
	pmc__memo_free(&memo);
	if (v.status != PMC_METRIC_OK)
		v.value = v.raw = NAN;
	v.sz = out->sz;
	memcpy(out, &v, out->sz < sizeof(v) ? out->sz : sizeof(v));
	return 0;
}
