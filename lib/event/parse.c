// SPDX-License-Identifier: MIT
/* Recursive-descent parser of event strings: lists, groups, and the dispatch of one event to its
 * resolver (grammar: docs/events.md). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/tracefs.h"
#include "event/parse.h"

int pmc__parse_fail(struct pmc_parser *p, int code, int offset, const char *fmt, ...)
{
	va_list ap;

	if (p->err->msg[0])
		return code; /* the first error is the cause; keep it */
	p->err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	return code;
}

static int fail_found(struct pmc_parser *p, int offset, const char *expected)
{
	char what[32];

	return pmc__parse_fail(p, -PMC_E_PARSE, offset, "unexpected %s, expected %s",
			       pmc__lex_describe(p->str, offset, what, sizeof(what)), expected);
}

int pmc__parse_push(struct pmc_parser *p, struct pmc_evsel *evsel)
{
	if (p->nr == p->alloc) {
		size_t n = p->alloc ? p->alloc * 2 : 8;
		struct pmc_evsel **e = realloc(p->out, n * sizeof(*e));

		if (!e) {
			pmc__evsel_delete(evsel);
			return -ENOMEM;
		}
		p->out = e;
		p->alloc = n;
	}
	p->out[p->nr++] = evsel;
	return 0;
}

/* Modifiers after the event head, the event's name, then the event goes on the list. */
static int finish_event(struct pmc_parser *p, struct pmc_evsel *evsel, bool bare_mods)
{
	struct pmc_mods m;
	int ret = pmc__mods_parse(p, evsel, &m, bare_mods);

	if (!ret && !evsel->name)
		ret = pmc__evsel_set_name(evsel, p->str + evsel->offset, p->pos - evsel->offset);
	if (!ret)
		ret = pmc__mods_merge(p, evsel, &m);
	if (ret) {
		pmc__evsel_delete(evsel);
		return ret;
	}
	return pmc__parse_push(p, evsel);
}

int pmc__parse_finish_event(struct pmc_parser *p, struct pmc_evsel *evsel)
{
	return finish_event(p, evsel, false);
}

static bool is_raw(const char *s, int len)
{
	if (len < 2 || s[0] != 'r')
		return false;
	for (int i = 1; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

static int parse_raw(struct pmc_parser *p, int off, int len)
{
	struct pmc_evsel *evsel;
	const char *end;
	char hex[24];
	uint64_t v;

	if (len - 1 > 16)
		return pmc__parse_fail(p, -PMC_E_PARSE, off + 1,
				       "raw event code wider than 64 bits");
	snprintf(hex, sizeof(hex), "0x%.*s", len - 1, p->str + off + 1);
	pmc__lex_number(hex, &end, &v);
	evsel = pmc__evsel_new(p, PMC_EV_RAW, off);
	if (!evsel)
		return -ENOMEM;
	evsel->attr.type = PERF_TYPE_RAW;
	evsel->attr.config = v;
	p->pos = off + len;
	return finish_event(p, evsel, false);
}

static int parse_pmu(struct pmc_parser *p, int off, int len)
{
	int terms = off + len + 1, end = terms, ret;
	struct pmc_evsel *evsel;

	while (p->str[end] && p->str[end] != '/' && p->str[end] != '{' && p->str[end] != '}')
		end++;
	if (p->str[end] != '/')
		return fail_found(p, end, "'/' closing the PMU terms");
	evsel = pmc__evsel_new(p, PMC_EV_PMU, off);
	if (!evsel)
		return -ENOMEM;
	evsel->pmu = strndup(p->str + off, len);
	evsel->terms = strndup(p->str + terms, end - terms);
	if (!evsel->pmu || !evsel->terms) {
		pmc__evsel_delete(evsel);
		return -ENOMEM;
	}
	/* A PMU not in sysfs is left to the backend (vpmu/...) when the parse is complete. */
	ret = pmc__pmu_exists(evsel->pmu) ? pmc__pmu_parse(p, evsel, evsel->pmu, terms, end - terms)
					  : 0;
	if (ret) {
		pmc__evsel_delete(evsel);
		return ret;
	}
	p->pos = end + 1;
	return finish_event(p, evsel, isalpha((unsigned char)p->str[p->pos]));
}

static int parse_breakpoint(struct pmc_parser *p, int off)
{
	struct pmc_evsel *evsel = pmc__evsel_new(p, PMC_EV_BREAKPOINT, off);
	int ret;

	if (!evsel)
		return -ENOMEM;
	p->pos = off + 4;
	ret = pmc__bp_parse(p, evsel);
	if (ret) {
		pmc__evsel_delete(evsel);
		return ret;
	}
	return finish_event(p, evsel, isalpha((unsigned char)p->str[p->pos]));
}

/*
 * A tool event (duration_time, ...): perf's attr (a software dummy), never opened; the
 * counting layer fills its value (docs/events.md, "Tool events").
 */
static int parse_tool(struct pmc_parser *p, int off, int len, const struct pmc_event_name *t)
{
	struct pmc_evsel *evsel = pmc__evsel_new(p, PMC_EV_TOOL, off);

	if (!evsel)
		return -ENOMEM;
	evsel->attr.type = PERF_TYPE_SOFTWARE;
	evsel->attr.config = PERF_COUNT_SW_DUMMY;
	evsel->tool = (int)t->config;
	p->pos = off + len;
	return finish_event(p, evsel, false);
}

/* A generic, software, tool or cache name; 1 when name is none of them. */
static int parse_table_name(struct pmc_parser *p, int off, int len)
{
	const struct pmc_event_name *g = pmc__event_find_generic(p->str + off, len);
	const struct pmc_event_name *t = g ? NULL : pmc__event_find_tool(p->str + off, len);
	struct pmc_evsel *evsel;
	uint64_t config = 0;
	int ret = 0;

	if (t)
		return parse_tool(p, off, len, t);
	if (!g) {
		ret = pmc__event_find_cache(p->str + off, len, &config);
		if (ret == -PMC_E_UNSUPPORTED)
			return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, off,
					       "'%.*s' names an operation this cache does not have",
					       len, p->str + off);
		if (ret)
			return 1;
	}
	evsel = pmc__evsel_new(
		p,
		g ? (g->type == PERF_TYPE_HARDWARE ? PMC_EV_HARDWARE : PMC_EV_SOFTWARE)
		  : PMC_EV_CACHE,
		off);
	if (!evsel)
		return -ENOMEM;
	evsel->attr.type = g ? g->type : PERF_TYPE_HW_CACHE;
	evsel->attr.config = g ? g->config : config;
	p->pos = off + len;
	return finish_event(p, evsel, false);
}

static bool is_seg_char(char c)
{
	return c && c != ':' && c != ',' && c != '}' && c != '{' && c != '/' &&
	       !isspace((unsigned char)c);
}

/* Does the segment after "name:" read as modifiers ("u", "upp", "c=2") rather than a name? */
static bool looks_like_mods(const char *s)
{
	int n = 0;

	if (s[0] == 'c' && s[1] == '=')
		return true;
	for (; is_seg_char(s[n]); n++)
		if (!strchr("ukhpGHIDie", s[n]))
			return false;
	return n > 0;
}

static int parse_tracepoint(struct pmc_parser *p, int off, int sub_len);

static int parse_symbolic(struct pmc_parser *p, int off, int len)
{
	struct pmc_evsel *evsel;
	const char *sep;

	for (int i = 0; i < len; i++)
		if (pmc__lex_is_glob_char(p->str[off + i]))
			return fail_found(p, off + i, "a name (patterns only match tracepoints)");
	evsel = pmc__evsel_new(p, PMC_EV_SYMBOLIC, off);
	if (!evsel)
		return -ENOMEM;
	evsel->symbol = strndup(p->str + off, len);
	sep = evsel->symbol ? strstr(evsel->symbol, "::") : NULL;
	if (sep)
		evsel->pmu = strndup(evsel->symbol, sep - evsel->symbol);
	if (!evsel->symbol || (sep && !evsel->pmu)) {
		pmc__evsel_delete(evsel);
		return -ENOMEM;
	}
	p->pos = off + len;
	return finish_event(p, evsel, false);
}

/* Tracepoint or CPU-specific name? Upper case, '.' and "::" are libpfm4/perf CPU names. */
static int parse_name_colon(struct pmc_parser *p, int off, int len)
{
	const char *s = p->str + off;
	char sub[256], name[256];
	int nlen = 0;

	for (int i = 0; i < len; i++)
		if (isupper((unsigned char)s[i]) || s[i] == '.' || s[i] == ':')
			return parse_symbolic(p, off, len);
	if (!looks_like_mods(s + len + 1))
		return parse_tracepoint(p, off, len);
	while (is_seg_char(s[len + 1 + nlen]))
		nlen++;
	snprintf(sub, sizeof(sub), "%.*s", len, s);
	snprintf(name, sizeof(name), "%.*s", nlen, s + len + 1);
	if (pmc__tp_exists(sub, name))
		return parse_tracepoint(p, off, len);
	return parse_symbolic(p, off, len);
}

int pmc__parse_event(struct pmc_parser *p)
{
	int off = p->pos, len = pmc__lex_name_len(p), ret;
	const char *s = p->str + off;

	if (len == 0)
		return fail_found(p, off, "an event name");
	if (len == 3 && !memcmp(s, "mem", 3) && s[3] == ':')
		return parse_breakpoint(p, off);
	if (s[len] == '/') {
		for (int i = 0; i < len; i++)
			if (!pmc__lex_is_name_char(s[i]) || s[0] == '.')
				return fail_found(p, off + i, "a PMU name");
		return parse_pmu(p, off, len);
	}
	if (is_raw(s, len))
		return parse_raw(p, off, len);
	ret = pmc__preset_parse(p, off, len);
	if (ret <= 0)
		return ret;
	ret = parse_table_name(p, off, len);
	if (ret <= 0)
		return ret;
	if (s[len] == ':')
		return parse_name_colon(p, off, len);
	return parse_symbolic(p, off, len);
}

/* One event per tracepoint matched (patterns may match several), all with the same modifiers. */
static int add_tracepoints(struct pmc_parser *p, int off, struct pmc_tp *tps, size_t nr)
{
	int mods_off = p->pos, ret;
	struct pmc_mods m;

	ret = pmc__mods_parse(p, NULL, &m, false);
	for (size_t i = 0; i < nr && !ret; i++) {
		struct pmc_evsel *evsel = pmc__evsel_new(p, PMC_EV_TRACEPOINT, off);
		char *name;

		if (!evsel || asprintf(&name, "%s:%s%.*s", tps[i].subsys, tps[i].name,
				       p->pos - mods_off, p->str + mods_off) < 0) {
			pmc__evsel_delete(evsel);
			return -ENOMEM;
		}
		evsel->name = name;
		evsel->attr.type = PERF_TYPE_TRACEPOINT;
		evsel->attr.config = tps[i].id;
		ret = pmc__mods_merge(p, evsel, &m);
		if (ret)
			pmc__evsel_delete(evsel);
		else
			ret = pmc__parse_push(p, evsel);
	}
	return ret;
}

static int parse_tracepoint(struct pmc_parser *p, int off, int sub_len)
{
	int name_off = off + sub_len + 1, n = 0, ret;
	char *sub, *name;
	struct pmc_tp *tps = NULL;
	size_t nr = 0;

	while (pmc__lex_is_name_char(p->str[name_off + n]) ||
	       pmc__lex_is_glob_char(p->str[name_off + n]))
		n++;
	if (n == 0)
		return fail_found(p, name_off, "a tracepoint name after 'subsystem:'");
	sub = strndup(p->str + off, sub_len);
	name = strndup(p->str + name_off, n);
	ret = sub && name ? pmc__tp_lookup(sub, name, &tps, &nr) : -ENOMEM;
	if (ret == -PMC_E_NOTRACEFS && pmc__tracefs_unreadable())
		pmc__parse_fail(
			p, ret, off,
			"cannot resolve tracepoint '%s:%s': tracefs on %s is not readable "
			"by uid %u (run pmc as root, or remount it with gid=GROUP,mode=0750)",
			sub, name, pmc__tracefs_unreadable(), (unsigned)geteuid());
	else if (ret == -PMC_E_NOTRACEFS)
		pmc__parse_fail(
			p, ret, off,
			"cannot resolve tracepoint '%s:%s': tracefs is not "
			"mounted or not readable (try: mount -t tracefs nodev /sys/kernel/tracing)",
			sub, name);
	else if (ret < 0 && ret != -ENOMEM)
		pmc__parse_fail(p, ret, off, "cannot read tracepoint '%s:%s' in tracefs: %s", sub,
				name, pmc_strerror(ret));
	if (!ret && nr == 0) {
		ret = pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, off, "unknown tracepoint '%s:%s'",
				      sub, name);
		char full[512];

		snprintf(full, sizeof(full), "%s:%s", sub, name);
		pmc__suggest(p->evlist, full, sub, p->err);
	}
	p->pos = name_off + n;
	if (!ret)
		ret = add_tracepoints(p, off, tps, nr);
	pmc__tp_free(tps, nr);
	free(sub);
	free(name);
	return ret;
}
