// SPDX-License-Identifier: MIT
/* Definitions into a set: in their place in definition order, each replacing one of its name. */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "metric/metric.h"

void pmc__metric_free(struct pmc_metric *metric)
{
	struct pmc_metric_info *i;

	if (!metric)
		return;
	i = &metric->info;
	free((char *)i->name);
	free((char *)i->expr);
	free((char *)i->groups);
	free((char *)i->brief);
	free((char *)i->desc);
	free((char *)i->unit);
	free((char *)i->threshold);
	free((char *)i->constraint);
	free((char *)i->exact);
	free((char *)i->file);
	pmc__expr_free(metric->expr);
	pmc__expr_free(metric->threshold);
	pmc__expr_free(metric->exact);
	free(metric);
}

/* The metric of that name among those parsed so far. */
struct pmc_metric *pmc__metrics_loaded(const struct pmc_metrics *m, const char *name)
{
	if (m->pending && !strcasecmp(m->pending->info.name, name))
		return m->pending;
	return pmc__name_index_get(&m->names, name);
}

/* Its place in definition order (a shipped metric parsed late goes where it would have been). */
static void insert(struct pmc_metrics *m, struct pmc_metric *metric)
{
	size_t at = m->nr;

	while (at > 0 && m->metrics[at - 1]->order > metric->order)
		at--;
	memmove(&m->metrics[at + 1], &m->metrics[at], (m->nr - at) * sizeof(*m->metrics));
	m->metrics[at] = metric;
	m->nr++;
}

/* The index of a metric of the set: metrics are in order (insert()), so a binary search. */
static size_t place(const struct pmc_metrics *m, const struct pmc_metric *metric)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->metrics[mid]->order < metric->order)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo < m->nr && m->metrics[lo] != metric)
		lo++; /* past others of its order, were there any */
	assert(lo < m->nr);
	return lo;
}

/*
 * Puts metric in the place of the one of its name (kept aside), or in its place in order; a
 * shipped metric parsed after the user's of its name, or a later file's, is dropped.
 */
static void add_one(struct pmc_metrics *m, struct pmc_metric *metric)
{
	struct pmc_metric *old = pmc__metrics_loaded(m, metric->info.name);

	metric->set = m;
	if (!metric->shipped)
		metric->order = LONG_MAX / 2 + m->nr_user++;
	if (old && metric->shipped && (!old->shipped || old->order > metric->order)) {
		pmc__metric_free(metric);
		return;
	}
	pmc__name_index_put(&m->names, metric);
	if (!old) {
		insert(m, metric);
		return;
	}
	metric->order = old->order;
	m->metrics[place(m, old)] = metric;
	for (size_t i = 0; old->info.selected && i < m->nr_selected; i++)
		if (m->selected[i] == old)
			m->selected[i] = metric;
	metric->info.selected = old->info.selected;
	m->replaced[m->nr_replaced++] = old;
}

int pmc__metrics_add(struct pmc_metrics *m, struct pmc_metric **metrics, size_t nr)
{
	struct pmc_metric **v = NULL, **r = NULL;

	if (m->nr + nr > m->cap) {
		size_t cap = (m->nr + nr) * 2;

		v = realloc(m->metrics, cap * sizeof(*v));
		if (v) {
			m->metrics = v;
			m->cap = cap;
		}
	}
	if (m->nr_replaced + nr > m->cap_replaced) {
		size_t cap = (m->nr_replaced + nr) * 2;

		r = realloc(m->replaced, cap * sizeof(*r));
		if (r) {
			m->replaced = r;
			m->cap_replaced = cap;
		}
	}
	if (m->nr + nr > m->cap || m->nr_replaced + nr > m->cap_replaced ||
	    pmc__name_index_reserve(&m->names, nr)) {
		for (size_t i = 0; i < nr; i++)
			pmc__metric_free(metrics[i]);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++)
		add_one(m, metrics[i]);
	m->gen++;
	return 0;
}
