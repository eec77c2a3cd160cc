// SPDX-License-Identifier: MIT
/*
 * The events of one pmc_evlist__parse() call until it ends: the first error, the pending
 * list, groups (leader, name, group modifiers), resolution by the backend, and the
 * all-or-nothing append (docs/events.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "core/grow.h"
#include "core/log.h"
#include "event/parse.h"
#include "event/pmu.h"
#include "event/uncore.h"

int pmc__parse_push(struct pmc_parser *p, struct pmc_evsel *evsel)
{
	if (PMC_ENSURE(p->out, p->alloc, p->nr + 1)) {
		pmc__evsel_delete(evsel);
		return -ENOMEM;
	}
	p->out[p->nr++] = evsel;
	return 0;
}

/* s[0..len) inserted into *text before its last at bytes from the end. */
static int insert_mods(char **text, size_t at, const char *s, int len)
{
	size_t n = strlen(*text);
	char *t = realloc(*text, n + (size_t)len + 1);

	if (!t)
		return -ENOMEM;
	memmove(t + n - at + len, t + n - at, at + 1);
	memcpy(t + n - at, s, (size_t)len);
	*text = t;
	return 0;
}

/*
 * Group modifiers are appended to a member's name, unless a name= term chose it. A generic
 * event a hybrid machine made one per core PMU ("cpu_core/cycles/") takes them inside its
 * slashes, as perf 6.1 names it ("cpu_core/cycles:u/"), and so does the name its merged line
 * shows ("cycles:u").
 */
static int append_mods(struct pmc_evsel *e, const char *s, int len)
{
	int err;

	if (!len || (e->cfg.written & 1u << PMC_TERM_NAME))
		return 0;
	if (!e->hybrid_of)
		return insert_mods(&e->name, 0, s, len);
	err = insert_mods(&e->name, e->name[0] && e->name[strlen(e->name) - 1] == '/', s, len);
	return err ? err : insert_mods(&e->hybrid_of, 0, s, len);
}

/*
 * Group modifiers go to every member in addition to its own, as in perf; D and e only to the
 * leader (perf's rule: they are the group's). The group's name is kept on the leader.
 */
/* The core PMU (its index in set) an event counts on, or -1 (software, uncore, every core). */
static int core_of(const struct pmc__core_pmus *set, const struct pmc_evsel *e)
{
	const struct pmc__core_pmu *c =
		e->pmu ? pmc__core_pmu_find(set, e->pmu, (int)strlen(e->pmu)) : NULL;

	return c ? (int)(c - set->pmu) : -1;
}

/* Orders out[first..) by keys, stably (insertion sort: groups are small); the groups' count. */
static size_t sort_by_keys(struct pmc_parser *p, size_t first, int *keys)
{
	size_t n = p->nr - first, groups = 1;

	for (size_t i = 1; i < n; i++) {
		struct pmc_evsel *e = p->out[first + i];
		int k = keys[i];
		size_t j = i;

		for (; j > 0 && keys[j - 1] > k; j--) {
			keys[j] = keys[j - 1];
			p->out[first + j] = p->out[first + j - 1];
		}
		keys[j] = k;
		p->out[first + j] = e;
	}
	for (size_t i = 1; i < n; i++)
		groups += keys[i] != keys[i - 1];
	return groups;
}

/*
 * On a hybrid machine a group of generic events ({cycles,instructions}: each one event per
 * core PMU) becomes one group per core PMU, as perf 6.1 splits it: the kernel refuses a
 * group whose events are on different core PMUs. The members are put in order of their core
 * PMU (stable; an event of no core PMU stays with the group's first); returns the groups' count.
 */
static size_t split_by_core(struct pmc_parser *p, size_t first, int *keys)
{
	struct pmc__core_pmus set;
	size_t n = p->nr - first;

	if (pmc__core_pmus(&set, p->evlist) < 2) {
		memset(keys, 0, n * sizeof(*keys));
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		keys[i] = core_of(&set, p->out[first + i]);
		if (keys[i] < 0)
			keys[i] = i ? keys[0] : 0;
	}
	return sort_by_keys(p, first, keys);
}

/*
 * A group whose every event was written with a PMU wildcard or an alias that several units
 * have, each on the same units in the same order ({uncore_imc/cas_count_read/,
 * uncore_imc/cas_count_write/}: six units each), becomes one group per unit, as perf 6.1
 * regroups uncore aliases (parse_events__set_leader_for_uncore_aliase()): the kernel groups
 * events of one PMU only. keys[i]: the unit of out[first + i]; returns the groups' count, 1
 * (keys 0) where the group is not of that shape.
 */
static size_t split_by_unit(struct pmc_parser *p, size_t first, int *keys)
{
	size_t n = p->nr - first, k = 0;

	memset(keys, 0, n * sizeof(*keys));
	while (k < n && p->out[first + k]->offset == p->out[first]->offset)
		k++;
	if (k < 2 || n % k)
		return 1;
	for (size_t i = 0; i < n; i++) {
		const struct pmc_evsel *e = p->out[first + i], *same_unit = p->out[first + i % k];
		const struct pmc_evsel *run = p->out[first + i - i % k];

		if (!pmc__evsel_uncore(e) || !e->pmu || !same_unit->pmu ||
		    strcmp(e->pmu, same_unit->pmu) || e->offset != run->offset)
			return 1;
	}
	for (size_t i = 0; i < n; i++)
		keys[i] = (int)(i % k);
	return sort_by_keys(p, first, keys);
}

/* Makes out[first..end) one group led by out[first]. */
static int close_one(struct pmc_parser *p, size_t first, size_t end, const char *name, int name_len,
		     const struct pmc_mods *m, int mods_off, int mods_end)
{
	struct pmc_evsel *leader = p->out[first];

	for (size_t i = first; i < end; i++) {
		struct pmc_evsel *e = p->out[i];
		int ret;

		e->leader = leader;
		ret = append_mods(e, p->str + mods_off, mods_end - mods_off);
		if (!ret)
			ret = pmc__mods_merge(p, e, m, true);
		if (ret)
			return ret;
	}
	leader->nr_members = end - first;
	if (name) {
		leader->group_name = strndup(name, name_len);
		if (!leader->group_name)
			return -ENOMEM;
	}
	return 0;
}

int pmc__group_close(struct pmc_parser *p, size_t first, const char *name, int name_len,
		     const struct pmc_mods *m, int mods_off, int mods_end)
{
	int *keys = calloc(p->nr - first + 1, sizeof(*keys));
	size_t start = first;
	int ret = 0;

	if (!keys)
		return -ENOMEM;
	if (split_by_unit(p, first, keys) > 1)
		pr_info("the group at offset %d is of uncore aliases: one group per unit\n",
			p->out[first]->offset);
	else if (split_by_core(p, first, keys) > 1)
		pr_info("the group at offset %d spans core PMUs: one group per core PMU\n",
			p->out[first]->offset);
	for (size_t i = first + 1; i <= p->nr && !ret; i++) {
		if (i < p->nr && keys[i - first] == keys[i - 1 - first])
			continue;
		ret = close_one(p, start, i, name, name_len, m, mods_off, mods_end);
		start = i;
	}
	free(keys);
	return ret;
}

/* CPU-specific names and PMUs unknown to sysfs are the backend's to resolve. */
static int resolve_by_backend(struct pmc_parser *p, struct pmc_evsel *evsel)
{
	const struct pmc_backend_ops *b = p->evlist->backend;
	struct pmc_parse_error e = {0};
	const char *what = evsel->kind == PMC_EV_SYMBOLIC ? evsel->symbol : evsel->pmu;
	struct perf_event_attr written = evsel->attr;
	int ret = b ? pmc__backend_resolve(b, evsel, &e) : -PMC_E_UNKNOWN_EVENT;
	unsigned terms = evsel->cfg.written;

	if (!ret && evsel->kind == PMC_EV_SYMBOLIC && !evsel->ldlat)
		evsel->ldlat = pmc__symbol_ldlat(evsel->symbol);
	if (!ret) { /* a config term written on a CPU name replaces the word it encodes */
		if (terms & 1u << PMC_TERM_CONFIG)
			evsel->attr.config = written.config;
		if (terms & 1u << PMC_TERM_CONFIG1)
			evsel->attr.config1 = written.config1;
		if (terms & 1u << PMC_TERM_CONFIG2)
			evsel->attr.config2 = written.config2;
		return 0;
	}
	if (e.msg[0] && !p->err->msg[0]) {
		*p->err = e;
		p->err->offset = evsel->kind == PMC_EV_PMU && evsel->terms_off >= 0
					 ? evsel->terms_off + e.offset
					 : evsel->offset;
	}
	if (evsel->kind == PMC_EV_SYMBOLIC)
		pmc__parse_fail(p, ret, evsel->offset, "unknown event '%s'", what);
	else
		pmc__parse_fail(
			p, ret, evsel->offset,
			"unknown PMU '%s' (not in sysfs, and backend '%s' does not know it)", what,
			b ? b->name : "none");
	if (ret == -PMC_E_UNKNOWN_EVENT && !p->err->nr_suggest)
		pmc__suggest(p->evlist, what, NULL, p->err);
	return ret;
}

static int append_all(struct pmc_parser *p)
{
	struct pmc_evlist *evlist = p->evlist;

	if (PMC_ENSURE(evlist->entries, evlist->alloc, evlist->nr + p->nr))
		return -ENOMEM;
	for (size_t i = 0; i < p->nr; i++) {
		p->out[i]->idx = evlist->nr;
		evlist->entries[evlist->nr++] = p->out[i];
	}
	p->nr = 0;
	return 0;
}

int pmc__parse_commit(struct pmc_parser *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		struct pmc_evsel *e = p->out[i];
		int ret = 0;

		if (e->kind == PMC_EV_SYMBOLIC || e->by_backend)
			ret = resolve_by_backend(p, e);
		if (ret)
			return ret;
		/* After resolve: the user's privilege choice wins over the backend's. */
		pmc__mods_apply(e, p->evlist->priv);
	}
	return append_all(p);
}

void pmc__parse_discard(struct pmc_parser *p)
{
	for (size_t i = 0; i < p->nr; i++)
		pmc__evsel_delete(p->out[i]);
	free(p->out);
	p->out = NULL;
	p->nr = p->alloc = 0;
}

/*
 * perf's group names are its lexer's plain names: not an event keyword, a PMU's event,
 * modifier letters or a raw code, and no '-'.
 */
bool pmc__group_name_ok(const struct pmc_tok *t)
{
	uint64_t config;

	if (t->quoted)
		return true;
	return !memchr(t->text, '-', t->text_len) &&
	       !pmc__event_find_generic(t->text, t->text_len) &&
	       !pmc__event_find_tool(t->text, t->text_len) &&
	       pmc__event_find_cache(t->text, t->text_len, &config) == -PMC_E_UNKNOWN_EVENT &&
	       !pmc__lex_mod_letters(t->text, t->text_len) && t->raw != 1 &&
	       !pmc__pmu_alias_exists(t->text, t->text_len);
}
