// SPDX-License-Identifier: MIT
/*
 * From one parsed event (struct pmc_parsed, parse.c) to the events it stands for: the
 * encoding of its head, its terms and modifiers, its name (the text as written, or name=),
 * onto the pending list (group.c). Tracepoint patterns and PMU aliases may stand for several.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/log.h"
#include "event/pmu.h"

static int finish(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_parsed *ev)
{
	int ret = 0;

	if (!evsel->name)
		ret = pmc__evsel_set_name(evsel, p->str + ev->off, ev->end - ev->off);
	if (!ret)
		ret = pmc__mods_merge(p, evsel, &ev->mods, false);
	if (ret) {
		pmc__evsel_delete(evsel);
		return ret;
	}
	return pmc__parse_push(p, evsel);
}

/* A new event of kind with type and config, and ev's terms in scope (builtin terms only). */
static int make(struct pmc_parser *p, const struct pmc_parsed *ev, enum pmc_event_kind kind,
		uint32_t type, uint64_t config, struct pmc_evsel **out)
{
	enum pmc_term_scope scope = kind == PMC_EV_TRACEPOINT ? PMC_TERMS_TP : PMC_TERMS_COMMON;
	struct pmc_evsel *evsel = pmc__evsel_new(p, kind, ev->off);

	if (!evsel)
		return -ENOMEM;
	evsel->attr.type = type;
	evsel->attr.config = config;
	for (size_t i = 0; i < ev->nr_terms; i++) {
		int ret = pmc__term_apply(p, evsel, &ev->terms[i], scope);

		if (ret) {
			pmc__evsel_delete(evsel);
			return ret;
		}
	}
	*out = evsel;
	return 0;
}

static int build_simple(struct pmc_parser *p, const struct pmc_parsed *ev, enum pmc_event_kind kind,
			uint32_t type, uint64_t config)
{
	struct pmc_evsel *evsel;
	int ret = make(p, ev, kind, type, config, &evsel);

	return ret ? ret : finish(p, evsel, ev);
}

/*
 * A generic hardware or cache event on a hybrid machine: one event per core PMU that takes
 * the extended type (its type in config[63:32]; a raw event rN: of the PMU's type), named
 * "pmu/event/" as perf 6.1 prints it,
 * on that PMU's CPUs; only --cputype's PMU when set (docs/pmus.md, "Hybrid"). Returns 1 when
 * it applied, 0 when the event is one event (no hybrid PMUs, or none with the extended type).
 */
static int build_hybrid(struct pmc_parser *p, const struct pmc_parsed *ev, enum pmc_event_kind kind,
			uint32_t type, uint64_t config)
{
	struct pmc__core_pmus set;
	int n = 0, ret = 0;

	if (kind != PMC_EV_HARDWARE && kind != PMC_EV_CACHE && kind != PMC_EV_RAW)
		return 0;
	if (pmc__core_pmus(&set, p->evlist) < 2)
		return 0;
	for (int i = 0; !pmc__core_pmus_expand(&set) && i < set.nr; i++)
		pr_info("'%.*s' is one event on every core: core PMU %s: %s\n", ev->end - ev->off,
			p->str + ev->off, set.pmu[i].name, set.pmu[i].rule);
	if (!pmc__core_pmus_expand(&set))
		return 0;
	for (int i = 0; i < set.nr && !ret; i++) {
		const struct pmc__core_pmu *c = &set.pmu[i];
		struct pmc_evsel *evsel;

		pr_info("'%.*s' on core PMU %s (type %u, CPUs %s): %s\n", ev->end - ev->off,
			p->str + ev->off, c->name, c->type, c->cpus, c->rule);
		if (!c->extended || (p->evlist->cputype[0] && strcmp(p->evlist->cputype, c->name)))
			continue;
		/* A raw event goes to each PMU's own type (perf 6.1's add_raw_hybrid()). */
		if (kind == PMC_EV_RAW)
			ret = make(p, ev, kind, c->type, config, &evsel);
		else
			ret = make(p, ev, kind, type, config | (uint64_t)c->type << 32, &evsel);
		if (ret)
			break;
		evsel->pmu = strdup(c->name);
		if (!evsel->name && evsel->pmu &&
		    asprintf(&evsel->name, "%s/%.*s/", c->name, ev->end - ev->off,
			     p->str + ev->off) < 0)
			evsel->name = NULL;
		evsel->hybrid_of = strndup(p->str + ev->off, (size_t)(ev->end - ev->off));
		if (!evsel->pmu || !evsel->name || !evsel->hybrid_of) {
			pmc__evsel_delete(evsel);
			return -ENOMEM;
		}
		n++;
		ret = finish(p, evsel, ev);
	}
	if (!ret && !n)
		return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, ev->off,
				       "--cputype: no core PMU '%s' takes '%.*s' here",
				       p->evlist->cputype, ev->end - ev->off, p->str + ev->off);
	return ret ? ret : 1;
}

static int build_generic(struct pmc_parser *p, const struct pmc_parsed *ev,
			 enum pmc_event_kind kind, uint32_t type, uint64_t config)
{
	int ret = build_hybrid(p, ev, kind, type, config);

	if (ret)
		return ret < 0 ? ret : 0;
	return build_simple(p, ev, kind, type, config);
}

static int build_sym(struct pmc_parser *p, const struct pmc_parsed *ev,
		     const struct pmc_event_name *g)
{
	return build_generic(p, ev,
			     g->type == PERF_TYPE_HARDWARE ? PMC_EV_HARDWARE : PMC_EV_SOFTWARE,
			     g->type, g->config);
}

/*
 * A tool event (duration_time, ...): perf's attr (a software dummy), never opened; the
 * counting layer fills its value (docs/events.md, "Tool events").
 */
static int build_tool(struct pmc_parser *p, const struct pmc_parsed *ev)
{
	struct pmc_evsel *evsel;
	int ret = make(p, ev, PMC_EV_TOOL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, &evsel);

	if (ret)
		return ret;
	evsel->tool = (int)ev->sym->config;
	return finish(p, evsel, ev);
}

/* TYPE:CONFIG takes the kind of the type's PMU; a dynamic type is a PMU the kernel knows. */
static int build_numeric(struct pmc_parser *p, const struct pmc_parsed *ev)
{
	static const enum pmc_event_kind kinds[PERF_TYPE_MAX] = {
		[PERF_TYPE_HARDWARE] = PMC_EV_HARDWARE,
		[PERF_TYPE_SOFTWARE] = PMC_EV_SOFTWARE,
		[PERF_TYPE_TRACEPOINT] = PMC_EV_TRACEPOINT,
		[PERF_TYPE_HW_CACHE] = PMC_EV_CACHE,
		[PERF_TYPE_RAW] = PMC_EV_RAW,
		[PERF_TYPE_BREAKPOINT] = PMC_EV_BREAKPOINT,
	};
	enum pmc_event_kind kind = ev->num < PERF_TYPE_MAX ? kinds[ev->num] : PMC_EV_PMU;

	return build_simple(p, ev, kind, (uint32_t)ev->num, ev->num2);
}

/* A CPU-specific name: the backend resolves symbol (the name, unit masks, libpfm4's attrs). */
static int build_cpu(struct pmc_parser *p, const struct pmc_parsed *ev, const char *name, int len)
{
	struct pmc_evsel *evsel;
	const char *sep;
	int ret = make(p, ev, PMC_EV_SYMBOLIC, 0, 0, &evsel);

	if (ret)
		return ret;
	if (asprintf(&evsel->symbol, "%.*s%s", len, name, ev->cpu_extra ? ev->cpu_extra : "") < 0)
		evsel->symbol = NULL;
	sep = evsel->symbol ? strstr(evsel->symbol, "::") : NULL;
	if (sep)
		evsel->pmu = strndup(evsel->symbol, sep - evsel->symbol);
	if (!evsel->symbol || (sep && !evsel->pmu)) {
		pmc__evsel_delete(evsel);
		return -ENOMEM;
	}
	return finish(p, evsel, ev);
}

/* A name the tables or the backend know, for a preset: its event under the preset's name. */
static int build_target(struct pmc_parser *p, const struct pmc_parsed *ev, const char *target)
{
	const struct pmc_event_name *g = pmc__event_find_generic(target, strlen(target));
	uint64_t config;

	if (g)
		return build_sym(p, ev, g);
	if (!pmc__event_find_cache(target, strlen(target), &config))
		return build_generic(p, ev, PMC_EV_CACHE, PERF_TYPE_HW_CACHE, config);
	return build_cpu(p, ev, target, (int)strlen(target));
}

static int build_preset(struct pmc_parser *p, const struct pmc_parsed *ev)
{
	const struct pmc_preset *ps = pmc__preset_find(ev->word, ev->word_len);
	char why[sizeof(p->err->msg)];
	const char *target = pmc__preset_target(p->evlist, ps, why, sizeof(why));

	if (!target)
		return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, ev->off, "%s", why);
	return build_target(p, ev, target);
}

static int build_bp(struct pmc_parser *p, const struct pmc_parsed *ev)
{
	struct pmc_evsel *evsel = pmc__evsel_new(p, PMC_EV_BREAKPOINT, ev->off);

	if (!evsel)
		return -ENOMEM;
	pmc__bp_build(evsel, ev);
	return finish(p, evsel, ev);
}

/* One event per tracepoint matched, named "subsystem:name" and what followed in the string. */
static int build_tp(struct pmc_parser *p, const struct pmc_parsed *ev)
{
	int tail = (int)(ev->word2 - p->str) + ev->word2_len, ret;
	struct pmc_tp *tps;
	size_t nr;

	tail += ev->word2[ev->word2_len] == '\''; /* a quoted name's closing quote */
	ret = pmc__tp_resolve(p, ev, &tps, &nr);
	if (ret == -PMC_E_UNKNOWN_EVENT) { /* the names closest, first of the subsystem's */
		char sub[256], full[512];

		snprintf(sub, sizeof(sub), "%.*s", ev->word_len, ev->word);
		snprintf(full, sizeof(full), "%s:%.*s", sub, ev->word2_len, ev->word2);
		pmc__suggest(p->evlist, full, sub, p->err);
	}
	for (size_t i = 0; i < nr && !ret; i++) {
		struct pmc_evsel *evsel;

		ret = make(p, ev, PMC_EV_TRACEPOINT, PERF_TYPE_TRACEPOINT, tps[i].id, &evsel);
		if (!ret && !evsel->name &&
		    asprintf(&evsel->name, "%s:%s%.*s", tps[i].subsys, tps[i].name, ev->end - tail,
			     p->str + tail) < 0) {
			evsel->name = NULL;
			pmc__evsel_delete(evsel);
			ret = -ENOMEM;
		} else if (!ret) {
			ret = finish(p, evsel, ev);
		}
	}
	pmc__tp_free(tps, nr);
	return ret;
}

/* The text of a term's value as written (a quoted name without its quotes). */
static int value_text(const struct pmc_parser *p, const struct pmc_term *t, const char **text)
{
	struct pmc_tok v;

	if (t->vtype == PMC_TV_NONE)
		return 0;
	pmc__lex(p->str, t->val_off, PMC_LEX_TERM, &v);
	*text = v.text;
	return v.kind == PMC_TOK_WORD ? v.text_len : v.len;
}

/*
 * A backend's PMU (vpmu/...): builtin terms applied here, the others handed to its resolve
 * hook as "k=v,k", with where they were written when that is verbatim (for error offsets).
 */
static int backend_terms(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_parsed *ev)
{
	size_t cap = (ev->terms_off >= 0 ? (size_t)(ev->terms_end - ev->terms_off) : 0) +
		     24 * ev->nr_terms + 1,
	       n = 0;
	char *s = calloc(1, cap);

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < ev->nr_terms; i++) {
		const struct pmc_term *t = &ev->terms[i];
		const char *v = "";
		/* config words are the PMU's, in their place among its terms */
		int ret = pmc__term_is_config(t) ? 1 : pmc__term_apply(p, evsel, t, PMC_TERMS_PMU);
		int vlen;

		if (ret < 0) {
			free(s);
			return ret;
		}
		if (!ret)
			continue;
		vlen = value_text(p, t, &v);
		if (t->raw)
			n += snprintf(s + n, cap - n, "%sconfig=0x%llx", n ? "," : "",
				      (unsigned long long)t->num);
		else
			n += snprintf(s + n, cap - n, "%s%.*s%s%.*s", n ? "," : "", t->name_len,
				      t->name, vlen ? "=" : "", vlen, v);
	}
	evsel->terms = s;
	evsel->terms_off = -1;
	if (ev->terms_off >= 0 && (int)n == ev->terms_end - ev->terms_off &&
	    !memcmp(s, p->str + ev->terms_off, n))
		evsel->terms_off = ev->terms_off;
	return 0;
}

struct pmu_build {
	struct pmc_parser *p;
	const struct pmc_parsed *ev;
};

/* The event on one sysfs PMU (several when the name matched several: imc/...). */
static int pmu_one(const char *pmu, void *arg)
{
	struct pmu_build *b = arg;
	struct pmc_evsel *evsel = pmc__evsel_new(b->p, PMC_EV_PMU, b->ev->off);
	int ret;

	if (!evsel)
		return -ENOMEM;
	evsel->pmu = strdup(pmu);
	ret = evsel->pmu ? pmc__pmu_build(b->p, evsel, evsel->pmu, b->ev) : -ENOMEM;
	if (ret) {
		pmc__evsel_delete(evsel);
		return ret;
	}
	return finish(b->p, evsel, b->ev);
}

/*
 * cpu_atom/instructions/, cpu_core/L1-dcache-loads/: a generic name alone between the slashes
 * of a core PMU that takes the extended type is that generic event on that PMU (perf's
 * parse_events__with_hybrid_pmu()). Returns 1 when it applied, 0 when not.
 */
static int build_pmu_generic(struct pmc_parser *p, const struct pmc_parsed *ev)
{
	const struct pmc_term *t = ev->nr_terms == 1 ? &ev->terms[0] : NULL;
	const struct pmc_event_name *g;
	const struct pmc__core_pmu *c;
	struct pmc__core_pmus set;
	struct pmc_evsel *evsel;
	uint64_t config = 0;
	int ret;

	if (!t || t->vtype != PMC_TV_NONE || t->raw || t->drv)
		return 0;
	pmc__core_pmus(&set, p->evlist);
	c = pmc__core_pmu_find(&set, ev->word, ev->word_len);
	if (!c || !c->extended || !pmc__core_pmus_expand(&set))
		return 0;
	g = pmc__event_find_generic(t->name, (size_t)t->name_len);
	if (g && g->type == PERF_TYPE_HARDWARE)
		evsel = pmc__evsel_new(p, PMC_EV_HARDWARE, ev->off);
	else if (!g && !pmc__event_find_cache(t->name, (size_t)t->name_len, &config))
		evsel = pmc__evsel_new(p, PMC_EV_CACHE, ev->off);
	else
		return 0;
	if (!evsel)
		return -ENOMEM;
	/* The one term is the event's name: no term to apply. */
	evsel->attr.type = g ? PERF_TYPE_HARDWARE : PERF_TYPE_HW_CACHE;
	evsel->attr.config = g ? g->config : config;
	pr_info("'%.*s' on core PMU %s (type %u): %s\n", ev->end - ev->off, p->str + ev->off,
		c->name, c->type, c->rule);
	evsel->attr.config |= (uint64_t)c->type << 32;
	evsel->pmu = strdup(c->name);
	if (!evsel->pmu) {
		pmc__evsel_delete(evsel);
		return -ENOMEM;
	}
	ret = finish(p, evsel, ev);
	return ret ? ret : 1;
}

/* A PMU of sysfs, else the backend's (vpmu/...), which resolves it with the list. */
static int build_pmu(struct pmc_parser *p, const struct pmc_parsed *ev)
{
	struct pmu_build b = {p, ev};
	struct pmc_evsel *evsel;
	int ret = build_pmu_generic(p, ev);

	if (ret)
		return ret < 0 ? ret : 0;
	ret = pmc__pmu_each(ev->word, ev->word_len, pmu_one, &b);

	if (ret)
		return ret < 0 ? ret : 0;
	evsel = pmc__evsel_new(p, PMC_EV_PMU, ev->off);
	if (!evsel)
		return -ENOMEM;
	evsel->by_backend = true;
	evsel->pmu = strndup(ev->word, ev->word_len);
	ret = evsel->pmu ? backend_terms(p, evsel, ev) : -ENOMEM;
	if (ret) {
		pmc__evsel_delete(evsel);
		return ret;
	}
	return finish(p, evsel, ev);
}

int pmc__event_build(struct pmc_parser *p, struct pmc_parsed *ev)
{
	switch (ev->head) {
	case PMC_HEAD_SYM:
		return build_sym(p, ev, ev->sym);
	case PMC_HEAD_CACHE:
		return build_generic(p, ev, PMC_EV_CACHE, PERF_TYPE_HW_CACHE, ev->config);
	case PMC_HEAD_RAW:
		return build_generic(p, ev, PMC_EV_RAW, PERF_TYPE_RAW, ev->num);
	case PMC_HEAD_NUMERIC:
		return build_numeric(p, ev);
	case PMC_HEAD_TP:
		return build_tp(p, ev);
	case PMC_HEAD_BP:
		return build_bp(p, ev);
	case PMC_HEAD_PMU:
		return build_pmu(p, ev);
	case PMC_HEAD_ALIAS:
		return pmc__pmu_build_alias(p, ev, finish);
	case PMC_HEAD_CPU:
		return build_cpu(p, ev, ev->word, ev->word_len);
	case PMC_HEAD_PRESET:
		return build_preset(p, ev);
	case PMC_HEAD_TOOL:
		return build_tool(p, ev);
	}
	return -EINVAL;
}
