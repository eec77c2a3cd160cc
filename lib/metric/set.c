// SPDX-License-Identifier: MIT
/* The set of metric definitions: its life and lookups (defs.c adds to it). */
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

int pmc__metrics_absent_add(struct pmc_metrics *m, const char *event, const char *why)
{
	struct pmc_metric_counts *v = realloc(m->absent, (m->nr_absent + 1) * sizeof(*v));
	char *name, *reason;

	if (!v)
		return -ENOMEM;
	m->absent = v;
	name = strdup(event);
	reason = strdup(why);
	if (!name || !reason) {
		free(name);
		free(reason);
		return -ENOMEM;
	}
	v[m->nr_absent++] = (struct pmc_metric_counts){.name = name, .pass = -1, .why = reason};
	return 0;
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

struct pmc_metric *pmc__metrics_lookup(const struct pmc_metrics *m, const char *name)
{
	pmc__metrics_need(m, name, strlen(name));
	return pmc__metrics_loaded(m, name);
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
