// SPDX-License-Identifier: MIT
/*
 * Modifiers (docs/events.md, "Modifiers"): perf's letters u k h p P G H I D e W S b after an
 * event or a group, libpfm4's c=N, i, e=V on CPU names, and their perf_event_attr effect.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pmc/error.h>
#include "event/parse.h"

#define PRIV_MODS (PMC_MOD_U | PMC_MOD_K | PMC_MOD_H)

/* perf's modifier_event class, [ukhpPGHSDIWeb], and what each letter sets. */
static unsigned mod_bit(char c)
{
	static const struct {
		char c;
		unsigned bit;
	} letters[] = {
		{'u', PMC_MOD_U},    {'k', PMC_MOD_K},	  {'h', PMC_MOD_H},
		{'p', PMC_MOD_P},    {'P', PMC_MOD_PMAX}, {'G', PMC_MOD_GUEST},
		{'H', PMC_MOD_HOST}, {'I', PMC_MOD_IDLE}, {'D', PMC_MOD_PINNED},
		{'e', PMC_MOD_EXCL}, {'W', PMC_MOD_WEAK}, {'S', PMC_MOD_SREAD},
		{'b', PMC_MOD_BPF},
	};

	for (size_t i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (letters[i].c == c)
			return letters[i].bit;
	return 0;
}

int pmc__mods_letters(struct pmc_parser *p, const char *s, int len, int off, struct pmc_mods *m)
{
	unsigned seen = 0;

	if (m->offset < 0)
		m->offset = off;
	for (int i = 0; i < len; i++) {
		unsigned bit = mod_bit(s[i]);

		if (!bit)
			return pmc__parse_fail(
				p, -PMC_E_PARSE, off + i,
				"unknown modifier '%c'; perf's modifiers are u k h p P "
				"G H I D e W S b",
				s[i]);
		if (bit & seen & ~PMC_MOD_P) /* perf's check_modifier: each once, but p */
			return pmc__parse_fail(p, -PMC_E_PARSE, off + i,
					       "modifier '%c' given twice", s[i]);
		if (bit == PMC_MOD_SREAD && p->evlist->use == PMC_USE_SAMPLE)
			return pmc__parse_fail(p, -PMC_E_PARSE, off + i,
					       "pmc record does not write sample reads (:S): it "
					       "samples every event of a group on its own");
		seen |= bit;
		m->bits |= bit;
		m->precise += s[i] == 'p';
	}
	if (m->precise > 3)
		return pmc__parse_fail(p, -PMC_E_PARSE, off,
				       "precision above :ppp (3 levels at most)");
	return 0;
}

static int append_extra(char **extra, const struct pmc_tok *w, const struct pmc_tok *v)
{
	size_t old = *extra ? strlen(*extra) : 0;
	int vlen = !v ? 0 : v->kind == PMC_TOK_WORD ? v->text_len : v->len;
	char *s = realloc(*extra, old + w->text_len + vlen + 3);

	if (!s)
		return -ENOMEM;
	snprintf(s + old, w->text_len + vlen + 3, ":%.*s%s%.*s", w->text_len, w->text, v ? "=" : "",
		 vlen, v ? v->text : "");
	*extra = s;
	return 0;
}

/* libpfm4's boolean attribute written NAME=V: 1 sets it, 0 leaves it unset. */
static int bool_value(struct pmc_parser *p, const struct pmc_tok *w, const struct pmc_tok *v,
		      bool *on)
{
	if (!v) {
		*on = true;
		return 0;
	}
	if (v->kind != PMC_TOK_NUM || v->num > 1)
		return pmc__parse_fail(p, -PMC_E_PARSE, v->off, "%.*s= takes 0 or 1", w->text_len,
				       w->text);
	*on = v->num;
	return 0;
}

int pmc__mods_cpu_segment(struct pmc_parser *p, const struct pmc_tok *w, const struct pmc_tok *v,
			  struct pmc_mods *m, char **extra)
{
	bool on;
	int ret;

	if (!v && pmc__lex_mod_letters(w->text, w->text_len))
		return pmc__mods_letters(p, w->text, w->text_len, w->off, m);
	if (m->offset < 0)
		m->offset = w->off;
	if (pmc__tok_is(w, "c")) {
		if (!v || v->kind != PMC_TOK_NUM || v->num > 255)
			return pmc__parse_fail(p, -PMC_E_PARSE, v ? v->off : w->off,
					       "expected a counter mask 0..255 after 'c='");
		m->bits |= PMC_MOD_CMASK;
		m->cmask = (int)v->num;
		return 0;
	}
	if (!pmc__tok_is(w, "i") && !(v && w->text_len == 1 && strchr("ekuh", w->text[0])))
		return append_extra(extra, w, v); /* a unit mask, or libpfm4's t=1, ldlat=3 */
	ret = bool_value(p, w, v, &on);
	if (ret || !on)
		return ret;
	m->bits |= w->text[0] == 'i'   ? PMC_MOD_INV
		   : w->text[0] == 'e' ? PMC_MOD_EDGE
				       : mod_bit(w->text[0]);
	return 0;
}

int pmc__mods_merge(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_mods *m,
		    bool group)
{
	int precise = evsel->attr.precise_ip + m->precise;
	unsigned bits = m->bits;

	if (precise > 3)
		return pmc__parse_fail(p, -PMC_E_PARSE, m->offset,
				       "precision above :ppp (3 levels at most, the event's and "
				       "its group's together)");
	/* perf gives a group's D and e to its leader only: they are the group's. */
	if (group && evsel->leader != evsel)
		bits &= ~(PMC_MOD_PINNED | PMC_MOD_EXCL);
	evsel->attr.precise_ip = precise;
	evsel->mods |= bits;
	if (bits & PMC_MOD_CMASK)
		evsel->cmask = m->cmask;
	return 0;
}

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

/*
 * perf's rules: any of u/k/h excludes the levels not named; without them the list's
 * default mask applies. G and H together cancel out, as in perf.
 */
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
	a->exclusive = !!(evsel->mods & PMC_MOD_EXCL);
}

unsigned pmc__symbol_ldlat(const char *symbol)
{
	unsigned long v = 0;

	for (const char *s = symbol ? strchr(symbol, ':') : NULL; s; s = strchr(s + 1, ':')) {
		char *end;

		if (strncasecmp(s + 1, "ldlat=", 6))
			continue;
		v = strtoul(s + 7, &end, 0);
		if (end == s + 7 || (*end && *end != ':') || v > 0xffff)
			v = 0;
	}
	return (unsigned)v;
}
