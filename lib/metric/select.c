// SPDX-License-Identifier: MIT
/* What the user asks for: metrics selected by names and groups, and one-off definitions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pmc/error.h>
#include "core/grow.h"
#include "core/suggest.h"
#include "metric/metric.h"

/* Offers the metric names and groups closest to the unknown name. */
static void suggest(const struct pmc_metrics *m, const char *name, struct pmc_parse_error *err)
{
	int dist[3] = {0};
	char group[128];

	pmc__metrics_need(m, NULL, 0); /* every name is a candidate */
	err->nr_suggest = 0;
	for (size_t i = 0; i < m->nr; i++) {
		const char *g = m->metrics[i]->info.groups;

		pmc__suggest_add(err, dist, name, m->metrics[i]->info.name);
		while (*g) {
			size_t n = strcspn(g, ";");

			snprintf(group, sizeof(group), "%.*s", (int)n, g);
			pmc__suggest_add(err, dist, name, group);
			g += n + (g[n] == ';');
		}
	}
}

/* A selection being made: the metrics picked so far, in the order they are picked. */
struct pick {
	struct pmc_metric **v;
	size_t nr;
};

static void pick(struct pick *p, struct pmc_metric *metric)
{
	if (metric->info.selected)
		return;
	for (size_t i = 0; i < p->nr; i++)
		if (p->v[i] == metric)
			return;
	p->v[p->nr++] = metric;
}

/* Picks the metrics one name selects; returns how many it matched (picked before or not). */
static size_t match(const struct pmc_metrics *m, const char *name, size_t len, struct pick *p)
{
	size_t nr = 0;
	bool all = len == 3 && !strncmp(name, "all", 3);

	for (size_t i = 0; i < m->nr; i++) {
		const struct pmc_metric_info *info = &m->metrics[i]->info;

		if (all || (strlen(info->name) == len && !strncasecmp(info->name, name, len)) ||
		    pmc__in_list(info->groups, ';', name, len)) {
			pick(p, m->metrics[i]);
			nr++;
		}
	}
	return nr;
}

/* Room for more selected metrics, grown by doubling: selecting n one by one is linear in n. */
static int reserve(struct pmc_metrics *m, size_t more)
{
	return PMC_ENSURE(m->selected, m->cap_selected, m->nr_selected + more);
}

/* Appends the picked metrics to the selection, checking each for cycles first. */
static int commit(struct pmc_metrics *m, const struct pick *p, struct pmc_metric_error *err)
{
	char why[192];
	int ret;

	if (reserve(m, p->nr + 1))
		return -ENOMEM;
	for (size_t i = 0; i < p->nr; i++) {
		ret = pmc__metric_check_cycles(p->v[i], why, sizeof(why));
		if (ret) {
			pmc__metric_error(err, NULL, NULL, -1,
					  "metrics refer to each other in a cycle: %s", why);
			return ret;
		}
	}
	for (size_t i = 0; i < p->nr; i++) {
		m->selected[m->nr_selected++] = p->v[i];
		p->v[i]->info.selected = true;
	}
	return 0;
}

/* Parses the shipped entries each name of the list needs ("all": every one). */
static void need_list(const struct pmc_metrics *m, const char *list)
{
	for (const char *s = list; *s;) {
		size_t len;

		s += strspn(s, " \t");
		len = strcspn(s, ",");
		while (len && strchr(" \t", s[len - 1]))
			len--;
		if (len)
			pmc__metrics_need(m, s, len == 3 && !strncmp(s, "all", 3) ? 0 : len);
		s += strcspn(s, ",");
		s += *s == ',';
	}
}

int pmc_metrics__select(struct pmc_metrics *m, const char *list, struct pmc_metric_error *err)
{
	struct pick p;
	int ret = 0;

	need_list(m, list);
	p = (struct pick){.v = calloc(m->nr + 1, sizeof(*p.v))};
	if (!p.v)
		return -ENOMEM;
	for (const char *s = list; !ret;) {
		size_t len;

		s += strspn(s, " \t");
		len = strcspn(s, ",");
		while (len && strchr(" \t", s[len - 1]))
			len--;
		if (!len) {
			pmc__metric_error(err, NULL, list, (int)(s - list),
					  "expected a metric or group name");
			ret = -PMC_E_UNKNOWN_METRIC;
		} else if (!match(m, s, len, &p)) {
			char name[128];

			snprintf(name, sizeof(name), "%.*s", (int)len, s);
			pmc__metric_error(err, NULL, list, (int)(s - list),
					  "no metric or metric group '%s'", name);
			if (err)
				suggest(m, name, &err->parse);
			ret = -PMC_E_UNKNOWN_METRIC;
		}
		s += strcspn(s, ",");
		if (!*s++)
			break;
	}
	ret = ret ?: commit(m, &p, err);
	free(p.v);
	return ret;
}

int pmc__metrics_select_one(struct pmc_metrics *m, struct pmc_metric *metric)
{
	if (metric->info.selected)
		return 0;
	if (reserve(m, 1))
		return -ENOMEM;
	m->selected[m->nr_selected++] = metric;
	metric->info.selected = true;
	return 0;
}

/* A metric name a definition may give: a letter or '_', then letters, digits, '_' or '.'. */
static size_t name_len(const char *s)
{
	size_t i = 0;

	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return 0;
	while ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
	       (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '.')
		i++;
	return i;
}

/* The metric of a definition whose name is def[at, at + len) and expression follows eq. */
static int new_metric(struct pmc_metrics *m, const char *def, size_t at, size_t len, const char *eq,
		      struct pmc_metric **out, struct pmc_metric_error *err)
{
	struct pmc_metric *metric = calloc(1, sizeof(*metric));
	struct pmc_metric_info *i = metric ? &metric->info : NULL;
	struct pmc_parse_error perr;
	int ret = -ENOMEM;

	if (!metric)
		return -ENOMEM;
	i->name = strndup(def + at, len);
	i->expr = strdup(eq + 1);
	i->groups = strdup("");
	i->unit = strdup("");
	i->scale = 1;
	if (i->name && i->expr && i->groups && i->unit)
		ret = pmc__expr_parse(i->expr, m->opts.runtime, &metric->expr, &perr);
	if (ret == -PMC_E_EXPR) {
		perr.offset += (int)(eq + 1 - def);
		pmc__metric_error_from(err, NULL, def, &perr);
	}
	if (ret) {
		pmc__metric_free(metric);
		return ret;
	}
	*out = metric;
	return 0;
}

int pmc_metrics__define(struct pmc_metrics *m, const char *def, struct pmc_metric_error *err)
{
	size_t at = strspn(def, " \t"), len = name_len(def + at), eq = at + len;
	struct pmc_metric *metric;
	char why[192];
	int ret;

	eq += strspn(def + eq, " \t");
	if (!len || def[eq] != '=') {
		pmc__metric_error(err, NULL, def, (int)eq,
				  len ? "expected '=' after the metric's name"
				      : "expected a metric name (a letter or '_', then letters, "
					"digits, '_' or '.') and '='");
		return -PMC_E_EXPR;
	}
	ret = new_metric(m, def, at, len, def + eq, &metric, err);
	if (ret)
		return ret;
	/* It refers to itself (through others) once its name is its: checked before it is. */
	m->pending = metric;
	metric->set = m;
	m->gen++;
	ret = pmc__metric_check_cycles(metric, why, sizeof(why));
	m->pending = NULL;
	m->gen++;
	if (ret) {
		pmc__metric_error(err, NULL, def, (int)at,
				  "metrics refer to each other in a cycle: %s", why);
		pmc__metric_free(metric);
		return ret;
	}
	ret = pmc__metrics_add(m, &metric, 1);
	if (ret)
		return ret;
	return metric->info.selected ? 0 : pmc__metrics_select_one(m, metric);
}

unsigned pmc_metrics__topdown_levels(const struct pmc_metrics *m)
{
	unsigned levels = 0;
	char group[16];

	if (!m)
		return 0;
	pmc__metrics_need(m, NULL, 0); /* a level's group may be in any shipped entry */
	for (size_t i = 0; i < m->nr; i++)
		for (int level = 1; level <= 9; level++) {
			snprintf(group, sizeof(group), "TopdownL%d", level);
			if (pmc__in_list(m->metrics[i]->info.groups, ';', group, strlen(group)))
				levels |= 1u << (level - 1);
		}
	return levels;
}
