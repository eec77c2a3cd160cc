// SPDX-License-Identifier: MIT
/* pmc_evlist__parse(): event lists and {groups}, resolution by the backend, and the all-or-nothing
 * append. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "event/parse.h"

static int parse_group(struct pmc_parser *p);

static int expect_sep(struct pmc_parser *p, char end)
{
	char what[32];

	return pmc__parse_fail(p, -PMC_E_PARSE, p->pos, "unexpected %s, expected %s",
			       pmc__lex_describe(p->str, p->pos, what, sizeof(what)),
			       end ? "',' or '}'" : "',' or end of string");
}

/* item (',' item)* up to end ('\0' at the top, '}' in a group). */
static int parse_list(struct pmc_parser *p, char end)
{
	for (;;) {
		int ret;

		pmc__lex_skip_ws(p);
		ret = p->str[p->pos] == '{' ? parse_group(p) : pmc__parse_event(p);
		if (ret)
			return ret;
		pmc__lex_skip_ws(p);
		if (p->str[p->pos] == end)
			return 0;
		if (p->str[p->pos] != ',')
			return expect_sep(p, end);
		p->pos++;
	}
}

/* Group modifiers go to every member, as in perf; they are also appended to each name. */
static int apply_group_mods(struct pmc_parser *p, size_t first, int mods_off,
			    const struct pmc_mods *m)
{
	int suffix = p->pos - mods_off;

	for (size_t i = first; i < p->nr; i++) {
		struct pmc_evsel *e = p->out[i];
		size_t n = strlen(e->name);
		char *name = realloc(e->name, n + suffix + 1);
		int ret;

		if (!name)
			return -ENOMEM;
		memcpy(name + n, p->str + mods_off, suffix);
		name[n + suffix] = '\0';
		e->name = name;
		ret = pmc__mods_merge(p, e, m);
		if (ret)
			return ret;
		e->leader = p->out[first];
	}
	p->out[first]->nr_members = p->nr - first;
	return 0;
}

static int parse_group(struct pmc_parser *p)
{
	int open = p->pos, ret, mods_off;
	size_t first = p->nr;
	struct pmc_mods m;

	if (p->in_group)
		return pmc__parse_fail(p, -PMC_E_PARSE, open, "nested groups are not allowed");
	p->pos++;
	pmc__lex_skip_ws(p);
	if (p->str[p->pos] == '}')
		return pmc__parse_fail(p, -PMC_E_PARSE, p->pos,
				       "empty group, expected an event after '{'");
	p->in_group = true;
	ret = parse_list(p, '}');
	p->in_group = false;
	if (ret)
		return ret;
	p->pos++;
	mods_off = p->pos;
	ret = pmc__mods_parse(p, NULL, &m, false);
	if (ret)
		return ret;
	return apply_group_mods(p, first, mods_off, &m);
}

/* CPU-specific names and PMUs unknown to sysfs are the backend's to resolve. */
static int resolve_by_backend(struct pmc_parser *p, struct pmc_evsel *evsel)
{
	const struct pmc_backend_ops *b = p->evlist->backend;
	struct pmc_parse_error e = {0};
	const char *what = evsel->kind == PMC_EV_SYMBOLIC ? evsel->symbol : evsel->pmu;
	int ret = b ? pmc__backend_resolve(b, evsel, &e) : -PMC_E_UNKNOWN_EVENT;

	if (!ret)
		return 0;
	if (e.msg[0] && !p->err->msg[0]) {
		*p->err = e;
		p->err->offset += evsel->offset;
	}
	if (evsel->kind == PMC_EV_SYMBOLIC)
		pmc__parse_fail(p, ret, evsel->offset, "unknown event '%s'", what);
	else
		pmc__parse_fail(p, ret, evsel->offset,
				"unknown PMU '%s' (not in sysfs, and "
				"backend '%s' does not know it)",
				what, b ? b->name : "none");
	if (ret == -PMC_E_UNKNOWN_EVENT && !p->err->nr_suggest)
		pmc__suggest(p->evlist, what, NULL, p->err);
	return ret;
}

static int finalize(struct pmc_parser *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		struct pmc_evsel *e = p->out[i];
		int ret = 0;

		if (e->kind == PMC_EV_SYMBOLIC ||
		    (e->kind == PMC_EV_PMU && !pmc__pmu_exists(e->pmu)))
			ret = resolve_by_backend(p, e);
		if (ret)
			return ret;
		/* After resolve: the user's privilege choice wins over the backend's. */
		pmc__mods_apply(e, p->evlist->priv);
	}
	return 0;
}

static int append_all(struct pmc_parser *p)
{
	struct pmc_evlist *evlist = p->evlist;

	if (evlist->nr + p->nr > evlist->alloc) {
		size_t n = (evlist->nr + p->nr) * 2;
		struct pmc_evsel **e = realloc(evlist->entries, n * sizeof(*e));

		if (!e)
			return -ENOMEM;
		evlist->entries = e;
		evlist->alloc = n;
	}
	for (size_t i = 0; i < p->nr; i++) {
		p->out[i]->idx = evlist->nr;
		evlist->entries[evlist->nr++] = p->out[i];
	}
	p->nr = 0;
	return 0;
}

int pmc_evlist__parse(struct pmc_evlist *evlist, const char *str, struct pmc_parse_error *err)
{
	struct pmc_parse_error local;
	struct pmc_parser p = {.str = str, .evlist = evlist, .err = err ? err : &local};
	int ret;

	memset(p.err, 0, sizeof(*p.err));
	if (!evlist || !str)
		return -EINVAL;
	ret = parse_list(&p, '\0');
	if (!ret)
		ret = finalize(&p);
	if (!ret)
		ret = append_all(&p);
	for (size_t i = 0; i < p.nr; i++)
		pmc__evsel_delete(p.out[i]);
	free(p.out);
	if (ret == -ENOMEM && !p.err->msg[0])
		pmc__parse_fail(&p, ret, p.pos, "out of memory");
	return ret;
}
