// SPDX-License-Identifier: MIT
/*
 * A metric's threshold as people read it beside the metric's value (pmc_metric__threshold_shown()):
 * the numbers it compares metrics with, in those metrics' units (docs/metrics.md, "Files").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "metric/metric.h"

#define MAX_SHOWN 32 /* numbers rewritten; a threshold compares a few metrics */

struct shown {
	struct pmc__eval ev;
	struct {
		const struct pmc__expr *num; /* the NUMBER node */
		const struct pmc_metric *metric;
	} v[MAX_SHOWN];
	int nr;
};

/* The metric a side of a comparison names, when it has a unit to show numbers in. */
static const struct pmc_metric *scaled(struct shown *s, struct pmc__expr *e)
{
	const struct pmc_metric *m = e->kind == PMC_EXPR_ID ? pmc__expr_ref(&s->ev, e) : NULL;

	return m && (m->info.scale != 1 || *m->info.unit) ? m : NULL;
}

/* Collects the numbers of the comparisons 'metric < NUMBER' and 'NUMBER > metric'. */
static void collect(struct shown *s, struct pmc__expr *e)
{
	if (e->kind == PMC_EXPR_BINARY && (e->op == '<' || e->op == '>')) {
		for (int side = 0; side < 2 && s->nr < MAX_SHOWN; side++) {
			const struct pmc_metric *m = scaled(s, e->kid[side]);
			const struct pmc__expr *n = e->kid[!side];

			if (m && n->kind == PMC_EXPR_NUMBER) {
				s->v[s->nr].num = n;
				s->v[s->nr++].metric = m;
			}
		}
	}
	for (int i = 0; i < 3 && e->kid[i]; i++)
		collect(s, e->kid[i]);
}

int pmc_metric__threshold_shown(const struct pmc_metric *metric, char *buf, size_t len)
{
	struct shown s = {.ev = {.root = metric}};
	const char *text;
	size_t o = 0;
	int at = 0;

	if (!metric || !buf || !len)
		return -EINVAL;
	buf[0] = 0;
	if (!metric->threshold)
		return 0;
	text = metric->info.threshold;
	collect(&s, metric->threshold);
	/* The tree is walked left to right: the numbers come in the order of the text. */
	for (int i = 0; i < s.nr && o < len; i++) {
		const struct pmc__expr *n = s.v[i].num;
		const struct pmc_metric_info *mi = &s.v[i].metric->info;

		if (n->start < at)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%.*s%g%s%s", n->start - at, text + at,
				      n->num * mi->scale, *mi->unit ? " " : "", mi->unit);
		at = n->end;
	}
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s", text + at);
	return o < len ? 0 : -ENOSPC;
}
