// SPDX-License-Identifier: MIT
/* Event and group modifiers (:u :k :h :p... and :c=N :i :e on CPU-specific names) and their
 * perf_event_attr effect. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "event/parse.h"

#define PRIV_MODS (PMC_MOD_U | PMC_MOD_K | PMC_MOD_H)
#define CPU_MODS (PMC_MOD_CMASK | PMC_MOD_INV | PMC_MOD_EDGE)

static unsigned mod_bit(char c)
{
	switch (c) {
	case 'u':
		return PMC_MOD_U;
	case 'k':
		return PMC_MOD_K;
	case 'h':
		return PMC_MOD_H;
	case 'p':
		return PMC_MOD_P;
	case 'i':
		return PMC_MOD_INV;
	case 'e':
		return PMC_MOD_EDGE;
	case 'G':
		return PMC_MOD_GUEST;
	case 'H':
		return PMC_MOD_HOST;
	case 'I':
		return PMC_MOD_IDLE;
	case 'D':
		return PMC_MOD_PINNED;
	default:
		return 0;
	}
}

static bool is_seg_end(char c)
{
	return !c || c == ':' || c == ',' || c == '}' || c == '{' || c == '/' || c == ' ' ||
	       c == '\t' || c == '\n';
}

/* perf modifiers pmc leaves out: they steer perf's tool, not the counter. */
static int unsupported(struct pmc_parser *p, int off, char c)
{
	const char *what = c == 'S'   ? "sample read"
			   : c == 'W' ? "weak group"
			   : c == 'P' ? "maximum precision"
			   : c == 'b' ? "BPF counter"
				      : NULL;

	if (what)
		return pmc__parse_fail(p, -PMC_E_PARSE, off,
				       "modifier '%c' (%s) is not supported by pmc", c, what);
	return pmc__parse_fail(p, -PMC_E_PARSE, off,
			       "unknown modifier '%c'; expected u, k, h, p, G, H, I or D "
			       "(c=N, i, e after CPU-specific names)",
			       c);
}

/* Appends a libpfm4 unit mask or attribute (":ANY_P", ":ldlat=3") to a symbolic name. */
static int add_umask(struct pmc_evsel *evsel, const char *seg, int len)
{
	size_t old = strlen(evsel->symbol);
	char *s = realloc(evsel->symbol, old + len + 2);

	if (!s)
		return -ENOMEM;
	s[old] = ':';
	memcpy(s + old + 1, seg, len);
	s[old + 1 + len] = '\0';
	evsel->symbol = s;
	return 0;
}

static int parse_cmask(struct pmc_parser *p, int off, int len, struct pmc_mods *m)
{
	const char *end;
	uint64_t v;

	if (pmc__lex_number(p->str + off + 2, &end, &v) || end != p->str + off + len || v > 255)
		return pmc__parse_fail(p, -PMC_E_PARSE, off + 2,
				       "expected a counter mask 0..255 after 'c='");
	m->bits |= PMC_MOD_CMASK;
	m->cmask = (int)v;
	return 0;
}

/* One segment of modifier letters (or c=N, or a unit mask of a symbolic event) at off. */
static int parse_segment(struct pmc_parser *p, struct pmc_evsel *evsel, int off, int len,
			 struct pmc_mods *m)
{
	const char *seg = p->str + off;
	int bad = -1;

	if (len == 0)
		return pmc__parse_fail(p, -PMC_E_PARSE, off, "expected a modifier after ':'");
	if (m->offset < 0)
		m->offset = off;
	if (len > 2 && seg[0] == 'c' && seg[1] == '=')
		return parse_cmask(p, off, len, m);
	for (int i = 0; i < len && bad < 0; i++)
		if (!mod_bit(seg[i]))
			bad = i;
	if (bad >= 0 && evsel && evsel->kind == PMC_EV_SYMBOLIC)
		return add_umask(evsel, seg, len);
	if (bad >= 0)
		return unsupported(p, off + bad, seg[bad]);
	for (int i = 0; i < len; i++) {
		m->bits |= mod_bit(seg[i]);
		if (seg[i] == 'p')
			m->precise++;
	}
	return 0;
}

int pmc__mods_parse(struct pmc_parser *p, struct pmc_evsel *evsel, struct pmc_mods *mods,
		    bool bare_first)
{
	memset(mods, 0, sizeof(*mods));
	mods->offset = -1;
	while (p->str[p->pos] == ':' || bare_first) {
		int off, ret;

		if (!bare_first)
			p->pos++;
		bare_first = false;
		off = p->pos;
		while (!is_seg_end(p->str[p->pos]))
			p->pos++;
		ret = parse_segment(p, evsel, off, p->pos - off, mods);
		if (ret)
			return ret;
	}
	return 0;
}

int pmc__mods_merge(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_mods *m)
{
	int precise = evsel->attr.precise_ip + m->precise;

	if ((m->bits & CPU_MODS) && evsel->kind != PMC_EV_SYMBOLIC)
		return pmc__parse_fail(p, -PMC_E_PARSE, m->offset,
				       "c=N, i and e apply only to CPU-specific (libpfm4) names; "
				       "'%s' is a %s event",
				       evsel->name, pmc_event_kind__name(evsel->kind));
	if (precise > 3)
		return pmc__parse_fail(p, -PMC_E_PARSE, m->offset,
				       "precision above :ppp (3 levels at most)");
	evsel->attr.precise_ip = precise;
	evsel->mods |= m->bits;
	if (m->bits & PMC_MOD_CMASK)
		evsel->cmask = m->cmask;
	return 0;
}

/*
 * perf's rules: any of u/k/h excludes the levels not named; without them the list's
 * default mask applies. G and H together cancel out, as in perf.
 */
/*
 * Whether the list's default privilege applies: dynamic PMUs other than the CPU's (msr,
 * power, amd_l3, ...) reject exclude_* bits, so they count everything unless told.
 */
static bool default_priv_applies(const struct pmc_evsel *evsel)
{
	if (evsel->kind != PMC_EV_PMU || !evsel->pmu || evsel->attr.type < PERF_TYPE_MAX)
		return true;
	return !strcmp(evsel->pmu, "cpu") || !strncmp(evsel->pmu, "cpu_", 4);
}

bool pmc__event_kernel_side(const struct pmc_evsel *evsel)
{
	const struct perf_event_attr *a = &evsel->attr;

	if (a->type == PERF_TYPE_TRACEPOINT)
		return true;
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
						 a->config == PERF_COUNT_SW_CPU_MIGRATIONS ||
						 a->config == PERF_COUNT_SW_CGROUP_SWITCHES);
}

bool pmc__event_user_blind(const struct pmc_evsel *evsel)
{
	/* syscalls:* hand the kernel the task's user registers: they count at user level. */
	if (evsel->attr.type == PERF_TYPE_TRACEPOINT && !strncmp(evsel->name, "syscalls:", 9))
		return false;
	return pmc__event_kernel_side(evsel);
}

bool pmc__event_levels_written(const struct pmc_evsel *evsel)
{
	return evsel->mods & PRIV_MODS;
}

void pmc__mods_apply(struct pmc_evsel *evsel, unsigned default_priv)
{
	struct perf_event_attr *a = &evsel->attr;
	unsigned all = PMC_PRIV_USER | PMC_PRIV_KERNEL | PMC_PRIV_HV;
	/* The default says whose code counts; kernel-side events count where they happen. */
	unsigned priv =
		default_priv_applies(evsel) && !pmc__event_kernel_side(evsel) ? default_priv : all;

	if (evsel->mods & PRIV_MODS)
		priv = (evsel->mods & PMC_MOD_U ? PMC_PRIV_USER : 0) |
		       (evsel->mods & PMC_MOD_K ? PMC_PRIV_KERNEL : 0) |
		       (evsel->mods & PMC_MOD_H ? PMC_PRIV_HV : 0);
	a->exclude_user = !(priv & PMC_PRIV_USER);
	a->exclude_kernel = !(priv & PMC_PRIV_KERNEL);
	a->exclude_hv = !(priv & PMC_PRIV_HV);
	if ((evsel->mods & (PMC_MOD_GUEST | PMC_MOD_HOST)) == PMC_MOD_GUEST)
		a->exclude_host = 1;
	if ((evsel->mods & (PMC_MOD_GUEST | PMC_MOD_HOST)) == PMC_MOD_HOST)
		a->exclude_guest = 1;
	a->exclude_idle = !!(evsel->mods & PMC_MOD_IDLE);
	a->pinned = !!(evsel->mods & PMC_MOD_PINNED);
}
