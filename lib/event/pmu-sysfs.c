// SPDX-License-Identifier: MIT
/*
 * Events of sysfs PMUs, pmu/term=val,.../ and a PMU's alias by its name alone: the type, the
 * terms scattered over format/ bit ranges, aliases expanded (docs/events.md, "PMU terms").
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/suggest.h"
#include "core/sysfile.h"
#include "event/pmu.h"

#define MAX_ALIAS_TERMS 16

static int pmu_path(char *buf, size_t len, const char *pmu, const char *sub, const char *leaf)
{
	return pmc__sysfs_path(buf, len, "bus/event_source/devices/%s%s%s", pmu, sub,
			       leaf ? leaf : "");
}

/* Whether a PMU named pmu[0..len) has a type file. */
static bool pmu_exists(const char *pmu, int len)
{
	char path[PATH_MAX], name[NAME_MAX + 1];

	if (len <= 0 || len > NAME_MAX || pmu[0] == '.' || memchr(pmu, '/', len))
		return false;
	snprintf(name, sizeof(name), "%.*s", len, pmu);
	return !pmu_path(path, sizeof(path), name, "/type", NULL) && access(path, R_OK) == 0;
}

/*
 * perf's PMU name matching when no PMU has the name itself: every PMU whose name, less
 * "uncore_" (unless the word starts with it), is the word, or the word followed by digits
 * with or without '_' between (imc: uncore_imc_0, uncore_imc_1; imc_1: uncore_imc_1).
 */
static bool name_matches(const char *pmu, const char *word, int len)
{
	const char *q = pmu;

	if (!strncmp(pmu, "uncore_", 7) && (len < 7 || strncmp(word, "uncore_", 7)))
		q += 7;
	if (strncmp(q, word, len))
		return false;
	if (!q[len])
		return true;
	q += len + (q[len] == '_');
	if (!*q)
		return false;
	for (; *q; q++)
		if (!isdigit((unsigned char)*q))
			return false;
	return true;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int pmc__pmu_each(const char *word, int len, int (*fn)(const char *pmu, void *arg), void *arg)
{
	char dir[PATH_MAX], name[NAME_MAX + 1];
	struct dirent **v = NULL;
	int n, nr = 0, ret = 0;

	if (pmu_exists(word, len)) {
		snprintf(name, sizeof(name), "%.*s", len, word);
		ret = fn ? fn(name, arg) : 0;
		return ret < 0 ? ret : 1;
	}
	if (len <= 0 || pmc__sysfs_path(dir, sizeof(dir), "bus/event_source/devices"))
		return 0;
	n = scandir(dir, &v, NULL, by_name); /* in name order, as perf walks PMUs */
	for (int i = 0; i < n; i++) {
		const char *d = v[i]->d_name;

		if (!ret && d[0] != '.' && name_matches(d, word, len) &&
		    pmu_exists(d, (int)strlen(d))) {
			nr++;
			ret = fn ? fn(d, arg) : 0;
		}
		free(v[i]);
	}
	free(v);
	return ret < 0 ? ret : nr;
}

struct term_ctx {
	struct pmc_parser *p;
	struct pmc_evsel *evsel;
	const char *pmu;
	int alias_off; /* where the alias was written, for its terms' errors; -1 for the user's */
};

static int off_of(const struct term_ctx *c, const struct pmc_term *t)
{
	return c->alias_off >= 0 ? c->alias_off : t->off;
}

static __u64 *config_field(struct perf_event_attr *a, const char *s, size_t n)
{
	if (n == 6 && !memcmp(s, "config", 6))
		return &a->config;
	if (n == 7 && !memcmp(s, "config1", 7))
		return &a->config1;
	if (n == 7 && !memcmp(s, "config2", 7))
		return &a->config2;
	return NULL;
}

static int bad_format(struct term_ctx *c, const struct pmc_term *t, const char *fmt)
{
	return pmc__parse_fail(c->p, -PMC_E_FORMAT, off_of(c, t),
			       "malformed sysfs format of PMU '%s': '%s'", c->pmu, fmt);
}

/* Sets the bits lo..hi of field from val's bits at *used, low bits first. */
static void scatter(__u64 *field, unsigned long lo, unsigned long hi, uint64_t val, int *used)
{
	for (unsigned long b = lo; b <= hi; b++, (*used)++) {
		*field &= ~(1ULL << b);
		if (*used < 64 && (val >> *used) & 1)
			*field |= 1ULL << b;
	}
}

/* Scatters val over the bit ranges of a format file ("config:0-7,32-35"), low bits first. */
static int apply_format(struct term_ctx *c, const struct pmc_term *t, const char *fmt)
{
	const char *colon = strchr(fmt, ':'), *s;
	__u64 *field = colon ? config_field(&c->evsel->attr, fmt, colon - fmt) : NULL;
	uint64_t val = t->vtype == PMC_TV_NUM ? t->num : 1;
	int used = 0;

	if (!field)
		return bad_format(c, t, fmt);
	for (s = colon + 1; *s;) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (end == s)
			return bad_format(c, t, fmt);
		if (*end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
			if (end == s)
				return bad_format(c, t, fmt);
		}
		if (hi < lo || hi > 63 || (*end && *end != ','))
			return bad_format(c, t, fmt);
		scatter(field, lo, hi, val, &used);
		s = *end ? end + 1 : end;
	}
	if (used < 64 && val >> used)
		return pmc__parse_fail(c->p, -PMC_E_PARSE, off_of(c, t),
				       "value %#llx too big for '%s' of PMU '%s' (%d bits)",
				       (unsigned long long)val, fmt, c->pmu, used);
	return 0;
}

/* The format terms and aliases of pmu closest to term, into err's suggestions. */
static void suggest_terms(const char *pmu, const char *term, struct pmc_parse_error *err, int *dist)
{
	static const char *const subs[] = {"format", "events"};
	char dir[PATH_MAX];
	struct dirent *de;

	for (size_t i = 0; i < 2; i++) {
		DIR *d = NULL;

		if (!pmc__sysfs_path(dir, sizeof(dir), "bus/event_source/devices/%s/%s", pmu,
				     subs[i]))
			d = opendir(dir);
		while (d && (de = readdir(d)))
			if (de->d_name[0] != '.' && !strchr(de->d_name, '.'))
				pmc__suggest_add(err, dist, term, de->d_name);
		if (d)
			closedir(d);
	}
}

static int unknown_term(struct term_ctx *c, const struct pmc_term *t)
{
	static const char *const builtin[] = {"config", "config1", "config2",
					      "period", "freq",	   "name"};
	char term[64];
	int dist[3];

	snprintf(term, sizeof(term), "%.*s", t->name_len, t->name);
	pmc__parse_fail(c->p, -PMC_E_UNKNOWN_EVENT, off_of(c, t),
			"unknown term '%s' for PMU '%s' (expected a format term, an event alias, "
			"or a builtin term: config, period, name, ...)",
			term, c->pmu);
	if (c->p->err->nr_suggest)
		return -PMC_E_UNKNOWN_EVENT;
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		pmc__suggest_add(c->p->err, dist, term, builtin[i]);
	suggest_terms(c->pmu, term, c->p->err, dist);
	return -PMC_E_UNKNOWN_EVENT;
}

static int apply_term(struct term_ctx *c, const struct pmc_term *t);

/* An alias's terms (events/<alias>), and its .scale and .unit; its name= is not the event's. */
static int apply_alias(struct term_ctx *c, const struct pmc_term *at, const char *alias)
{
	struct term_ctx sub = {c->p, c->evsel, c->pmu, off_of(c, at)};
	struct pmc_term terms[MAX_ALIAS_TERMS];
	char buf[4096];
	int n = pmc__pmu_alias_terms(c->pmu, alias, buf, sizeof(buf), terms, MAX_ALIAS_TERMS);

	if (n < 0 && n != -ENOMEM)
		return pmc__parse_fail(c->p, n == -PMC_E_FORMAT ? n : -PMC_E_FORMAT, sub.alias_off,
				       "cannot read event '%s' of PMU '%s' in sysfs: %s", alias,
				       c->pmu, pmc_strerror(n));
	for (int i = 0; i < n; i++) {
		int ret = 0;

		terms[i].off = sub.alias_off;
		if (!(terms[i].name_len == 4 && !memcmp(terms[i].name, "name", 4)))
			ret = apply_term(&sub, &terms[i]);
		if (ret)
			return ret;
	}
	return n < 0 ? n
		     : pmc__pmu_alias_describe(c->pmu, alias, &c->evsel->scale, &c->evsel->unit);
}

/*
 * The alias a term names, as perf's pmu_find_alias(): NAME or NAME=1 when NAME is no format
 * term, or event=NAME. 1 when it names none.
 */
static int term_alias(struct term_ctx *c, const struct pmc_term *t, char *alias, size_t size)
{
	if (c->alias_off >= 0)
		return 1; /* an alias's own terms name formats */
	if (t->vtype == PMC_TV_STR)
		return t->name_len == 5 && !strncasecmp(t->name, "event", 5)
			       ? pmc__pmu_alias_find(c->pmu, t->str, t->str_len, alias, size) != 0
			       : 1;
	if (t->vtype == PMC_TV_NUM && t->num != 1)
		return 1;
	return pmc__pmu_alias_find(c->pmu, t->name, t->name_len, alias, size) != 0;
}

/* Builtin terms first (as perf), then format/<term>, then the events/ alias it names. */
static int apply_term(struct term_ctx *c, const struct pmc_term *t)
{
	int ret = pmc__term_apply(c->p, c->evsel, t, PMC_TERMS_PMU);
	char term[NAME_MAX + 1], path[PATH_MAX], buf[4096];

	if (ret <= 0)
		return ret;
	if (t->name_len > NAME_MAX)
		return unknown_term(c, t);
	snprintf(term, sizeof(term), "%.*s", t->name_len, t->name);
	if (t->vtype != PMC_TV_STR && !pmu_path(path, sizeof(path), c->pmu, "/format/", term) &&
	    pmc__sysfile_read(path, buf, sizeof(buf)) >= 0) {
		/* The threshold is also the planner's: one register per core. */
		if (!strcmp(term, "ldlat") && t->vtype == PMC_TV_NUM)
			c->evsel->ldlat = (unsigned)t->num;
		return apply_format(c, t, buf);
	}
	if (!term_alias(c, t, term, sizeof(term)))
		return apply_alias(c, t, term);
	if (t->vtype == PMC_TV_STR)
		return pmc__parse_fail(c->p, -PMC_E_PARSE, t->val_off,
				       "term '%.*s' of PMU '%s' takes a number (or event=ALIAS)",
				       t->name_len, t->name, c->pmu);
	return unknown_term(c, t);
}

static int read_type(struct pmc_parser *p, struct pmc_evsel *evsel, const char *pmu)
{
	char path[PATH_MAX], buf[32];
	unsigned long type;
	char *end;

	if (pmu_path(path, sizeof(path), pmu, "/type", NULL) ||
	    pmc__sysfile_read(path, buf, sizeof(buf)) <= 0)
		return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, evsel->offset,
				       "cannot read the type of PMU '%s'", pmu);
	type = strtoul(buf, &end, 10);
	if (*end || type > UINT32_MAX)
		return pmc__parse_fail(p, -PMC_E_FORMAT, evsel->offset,
				       "malformed type '%s' of PMU '%s'", buf, pmu);
	evsel->attr.type = type;
	return 0;
}

int pmc__pmu_build(struct pmc_parser *p, struct pmc_evsel *evsel, const char *pmu,
		   const struct pmc_parsed *ev)
{
	struct term_ctx c = {.p = p, .evsel = evsel, .pmu = pmu, .alias_off = -1};
	int ret = read_type(p, evsel, pmu);

	for (size_t i = 0; i < ev->nr_terms && !ret; i++)
		ret = apply_term(&c, &ev->terms[i]);
	return ret;
}

struct alias_build {
	struct pmc_parser *p;
	const struct pmc_parsed *ev;
	int (*finish)(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_parsed *ev);
};

/* The alias on one PMU: its terms at the event's offset, then the user's. */
static int alias_on(const char *pmu, const char *alias, void *arg)
{
	struct alias_build *a = arg;
	struct pmc_evsel *evsel = pmc__evsel_new(a->p, PMC_EV_PMU, a->ev->off);
	struct term_ctx c = {a->p, evsel, pmu, -1};
	struct pmc_term at = {.name = alias, .off = a->ev->off};
	int ret;

	if (!evsel)
		return -ENOMEM;
	evsel->pmu = strdup(pmu);
	ret = evsel->pmu ? read_type(a->p, evsel, pmu) : -ENOMEM;
	if (!ret)
		ret = apply_alias(&c, &at, alias);
	for (size_t i = 0; i < a->ev->nr_terms && !ret; i++)
		ret = apply_term(&c, &a->ev->terms[i]);
	if (ret) {
		pmc__evsel_delete(evsel);
		return ret;
	}
	return a->finish(a->p, evsel, a->ev);
}

int pmc__pmu_build_alias(struct pmc_parser *p, const struct pmc_parsed *ev,
			 int (*finish)(struct pmc_parser *p, struct pmc_evsel *evsel,
				       const struct pmc_parsed *ev))
{
	struct alias_build a = {p, ev, finish};
	int ret = pmc__pmu_alias_each_pmu(ev->word, ev->word_len, alias_on, &a);

	return ret < 0 ? ret : 0;
}
