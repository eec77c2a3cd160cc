// SPDX-License-Identifier: MIT
/*
 * Walks of a metric through the metrics it refers to: the events it needs (for the planner),
 * and the check that no metric refers back to itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "metric/metric.h"

struct walk {
	struct pmc__eval ev;	/* names and the constant conditions, without inputs */
	bool prune;		/* skip the branch a constant condition does not take */
	pmc_metric_event_fn fn; /* NULL: only the check for cycles */
	void *arg;
	const struct pmc_metric *top; /* the selected metric the events are for */
	struct pmc__strset seen;      /* the events handed to fn */
	char *why;		      /* the cycle */
	size_t len;
	/*
	 * Of each pass (the formulas, the exact ones): the metrics walked to the end (found
	 * without a cycle, their events handed to fn) and the values of the constant conditions.
	 */
	struct pmc__memo done[2], values[2];
};

static int walk_expr(struct walk *w, struct pmc__expr *e);

static int event(struct walk *w, const char *name)
{
	struct pmc_metric_event ev = {.event = name, .metric = w->top};
	int added;

	if (!w->fn || (added = pmc__strset_add(&w->seen, name)) == 0)
		return 0;
	if (added < 0)
		return added;
	ev.tool = pmc__metric_tool_event(name);
	ev.exact = w->ev.exact;
	return w->fn(&ev, w->arg);
}

/* "a -> b -> a": the metrics on the stack from m's first entry, then m again. */
static int cycle(struct walk *w, const struct pmc_metric *m, int from)
{
	size_t n = 0;

	for (int i = from; i < w->ev.depth && n < w->len; i++)
		n += (size_t)snprintf(w->why + n, w->len - n, "%s -> ", w->ev.stack[i]->info.name);
	if (n < w->len)
		snprintf(w->why + n, w->len - n, "%s", m->info.name);
	return -PMC_E_METRIC_CYCLE;
}

/*
 * A metric is walked once in a pass, however many paths lead to it: walked again, it would
 * find no cycle and no event it did not find the first time. (Unless its chain of references
 * is too deep from here: the walk that says so is the one of old.)
 */
static int walk_metric(struct walk *w, const struct pmc_metric *m)
{
	const struct pmc__memo_slot *s = pmc__memo_get(&w->done[w->ev.exact], m);
	const char *text = w->ev.text;
	int deepest = w->ev.deepest;
	int err;

	if (s && w->ev.depth + s->height <= PMC_METRIC_MAX_DEPTH) {
		if (w->ev.depth + s->height > w->ev.deepest)
			w->ev.deepest = w->ev.depth + s->height;
		return 0;
	}
	for (int i = 0; i < w->ev.depth; i++)
		if (w->ev.stack[i] == m)
			return cycle(w, m, i);
	if (w->ev.depth == PMC_METRIC_MAX_DEPTH) {
		snprintf(w->why, w->len, "metrics refer to metrics deeper than %d, from '%s'",
			 PMC_METRIC_MAX_DEPTH, w->ev.stack[0]->info.name);
		return -PMC_E_METRIC_CYCLE;
	}
	w->ev.stack[w->ev.depth++] = m;
	w->ev.deepest = w->ev.depth;
	err = walk_expr(w, pmc__metric_expr(&w->ev, m, &w->ev.text));
	w->ev.text = text;
	w->ev.depth--;
	if (!err)
		pmc__memo_put(&w->done[w->ev.exact], m, 0, w->ev.deepest - w->ev.depth);
	if (deepest > w->ev.deepest)
		w->ev.deepest = deepest;
	return err;
}

static int walk_expr(struct walk *w, struct pmc__expr *e)
{
	const struct pmc_metric *m;
	double cond;
	int err = 0;

	switch (e->kind) {
	case PMC_EXPR_ID:
		m = pmc__expr_ref(&w->ev, e);
		return m ? walk_metric(w, m) : event(w, e->event);
	case PMC_EXPR_SOURCE_COUNT:
		return event(w, e->event);
	case PMC_EXPR_IF:
		/* perf's compute_ids: a condition known without counts needs one branch only. */
		if (w->prune && pmc__expr_eval(&w->ev, e->kid[1], &cond) == PMC_METRIC_OK)
			return walk_expr(w, e->kid[cond != 0 ? 0 : 2]);
		break;
	default:
		break;
	}
	for (int i = 0; i < 3 && !err && e->kid[i]; i++)
		err = walk_expr(w, e->kid[i]);
	return err;
}

/* The metric's expression and its threshold's, as the formula reads them and, when the metric
 * has an exact value, as the exact value reads them. */
static int walk(struct walk *w, const struct pmc_metric *metric)
{
	int err = 0;

	w->ev.root = w->top = metric;
	for (int pass = 0; pass < (metric->exact ? 2 : 1) && !err; pass++) {
		w->ev.exact = pass == 1;
		w->ev.memo = &w->values[pass];
		w->ev.depth = 0;
		err = walk_metric(w, metric);
		if (!err && metric->threshold) {
			w->ev.text = metric->info.threshold;
			err = walk_expr(w, metric->threshold);
		}
	}
	w->ev.exact = false;
	return err;
}

static void walk_free(struct walk *w)
{
	pmc__strset_free(&w->seen);
	for (int pass = 0; pass < 2; pass++) {
		pmc__memo_free(&w->done[pass]);
		pmc__memo_free(&w->values[pass]);
	}
}

int pmc__metric_check_cycles(const struct pmc_metric *metric, char *why, size_t len)
{
	struct walk w = {.why = why, .len = len};
	int err = walk(&w, metric);

	walk_free(&w);
	return err;
}

int pmc_metric__for_each_event(const struct pmc_metric *metric, pmc_metric_event_fn fn, void *arg)
{
	char why[256];
	struct walk w = {.prune = true, .fn = fn, .arg = arg, .why = why, .len = sizeof(why)};
	int err = walk(&w, metric);

	walk_free(&w);
	return err;
}

int pmc_metrics__for_each_event(const struct pmc_metrics *m, pmc_metric_event_fn fn, void *arg)
{
	char why[256];
	struct walk w = {.prune = true, .fn = fn, .arg = arg, .why = why, .len = sizeof(why)};
	int err = 0;

	for (size_t i = 0; i < m->nr_selected && !err; i++)
		err = walk(&w, m->selected[i]);
	walk_free(&w);
	return err;
}
