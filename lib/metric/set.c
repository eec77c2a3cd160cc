// SPDX-License-Identifier: MIT
/* The set of metric definitions: its life, lookups, one-off definitions and evaluation. */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "core/opts.h"
#include "metric/metric.h"

/* Copies text into err->text; of a longer text, the part around offset (then adjusted). */
static void error_text(struct pmc_metric_error *err, const char *text, int offset)
{
	size_t len = strlen(text), cap = sizeof(err->text) - 1, from = 0;

	if (len > cap && offset > (int)cap / 2)
		from = (size_t)offset - cap / 2;
	if (from + cap > len && len > cap)
		from = len - cap;
	snprintf(err->text, sizeof(err->text), "%s", text + from);
	err->parse.offset = offset < 0 ? -1 : offset - (int)from;
}

void pmc__metric_error(struct pmc_metric_error *err, const char *where, const char *text,
		       int offset, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	snprintf(err->where, sizeof(err->where), "%s", where ? where : "");
	error_text(err, text ? text : "", text ? offset : -1);
	va_start(ap, fmt);
	vsnprintf(err->parse.msg, sizeof(err->parse.msg), fmt, ap);
	va_end(ap);
}

void pmc__metric_error_from(struct pmc_metric_error *err, const char *where, const char *text,
			    const struct pmc_parse_error *perr)
{
	if (!err)
		return;
	pmc__metric_error(err, where, text, perr->offset, "%s", perr->msg);
	err->parse.nr_suggest = perr->nr_suggest;
	memcpy(err->parse.suggest, perr->suggest, sizeof(perr->suggest));
}

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

int pmc_metrics__new(const struct pmc_metrics_opts *opts, struct pmc_metric_error *err,
		     struct pmc_metrics **out)
{
	struct pmc_metrics *m = calloc(1, sizeof(*m));
	struct pmc_metrics_opts *o;
	int ret = -ENOMEM;

	*out = NULL;
	if (!m)
		goto err;
	o = &m->opts;
	ret = PMC_OPTS_COPY(pmc_metrics_opts, o, opts, runtime);
	if (ret)
		goto err;
	m->backend = pmc__backend_find(o->backend ? o->backend : "perf");
	ret = -PMC_E_NOBACKEND;
	if (!m->backend) {
		pmc__metric_error(err, NULL, NULL, -1, "no backend '%s' (perf, vpmu)", o->backend);
		goto err;
	}
	o->backend = pmc__backend_name(m->backend);
	o->dir = o->dir ? strdup(o->dir) : NULL;
	o->cpu_list = o->cpu_list ? strdup(o->cpu_list) : NULL;
	ret = -ENOMEM;
	if ((opts && opts->dir && !o->dir) || (opts && opts->cpu_list && !o->cpu_list))
		goto err;
	ret = o->no_shipped ? 0 : pmc__metrics_load_shipped(m, err);
	if (ret)
		goto err;
	*out = m;
	return 0;
err:
	if (ret == -ENOMEM || ret == -EINVAL)
		pmc__metric_error(err, NULL, NULL, -1, "%s", pmc_strerror(ret));
	pmc_metrics__delete(m);
	return ret;
}

void pmc_metrics__delete(struct pmc_metrics *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr; i++)
		pmc__metric_free(m->metrics[i]);
	for (size_t i = 0; i < m->nr_replaced; i++)
		pmc__metric_free(m->replaced[i]);
	for (size_t i = 0; i < m->nr_lazy; i++)
		pmc__lazy_free(&m->lazy[i]);
	free(m->lazy);
	pmc__name_index_free(&m->names);
	free(m->metrics);
	free(m->replaced);
	free(m->selected);
	for (size_t i = 0; i < m->nr_absent; i++) {
		free((char *)m->absent[i].name);
		free((char *)m->absent[i].why);
	}
	free(m->absent);
	free((char *)m->opts.dir);
	free((char *)m->opts.cpu_list);
	free(m);
}

/* The metric of that name among those parsed so far. */
static struct pmc_metric *loaded(const struct pmc_metrics *m, const char *name)
{
	if (m->pending && !strcasecmp(m->pending->info.name, name))
		return m->pending;
	return pmc__name_index_get(&m->names, name);
}

struct pmc_metric *pmc__metrics_lookup(const struct pmc_metrics *m, const char *name)
{
	pmc__metrics_need(m, name, strlen(name));
	return loaded(m, name);
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
	struct pmc_metric *old = loaded(m, metric->info.name);

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

size_t pmc_metrics__nr(const struct pmc_metrics *m)
{
	pmc__metrics_need(m, NULL, 0);
	return m->nr;
}

struct pmc_metric *pmc_metrics__at(const struct pmc_metrics *m, size_t idx)
{
	pmc__metrics_need(m, NULL, 0);
	return idx < m->nr ? m->metrics[idx] : NULL;
}

struct pmc_metric *pmc_metrics__find(const struct pmc_metrics *m, const char *name)
{
	return pmc__metrics_lookup(m, name);
}

size_t pmc_metrics__nr_selected(const struct pmc_metrics *m)
{
	return m->nr_selected;
}

struct pmc_metric *pmc_metrics__selected(const struct pmc_metrics *m, size_t idx)
{
	return idx < m->nr_selected ? m->selected[idx] : NULL;
}

const struct pmc_metric_info *pmc_metric__info(const struct pmc_metric *metric)
{
	return &metric->info;
}

int pmc_metrics__literal(struct pmc_metrics *m, const char *name, double *value)
{
	return pmc__literal_value(m, name, value);
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
		v.status = pmc__metric_value(&ev, metric, &v.raw);
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
		v.flagged = pmc__metric_threshold(&ev, metric, &t) == PMC_METRIC_OK ? t != 0 : -1;
	pmc__memo_free(&memo);
	if (v.status != PMC_METRIC_OK)
		v.value = v.raw = NAN;
	v.sz = out->sz;
	memcpy(out, &v, out->sz < sizeof(v) ? out->sz : sizeof(v));
	return 0;
}
