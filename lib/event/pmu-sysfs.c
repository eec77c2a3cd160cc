// SPDX-License-Identifier: MIT
/* PMU-qualified events pmu/term=val,.../ resolved through sysfs: type, format/ bit ranges and
 * events/ aliases. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/suggest.h"
#include "core/sysfile.h"
#include "event/parse.h"

static int pmu_path(char *buf, size_t len, const char *pmu, const char *sub, const char *leaf)
{
	return pmc__sysfs_path(buf, len, "bus/event_source/devices/%s%s%s", pmu, sub,
			       leaf ? leaf : "");
}

bool pmc__pmu_exists(const char *pmu)
{
	char path[PATH_MAX];

	if (!pmu || !*pmu || pmu[0] == '.' || strchr(pmu, '/'))
		return false;
	return !pmu_path(path, sizeof(path), pmu, "/type", NULL) && access(path, R_OK) == 0;
}

struct term_ctx {
	struct pmc_parser *p;
	struct pmc_evsel *evsel;
	const char *pmu;
	int alias_off; /* offset of the alias term in the user's string, -1 for the user's terms */
	int alias_depth;
};

static int off_of(const struct term_ctx *c, const char *at)
{
	return c->alias_off >= 0 ? c->alias_off : (int)(at - c->p->str);
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

static int bad_format(struct term_ctx *c, const char *at, const char *fmt)
{
	return pmc__parse_fail(c->p, -PMC_E_FORMAT, off_of(c, at),
			       "malformed sysfs format of PMU '%s': '%s'", c->pmu, fmt);
}

/* Scatters val over the bit ranges of a format file ("config:0-7,32-35"), low bits first. */
static int apply_format(struct term_ctx *c, const char *at, const char *fmt, uint64_t val)
{
	const char *colon = strchr(fmt, ':'), *s;
	__u64 *field = colon ? config_field(&c->evsel->attr, fmt, colon - fmt) : NULL;
	int used = 0;

	if (!field)
		return bad_format(c, at, fmt);
	for (s = colon + 1; *s;) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (end == s)
			return bad_format(c, at, fmt);
		if (*end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
			if (end == s)
				return bad_format(c, at, fmt);
		}
		if (hi < lo || hi > 63 || (*end && *end != ','))
			return bad_format(c, at, fmt);
		for (unsigned long b = lo; b <= hi; b++, used++) {
			*field &= ~(1ULL << b);
			if (used < 64 && (val >> used) & 1)
				*field |= 1ULL << b;
		}
		s = *end ? end + 1 : end;
	}
	if (used < 64 && val >> used)
		return pmc__parse_fail(c->p, -PMC_E_PARSE, off_of(c, at),
				       "value %#llx too big for '%s' of PMU '%s' (%d bits)",
				       (unsigned long long)val, fmt, c->pmu, used);
	return 0;
}

static int suggest_dir(const char *dir, const char *name, struct pmc_parse_error *err, int *dist)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && !strchr(de->d_name, '.'))
			pmc__suggest_add(err, dist, name, de->d_name);
	closedir(d);
	return 0;
}

static int unknown_term(struct term_ctx *c, const char *at, const char *term)
{
	char dir[PATH_MAX];
	int dist[3];
	static const char *const builtin[] = {"config", "config1", "config2",
					      "period", "freq",	   "name"};

	pmc__parse_fail(c->p, -PMC_E_UNKNOWN_EVENT, off_of(c, at),
			"unknown term '%s' for PMU '%s' (expected a format term, an event alias, "
			"config, config1, config2, period, freq or name)",
			term, c->pmu);
	if (c->p->err->nr_suggest)
		return -PMC_E_UNKNOWN_EVENT;
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		pmc__suggest_add(c->p->err, dist, term, builtin[i]);
	if (!pmu_path(dir, sizeof(dir), c->pmu, "/format", NULL))
		suggest_dir(dir, term, c->p->err, dist);
	if (!pmu_path(dir, sizeof(dir), c->pmu, "/events", NULL))
		suggest_dir(dir, term, c->p->err, dist);
	return -PMC_E_UNKNOWN_EVENT;
}

static int parse_terms(struct term_ctx *c, const char *s, int len);

/* events/<alias> holds terms ("event=0x3c,umask=0x00"); .scale and .unit beside it. */
static int apply_alias(struct term_ctx *c, const char *at, const char *path, const char *buf, int n)
{
	struct term_ctx sub = *c;
	char extra[PATH_MAX + 16], val[64];
	int ret;

	sub.alias_off = off_of(c, at);
	sub.alias_depth++;
	ret = parse_terms(&sub, buf, n);
	if (ret)
		return ret;
	snprintf(extra, sizeof(extra), "%s.scale", path);
	if (pmc__sysfile_read(extra, val, sizeof(val)) > 0)
		c->evsel->scale = strtod(val, NULL);
	snprintf(extra, sizeof(extra), "%s.unit", path);
	if (pmc__sysfile_read(extra, val, sizeof(val)) > 0) {
		free(c->evsel->unit);
		c->evsel->unit = strdup(val);
		if (!c->evsel->unit)
			return -ENOMEM;
	}
	return 0;
}

/* Built-in terms first (as perf), then format/<term>, then events/<term> aliases. */
static int apply_named(struct term_ctx *c, const char *at, const char *term, uint64_t val,
		       bool has_val)
{
	struct perf_event_attr *a = &c->evsel->attr;
	__u64 *field = config_field(a, term, strlen(term));
	char path[PATH_MAX], buf[4096];
	int n;

	if (field) {
		*field = val;
		return 0;
	}
	if (!strcmp(term, "period") || !strcmp(term, "freq")) {
		a->freq = term[0] == 'f';
		a->sample_period = val; /* a union with sample_freq */
		return 0;
	}
	if (pmu_path(path, sizeof(path), c->pmu, "/format/", term))
		return unknown_term(c, at, term);
	n = pmc__sysfile_read(path, buf, sizeof(buf));
	if (n >= 0)
		return apply_format(c, at, buf, val);
	if (!has_val && !c->alias_depth &&
	    !pmu_path(path, sizeof(path), c->pmu, "/events/", term)) {
		n = pmc__sysfile_read(path, buf, sizeof(buf));
		if (n >= 0)
			return apply_alias(c, at, path, buf, n);
	}
	return unknown_term(c, at, term);
}

static int apply_term(struct term_ctx *c, const char *at, int nlen, const char *v, int vlen)
{
	char term[64];
	const char *end;
	uint64_t val = 1; /* a term without a value means 1, as in perf */

	if (nlen >= (int)sizeof(term))
		return pmc__parse_fail(c->p, -PMC_E_PARSE, off_of(c, at), "term name too long");
	snprintf(term, sizeof(term), "%.*s", nlen, at);
	if (!strcmp(term, "name")) {
		if (!v || vlen == 0)
			return pmc__parse_fail(c->p, -PMC_E_PARSE, off_of(c, at),
					       "expected a value after 'name='");
		return c->alias_depth ? 0 : pmc__evsel_set_name(c->evsel, v, vlen);
	}
	if (v) {
		int ret = pmc__lex_number(v, &end, &val);

		if (ret || end != v + vlen)
			return pmc__parse_fail(c->p, -PMC_E_PARSE, off_of(c, ret ? end : v + vlen),
					       "%s in the value of term '%s', expected a decimal "
					       "or 0x-hex number",
					       ret == -ERANGE ? "overflow" : "unexpected character",
					       term);
	}
	return apply_named(c, at, term, val, v != NULL);
}

static bool is_term_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* term (',' term)*, term = NAME ['=' VALUE]. */
static int parse_terms(struct term_ctx *c, const char *s, int len)
{
	int i = 0, ret;

	if (len == 0)
		return pmc__parse_fail(c->p, -PMC_E_PARSE, off_of(c, s),
				       "expected a term between the slashes of PMU '%s'", c->pmu);
	while (i < len) {
		int ns = i, vs = -1;

		while (i < len && is_term_char(s[i]))
			i++;
		if (i == ns)
			return pmc__parse_fail(c->p, -PMC_E_PARSE, off_of(c, s + i),
					       "expected a term name in PMU '%s' terms", c->pmu);
		if (i < len && s[i] == '=') {
			vs = ++i;
			while (i < len && s[i] != ',')
				i++;
		}
		ret = apply_term(c, s + ns, (vs < 0 ? i : vs - 1) - ns, vs < 0 ? NULL : s + vs,
				 vs < 0 ? 0 : i - vs);
		if (ret)
			return ret;
		if (i < len && s[i] != ',')
			return pmc__parse_fail(c->p, -PMC_E_PARSE, off_of(c, s + i),
					       "expected ',' or '/' after a term");
		if (i < len && ++i == len)
			return pmc__parse_fail(c->p, -PMC_E_PARSE, off_of(c, s + i),
					       "expected a term after ','");
	}
	return 0;
}

int pmc__pmu_parse(struct pmc_parser *p, struct pmc_evsel *evsel, const char *pmu, int terms_off,
		   int terms_len)
{
	struct term_ctx c = {.p = p, .evsel = evsel, .pmu = pmu, .alias_off = -1};
	char path[PATH_MAX], buf[32];
	char *end;
	unsigned long type;

	if (pmu_path(path, sizeof(path), pmu, "/type", NULL) ||
	    pmc__sysfile_read(path, buf, sizeof(buf)) <= 0)
		return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, evsel->offset,
				       "cannot read the type of PMU '%s'", pmu);
	type = strtoul(buf, &end, 10);
	if (*end || type > UINT32_MAX)
		return pmc__parse_fail(p, -PMC_E_FORMAT, evsel->offset,
				       "malformed type '%s' of PMU '%s'", buf, pmu);
	evsel->attr.type = type;
	return parse_terms(&c, p->str + terms_off, terms_len);
}

static int for_each_alias(const char *pmu, pmc_event_fn fn, void *arg)
{
	char dir[PATH_MAX], path[PATH_MAX + 256], name[600], desc[256];
	struct pmc_event_info info = {.name = name, .kind = PMC_EV_PMU, .pmu = pmu};
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (pmu_path(dir, sizeof(dir), pmu, "/events", NULL) || !(d = opendir(dir)))
		return 0;
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue; /* .scale, .unit, .per-pkg, .snapshot describe an alias */
		snprintf(name, sizeof(name), "%s/%s/", pmu, de->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		info.desc = pmc__sysfile_read(path, desc, sizeof(desc)) > 0 ? desc : NULL;
		ret = fn(&info, arg);
	}
	closedir(d);
	return ret;
}

int pmc__pmu_for_each(pmc_event_fn fn, void *arg)
{
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (pmc__sysfs_path(dir, sizeof(dir), "bus/event_source/devices"))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (de = readdir(d)))
		if (de->d_name[0] != '.')
			ret = for_each_alias(de->d_name, fn, arg);
	closedir(d);
	return ret;
}
