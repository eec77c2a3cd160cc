// SPDX-License-Identifier: MIT
/*
 * perf's builtin terms (config=, period=, name=, call-graph=, ...: docs/events.md, "Terms"):
 * the type of value each takes, the events that take it, the uses (counting, sampling) that
 * honour it, and its effect on the event. Terms that are not builtin belong to a PMU
 * (pmu-sysfs.c, or the backend's).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include <pmc/sample.h>
#include "event/parse.h"

#define COUNT (1u << PMC_USE_COUNT)
#define SAMPLE (1u << PMC_USE_SAMPLE)

/* One builtin term. A number term written alone means 1, as in perf. */
struct term_def {
	const char *name;
	bool str;     /* takes a name; else a number */
	uint64_t max; /* the largest number it takes, 0 for any */
	bool tp;      /* tracepoints take it (perf's config_term_tracepoint) */
	unsigned use; /* the uses that honour it: COUNT (perf stat's set), SAMPLE (pmc record's) */
};

/* Indexed by enum pmc_term_id. */
static const struct term_def defs[PMC_TERM_NR_IDS] = {
	[PMC_TERM_CONFIG] = {"config", false, 0, false, COUNT | SAMPLE},
	[PMC_TERM_CONFIG1] = {"config1", false, 0, false, COUNT | SAMPLE},
	[PMC_TERM_CONFIG2] = {"config2", false, 0, false, COUNT | SAMPLE},
	[PMC_TERM_NAME] = {"name", true, 0, false, COUNT | SAMPLE},
	[PMC_TERM_PERIOD] = {"period", false, 0, false, COUNT | SAMPLE},
	[PMC_TERM_FREQ] = {"freq", false, 0, false, SAMPLE},
	[PMC_TERM_BRANCH_TYPE] = {"branch_type", true, 0, false, SAMPLE},
	[PMC_TERM_TIME] = {"time", false, 1, false, SAMPLE},
	[PMC_TERM_CALL_GRAPH] = {"call-graph", true, 0, true, SAMPLE},
	[PMC_TERM_STACK_SIZE] = {"stack-size", false, 65000, true, SAMPLE},
	[PMC_TERM_MAX_STACK] = {"max-stack", false, 0, true, SAMPLE},
	[PMC_TERM_NR] = {"nr", false, 0, true, 0},
	[PMC_TERM_INHERIT] = {"inherit", false, 0, true, 0},
	[PMC_TERM_NO_INHERIT] = {"no-inherit", false, 0, true, 0},
	[PMC_TERM_OVERWRITE] = {"overwrite", false, 0, true, 0},
	[PMC_TERM_NO_OVERWRITE] = {"no-overwrite", false, 0, true, 0},
	[PMC_TERM_PERCORE] = {"percore", false, 1, false, COUNT | SAMPLE},
	[PMC_TERM_AUX_OUTPUT] = {"aux-output", false, 0, true, 0},
	[PMC_TERM_AUX_SAMPLE_SIZE] = {"aux-sample-size", false, UINT_MAX, true, 0},
	[PMC_TERM_METRIC_ID] = {"metric-id", true, 0, false, COUNT | SAMPLE},
	[PMC_TERM_DRV] = {"@driver-config", true, 0, false, COUNT | SAMPLE},
};

static int find(const char *name, int len)
{
	for (int i = 0; i < PMC_TERM_DRV; i++)
		if ((int)strlen(defs[i].name) == len && !memcmp(defs[i].name, name, len))
			return i;
	return -1;
}

const char *pmc__term_name(enum pmc_term_id id)
{
	return (unsigned)id < PMC_TERM_NR_IDS ? defs[id].name : "?";
}

bool pmc__term_is_config(const struct pmc_term *t)
{
	int id = t->raw ? PMC_TERM_CONFIG : t->drv ? -1 : find(t->name, t->name_len);

	return id == PMC_TERM_CONFIG || id == PMC_TERM_CONFIG1 || id == PMC_TERM_CONFIG2;
}

/* Why the list's use refuses the term (perf stat refuses the sampling ones the same way). */
static int refused(struct pmc_parser *p, const struct pmc_term *t, const struct term_def *d)
{
	if (p->evlist->use == PMC_USE_COUNT)
		return pmc__parse_fail(p, -PMC_E_PARSE, t->off,
				       "term '%s' steers sampling, and pmc stat counts (perf stat "
				       "refuses it too)",
				       d->name);
	return pmc__parse_fail(p, -PMC_E_PARSE, t->off,
			       "term '%s' is not supported by pmc record (docs/events.md, "
			       "\"Terms\")",
			       d->name);
}

/* The value's type and range, as perf's check_type_val and config_term_common check them. */
static int check_value(struct pmc_parser *p, const struct pmc_term *t, const struct term_def *d)
{
	if (d->str && t->vtype != PMC_TV_STR)
		return pmc__parse_fail(p, -PMC_E_PARSE, t->val_off,
				       "term '%s' takes a name ('%s=NAME')", d->name, d->name);
	if (!d->str && t->vtype == PMC_TV_STR)
		return pmc__parse_fail(p, -PMC_E_PARSE, t->val_off,
				       "term '%s' takes a number, not '%.*s'", d->name, t->str_len,
				       t->str);
	if (d->max && t->vtype == PMC_TV_NUM && t->num > d->max)
		return pmc__parse_fail(p, -PMC_E_PARSE, t->val_off,
				       "term '%s' takes 0 to %llu, not %llu", d->name,
				       (unsigned long long)d->max, (unsigned long long)t->num);
	return 0;
}

static int set_string(char **dst, const struct pmc_term *t)
{
	char *s = strndup(t->str, t->str_len);

	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

static int call_graph(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_term *t)
{
	static const char *const modes[] = {[PMC_CG_NO] = "no",
					    [PMC_CG_FP] = "fp",
					    [PMC_CG_DWARF] = "dwarf",
					    [PMC_CG_LBR] = "lbr"};

	for (int m = PMC_CG_NO; m <= PMC_CG_LBR; m++) {
		if ((int)strlen(modes[m]) != t->str_len || memcmp(modes[m], t->str, t->str_len))
			continue;
		if (m == PMC_CG_LBR && p->evlist->use == PMC_USE_SAMPLE)
			return pmc__parse_fail(
				p, -PMC_E_PARSE, t->val_off,
				"pmc record walks call chains by frame pointer or "
				"DWARF, not through the LBR: call-graph=fp or dwarf");
		evsel->cfg.call_graph = m;
		return 0;
	}
	return pmc__parse_fail(p, -PMC_E_PARSE, t->val_off,
			       "call-graph=%.*s: expected fp, dwarf, lbr or no", t->str_len,
			       t->str);
}

/*
 * branch_type=NAME: one of pmc record -j's filter names (a term's value holds no comma), or
 * "no" for no branch stack, as perf takes it.
 */
static int branch_type(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_term *t)
{
	struct pmc_parse_error e;
	uint64_t mode = 0;
	char *s = strndup(t->str, t->str_len);

	if (!s)
		return -ENOMEM;
	if (strcmp(s, "no") && pmc_branch_filter_parse(s, &mode, &e)) {
		free(s);
		pmc__parse_fail(p, -PMC_E_PARSE, t->val_off + e.offset, "branch_type=%.*s: %s",
				t->str_len, t->str, e.msg);
		memcpy(p->err->suggest, e.suggest, sizeof(e.suggest));
		p->err->nr_suggest = e.nr_suggest;
		return -PMC_E_PARSE;
	}
	free(evsel->cfg.branch_type);
	evsel->cfg.branch_type = s;
	evsel->cfg.branch_mode = mode;
	return 0;
}

/* Where a sampling term's number or flag goes in evsel's terms; NULL for others. */
static uint64_t *number_of(struct pmc_evsel_terms *c, int id)
{
	return id == PMC_TERM_STACK_SIZE	? &c->stack_size
	       : id == PMC_TERM_MAX_STACK	? &c->max_stack
	       : id == PMC_TERM_NR		? &c->nr
	       : id == PMC_TERM_AUX_SAMPLE_SIZE ? &c->aux_sample_size
						: NULL;
}

static bool *flag_of(struct pmc_evsel_terms *c, int id)
{
	switch (id) {
	case PMC_TERM_TIME:
		return &c->time;
	case PMC_TERM_INHERIT:
	case PMC_TERM_NO_INHERIT:
		return &c->inherit;
	case PMC_TERM_OVERWRITE:
	case PMC_TERM_NO_OVERWRITE:
		return &c->overwrite;
	case PMC_TERM_PERCORE:
		return &c->percore;
	case PMC_TERM_AUX_OUTPUT:
		return &c->aux_output;
	default:
		return NULL;
	}
}

/* The term's effect; its value is checked. A driver term has none: no PMU here takes one. */
static int set(struct pmc_parser *p, struct pmc_evsel *evsel, int id, const struct pmc_term *t)
{
	struct perf_event_attr *a = &evsel->attr;
	uint64_t v = t->vtype == PMC_TV_NUM ? t->num : 1, *num = number_of(&evsel->cfg, id);
	bool *flag = flag_of(&evsel->cfg, id);

	if (id == PMC_TERM_CONFIG || id == PMC_TERM_CONFIG1 || id == PMC_TERM_CONFIG2)
		*(id == PMC_TERM_CONFIG	   ? &a->config
		  : id == PMC_TERM_CONFIG1 ? &a->config1
					   : &a->config2) = v;
	else if (id == PMC_TERM_PERIOD || id == PMC_TERM_FREQ)
		a->sample_period = v, a->freq = id == PMC_TERM_FREQ; /* a union: period, freq */
	else if (num)
		*num = v;
	else if (flag) /* the no- terms say the opposite of their value */
		*flag = (v != 0) != (id == PMC_TERM_NO_INHERIT || id == PMC_TERM_NO_OVERWRITE);
	else if (id == PMC_TERM_NAME)
		return pmc__evsel_set_name(evsel, t->str, t->str_len);
	else if (id == PMC_TERM_CALL_GRAPH)
		return call_graph(p, evsel, t);
	else if (id == PMC_TERM_BRANCH_TYPE)
		return branch_type(p, evsel, t);
	else if (id == PMC_TERM_METRIC_ID)
		return set_string(&evsel->cfg.metric_id, t);
	return 0;
}

static int not_for(struct pmc_parser *p, const struct pmc_term *t, enum pmc_term_scope scope)
{
	if (scope == PMC_TERMS_TP)
		return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, t->off,
				       "tracepoints take no term '%.*s' (they take call-graph, "
				       "stack-size, max-stack, nr, inherit, no-inherit, overwrite, "
				       "no-overwrite, aux-output, aux-sample-size)",
				       t->name_len, t->name);
	return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, t->off,
			       "unknown term '%.*s' (this event takes perf's builtin terms: "
			       "config, config1, config2, name, period, freq, call-graph, time, "
			       "...; PMU terms belong to PMU/.../ events)",
			       t->name_len, t->name);
}

int pmc__term_apply(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_term *t,
		    enum pmc_term_scope scope)
{
	int id = t->raw ? PMC_TERM_CONFIG : t->drv ? PMC_TERM_DRV : find(t->name, t->name_len);
	const struct term_def *d;
	int ret;

	if (id < 0)
		return scope == PMC_TERMS_PMU ? 1 : not_for(p, t, scope);
	d = &defs[id];
	if ((scope == PMC_TERMS_TP && !d->tp) || (id == PMC_TERM_DRV && scope != PMC_TERMS_PMU))
		return not_for(p, t, scope);
	ret = t->drv ? 0 : check_value(p, t, d);
	if (!ret && p->evlist->use != PMC_USE_ANY && !(d->use & (1u << p->evlist->use)))
		ret = refused(p, t, d);
	if (!ret)
		ret = set(p, evsel, id, t);
	if (!ret)
		evsel->cfg.written |= 1u << id;
	return ret;
}
