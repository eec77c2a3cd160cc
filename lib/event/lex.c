// SPDX-License-Identifier: MIT
/*
 * The lexer of event strings (docs/events.md, "Grammar"): words, numbers, punctuation, in two
 * modes as perf 6.1's parse-events.l has them: event mode (between events, heads and
 * modifiers) and term mode (between an event's slashes, where '-', '.' and ':' belong to
 * words). Blanks between tokens are skipped, as perf's scanner skips them. As perf's lexer
 * does, it tells what a word at an event's head is by looking it up (pmc__lex_head()). The
 * parser (parse.c) asks for one token at a time from a position; nothing here allocates.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pmc/error.h>
#include "event/pmu.h"

/* The first character of a word: perf's name class less '[', which cannot start a name. */
static bool word_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '*' || c == '?';
}

/*
 * The rest of a word. Event mode: perf's name class ('.', fnmatch's '*' '?', and '!', '[',
 * ']', which make names no tracepoint matches), '-' (cache names, kvm-s390:...; the parser
 * splits nothing at dashes, it looks whole words up) and libpfm4's "pmu::EVENT". Term mode:
 * perf's name_minus class, with ':' and without the brackets.
 */
static int word_len(const char *s, enum pmc_lex_mode mode)
{
	int n = 1;

	for (;;) {
		char c = s[n];

		if (!c)
			return n;
		if (isalnum((unsigned char)c) || strchr("_*?.-", c))
			n++;
		else if (mode == PMC_LEX_EVENT && strchr("![]", c))
			n++;
		else if (c == ':' && mode == PMC_LEX_TERM)
			n++;
		else if (c == ':' && s[n + 1] == ':' && word_start(s[n + 2]))
			n += 2; /* libpfm4's pmu::EVENT */
		else
			return n;
	}
}

/* perf's name_tag: '...' around a name that may hold ',', ':', '=' (name='a,b:c=d'). */
static int quoted_len(const char *s)
{
	int n = 1;

	if (!word_start(s[1]) && s[1] != '[')
		return 0;
	while (s[n] && (isalnum((unsigned char)s[n]) || strchr("_*?-,.[]:=", s[n])))
		n++;
	return s[n] == '\'' ? n + 1 : 0;
}

/* Parses a decimal or 0x-hex number at s; sets *end. Returns 0, -ERANGE or -EINVAL. */
static int lex_number(const char *s, const char **end, uint64_t *val)
{
	int base = 10;
	uint64_t v = 0;
	const char *q = s;

	if (q[0] == '0' && q[1] == 'x' && isxdigit((unsigned char)q[2])) {
		base = 16;
		q += 2;
	}
	if (!isdigit((unsigned char)*q) && base == 10) {
		*end = s;
		return -EINVAL;
	}
	for (; isxdigit((unsigned char)*q); q++) {
		unsigned d = isdigit((unsigned char)*q) ? *q - '0' : (tolower(*q) - 'a' + 10);

		if (d >= (unsigned)base)
			break;
		if (v > (UINT64_MAX - d) / base) {
			*end = q;
			return -ERANGE;
		}
		v = v * base + d;
	}
	*end = q;
	*val = v;
	return 0;
}

/* "@name[=value]": a driver configuration term (perf's drv_cfg_term). */
static int drv_len(const char *s)
{
	int n = 1, v;

	while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.')
		n++;
	if (n == 1)
		return 0;
	if (s[n] != '=')
		return n;
	for (v = n + 1; isalnum((unsigned char)s[v]) || (s[v] && strchr("_*?.:", s[v])); v++)
		;
	return v > n + 1 ? v : n;
}

/*
 * perf's raw codes: a word "r" and hex digits (r1a), or "r0x" and hex digits (r0x1a, a code
 * between slashes only): t->raw is the prefix's length, t->num the value, t->err -ERANGE
 * above 64 bits.
 */
static void lex_raw(struct pmc_tok *t)
{
	int skip = t->len > 3 && !memcmp(t->text, "r0x", 3) ? 3 : 1;

	if (t->text[0] != 'r' || t->len <= skip ||
	    strspn(t->text + skip, "0123456789abcdefABCDEF") != (size_t)(t->len - skip))
		return;
	t->raw = skip;
	for (int i = skip; i < t->len; i++) {
		char c = t->text[i];

		if (t->num >> 60)
			t->err = -ERANGE;
		t->num = t->num << 4 |
			 (uint64_t)(isdigit((unsigned char)c) ? c - '0' : tolower(c) - 'a' + 10);
	}
}

static void lex_word(const char *s, int pos, enum pmc_lex_mode mode, struct pmc_tok *t)
{
	t->kind = PMC_TOK_WORD;
	t->len = word_len(s + pos, mode);
	t->text = s + pos;
	t->text_len = t->len;
	lex_raw(t);
}

void pmc__lex(const char *s, int pos, enum pmc_lex_mode mode, struct pmc_tok *t)
{
	const char *end;

	while (s[pos] && isspace((unsigned char)s[pos]))
		pos++;
	memset(t, 0, sizeof(*t));
	t->off = pos;
	t->text = s + pos;
	t->c = s[pos];
	if (!s[pos]) {
		t->kind = PMC_TOK_END;
	} else if (word_start(s[pos])) {
		lex_word(s, pos, mode, t);
	} else if (isdigit((unsigned char)s[pos])) {
		t->err = lex_number(s + pos, &end, &t->num);
		t->kind = t->err ? PMC_TOK_BAD : PMC_TOK_NUM;
		t->len = t->err ? 1 : (int)(end - (s + pos));
	} else if (s[pos] == '\'' && quoted_len(s + pos)) {
		t->kind = PMC_TOK_WORD;
		t->len = quoted_len(s + pos);
		t->text = s + pos + 1;
		t->text_len = t->len - 2;
		t->quoted = true;
	} else if (s[pos] == '@' && mode == PMC_LEX_TERM && drv_len(s + pos)) {
		t->kind = PMC_TOK_DRV;
		t->len = drv_len(s + pos);
		t->text = s + pos + 1;
		t->text_len = t->len - 1;
	} else if (strchr(",:/{}=-[]", s[pos])) {
		t->kind = PMC_TOK_PUNCT;
		t->len = 1;
	} else {
		t->kind = PMC_TOK_BAD; /* perf's scanner drops such bytes; pmc says so */
		t->err = -EINVAL;
		t->len = 1;
	}
}

bool pmc__tok_is(const struct pmc_tok *t, const char *word)
{
	size_t n = strlen(word);

	if (t->kind == PMC_TOK_PUNCT)
		return n == 1 && t->c == word[0];
	return t->kind == PMC_TOK_WORD && !t->quoted && (size_t)t->text_len == n &&
	       !memcmp(t->text, word, n);
}

bool pmc__lex_mod_letters(const char *s, int len)
{
	return len > 0 && strspn(s, "ukhpPGHSDIWeb") >= (size_t)len; /* perf's modifier_event */
}

bool pmc__tok_cpu_name(const struct pmc_tok *t)
{
	for (int i = 0; i < t->text_len; i++)
		if (isupper((unsigned char)t->text[i]) || t->text[i] == '.' || t->text[i] == ':')
			return true;
	return false;
}

/* Words the tables know: generic, tool, cache, raw and preset names. -ENOENT for others. */
static int keyword(const struct pmc_tok *w, struct pmc_parsed *ev)
{
	int ret;

	if ((ev->sym = pmc__event_find_generic(w->text, w->text_len)))
		return PMC_HEAD_SYM;
	if ((ev->sym = pmc__event_find_tool(w->text, w->text_len)))
		return PMC_HEAD_TOOL;
	ret = pmc__event_find_cache(w->text, w->text_len, &ev->config);
	if (ret != -PMC_E_UNKNOWN_EVENT)
		return ret ? ret : PMC_HEAD_CACHE;
	if (w->raw == 3) /* perf's lexer has r0xHEX between slashes only */
		return -EINVAL;
	if (w->raw && !pmc__pmu_alias_exists(w->text, w->text_len)) {
		ev->num = w->num;
		return w->err ? w->err : PMC_HEAD_RAW;
	}
	return pmc__preset_find(w->text, w->text_len) ? PMC_HEAD_PRESET : -ENOENT;
}

/* subsystem:name, unless what follows ':' reads as modifiers (tsc:u) or libpfm4's NAME=V. */
static bool tracepoint(const char *s, const struct pmc_tok *w, const struct pmc_tok *colon)
{
	struct pmc_tok name, eq;
	char sub[256], tp[256];

	if (!pmc__tok_is(colon, ":") || pmc__tok_cpu_name(w))
		return false;
	pmc__lex(s, colon->off + 1, PMC_LEX_EVENT, &name);
	if (name.kind != PMC_TOK_WORD)
		return false;
	pmc__lex(s, name.off + name.len, PMC_LEX_EVENT, &eq);
	if (pmc__tok_is(&eq, "="))
		return false;
	if (!pmc__lex_mod_letters(name.text, name.text_len))
		return true;
	snprintf(sub, sizeof(sub), "%.*s", w->text_len, w->text);
	snprintf(tp, sizeof(tp), "%.*s", name.text_len, name.text);
	return pmc__tp_exists(sub, tp);
}

/* A word before "/": a PMU (of sysfs, else the backend's), a PMU's event, a CPU name. */
static int slashed(const struct pmc_tok *w)
{
	if (w->quoted || pmc__pmu_each(w->text, w->text_len, NULL, NULL) > 0)
		return PMC_HEAD_PMU;
	if (pmc__pmu_alias_exists(w->text, w->text_len))
		return PMC_HEAD_ALIAS;
	return pmc__tok_cpu_name(w) ? PMC_HEAD_CPU : PMC_HEAD_PMU;
}

int pmc__lex_head(const char *s, const struct pmc_tok *w, struct pmc_parsed *ev)
{
	struct pmc_tok next;
	int ret = w->quoted ? -ENOENT : keyword(w, ev);

	if (ret != -ENOENT)
		return ret;
	pmc__lex(s, w->off + w->len, PMC_LEX_EVENT, &next);
	if (pmc__tok_is(&next, "/"))
		return slashed(w);
	if (tracepoint(s, w, &next))
		return PMC_HEAD_TP;
	if (!w->quoted && pmc__pmu_alias_exists(w->text, w->text_len))
		return PMC_HEAD_ALIAS;
	return PMC_HEAD_CPU;
}
