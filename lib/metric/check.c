// SPDX-License-Identifier: MIT
/*
 * The check of the names a formula gives against a backend's events (pmc_metric__check_events()):
 * a one-off definition's names are what the user typed, so one that is no event here is refused
 * with its place, and a name that '-' cut in two ('page-faults', read as page minus faults) is
 * shown with the escape that keeps it whole (docs/metrics.md, "Names").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/grow.h"
#include "metric/metric.h"

/* The names of a formula, in the order of its text: each an ID or source_count() node. */
struct names {
	const struct pmc__expr **v;
	size_t nr, cap;
};

static int collect(struct names *n, const struct pmc__expr *e)
{
	int err = 0;

	if (e->kind == PMC_EXPR_ID || e->kind == PMC_EXPR_SOURCE_COUNT) {
		if (PMC_ENSURE(n->v, n->cap, n->nr + 1))
			return -ENOMEM;
		n->v[n->nr++] = e;
		return 0;
	}
	for (int i = 0; i < 3 && !err && e->kid[i]; i++)
		err = collect(n, e->kid[i]);
	return err;
}

/* Whether names a and a + 1 are written with only '-' between them: "page-faults". */
static bool joined(const struct names *n, const char *text, size_t a)
{
	const struct pmc__expr *l = n->v[a], *r = n->v[a + 1];

	return l->kind == PMC_EXPR_ID && r->kind == PMC_EXPR_ID && r->start == l->end + 1 &&
	       text[l->end] == '-';
}

/* Names from..to joined by '-' as an event string ("page-faults"), or NULL. */
static char *join(const struct names *n, size_t from, size_t to)
{
	size_t len = 0;
	char *s;

	for (size_t i = from; i <= to; i++)
		len += strlen(n->v[i]->event) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = 0;
	for (size_t i = from; i <= to; i++)
		strcat(strcat(s, i > from ? "-" : ""), n->v[i]->event);
	return s;
}

/*
 * The longest run of names around idx, written with '-' between them, that is an event of
 * evlist's backend when joined: *from and *to, and 1; 0 when there is none; -ENOMEM.
 */
static int split_event(const struct names *n, const char *text, size_t idx,
		       struct pmc_evlist *evlist, size_t *from, size_t *to)
{
	size_t lo = idx, hi = idx;

	while (lo > 0 && joined(n, text, lo - 1))
		lo--;
	while (hi + 1 < n->nr && joined(n, text, hi))
		hi++;
	for (size_t len = hi - lo + 1; len > 1; len--) {
		for (size_t a = lo; a + len - 1 <= hi; a++) {
			size_t b = a + len - 1;
			char *s;
			int err;

			if (idx < a || idx > b)
				continue;
			if (!(s = join(n, a, b)))
				return -ENOMEM;
			err = pmc_evlist__parse(evlist, s, NULL);
			free(s);
			if (err == -ENOMEM)
				return err;
			if (!err) {
				*from = a;
				*to = b;
				return 1;
			}
		}
	}
	return 0;
}

/* The error of name idx, which is no event: with the escape when '-' cut an event in two. */
static int refuse(const struct names *n, const char *text, size_t idx, struct pmc_evlist *evlist,
		  const struct pmc_parse_error *perr, int code, struct pmc_metric_error *err)
{
	const struct pmc__expr *e = n->v[idx];
	size_t from, to;
	int split = split_event(n, text, idx, evlist, &from, &to);
	char fix[160];
	size_t o = 0;

	if (split < 0)
		return split;
	if (!split) {
		pmc__metric_error(err, NULL, text, e->start, "%s", perr->msg);
		if (err) {
			err->parse.nr_suggest = perr->nr_suggest;
			memcpy(err->parse.suggest, perr->suggest, sizeof(perr->suggest));
		}
		return code;
	}
	for (size_t i = from; i <= to && o < sizeof(fix); i++)
		o += (size_t)snprintf(fix + o, sizeof(fix) - o, "%s%.*s", i > from ? "\\-" : "",
				      n->v[i]->end - n->v[i]->start, text + n->v[i]->start);
	pmc__metric_error(err, NULL, text, n->v[from]->start,
			  "'%.*s' is a subtraction in a formula ('-' is minus), and '%s' is not an "
			  "event here; for the event, write %s",
			  n->v[to]->end - n->v[from]->start, text + n->v[from]->start, e->event,
			  fix);
	return -PMC_E_UNKNOWN_EVENT;
}

/* Checks the names of one tree of the metric (its formula or its threshold). */
static int check_tree(struct pmc__eval *ev, struct pmc__expr *tree, const char *text,
		      struct pmc_evlist *evlist, struct pmc_metric_error *err)
{
	struct names n = {0};
	int ret = collect(&n, tree);

	for (size_t i = 0; !ret && i < n.nr; i++) {
		struct pmc__expr *e = (struct pmc__expr *)n.v[i];
		struct pmc_parse_error perr = {0};

		if ((e->kind == PMC_EXPR_ID && pmc__expr_ref(ev, e)) ||
		    pmc__metric_tool_event(e->event))
			continue;
		ret = pmc_evlist__parse(evlist, e->event, &perr);
		if (ret && ret != -ENOMEM)
			ret = refuse(&n, text, i, evlist, &perr, ret, err);
	}
	free(n.v);
	return ret;
}

int pmc_metric__check_events(const struct pmc_metric *metric, struct pmc_evlist *evlist,
			     struct pmc_metric_error *err)
{
	struct pmc__eval ev = {.root = metric};
	int ret;

	if (!metric || !evlist)
		return -EINVAL;
	ret = check_tree(&ev, metric->expr, metric->info.expr, evlist, err);
	if (!ret && metric->threshold)
		ret = check_tree(&ev, metric->threshold, metric->info.threshold, evlist, err);
	return ret;
}
