// SPDX-License-Identifier: MIT
/*
 * pmc_evlist__parse(): the productions of the event grammar (docs/events.md, "Grammar"), in
 * the document's order, as recursive descent over lex.c's tokens. perf 6.1's
 * parse-events.y is the reference: what it accepts is accepted, what it rejects is rejected,
 * but for the extensions and the stricter points docs/events.md lists. Each event fills a
 * struct pmc_parsed, which build.c turns into events; which head a word is decides the tail
 * it may take, as perf's lexer decides it by looking the word up.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/grow.h"
#include "event/pmu.h"

/* The tail parts a head takes (perf's opt_event_config, sep_dc, sep_slash_slash_dc). */
enum tail {
	T_TERMS = 1,	      /* "/" [terms] "/" */
	T_COLON = 2,	      /* ":" before the modifiers, without terms */
	T_COLON_TERMS = 4,    /* ":" after the terms too */
	T_TERMS_REQUIRED = 8, /* PMUs */
	T_TERMS_EMPTY = 16    /* "/" "/" with no terms (tool events) */
};

static void peek(const struct pmc_parser *p, enum pmc_lex_mode mode, struct pmc_tok *t)
{
	pmc__lex(p->str, p->pos, mode, t);
}

static void take(struct pmc_parser *p, const struct pmc_tok *t)
{
	p->pos = t->off + t->len;
}

static int expected(struct pmc_parser *p, const struct pmc_tok *t, const char *what)
{
	if (t->kind == PMC_TOK_BAD && t->err == -ERANGE)
		return pmc__parse_fail(p, -PMC_E_PARSE, t->off, "number above 64 bits, expected %s",
				       what);
	return pmc__parse_expected(p, t->off, what);
}

static int parse_item(struct pmc_parser *p);
static int parse_event(struct pmc_parser *p);

/* list = item , { "," , item } ; */
static int parse_list(struct pmc_parser *p)
{
	struct pmc_tok t;

	for (;;) {
		int ret = parse_item(p);

		if (ret)
			return ret;
		peek(p, PMC_LEX_EVENT, &t);
		if (t.kind == PMC_TOK_END)
			return 0;
		if (!pmc__tok_is(&t, ","))
			return expected(p, &t, "',' or end of string");
		take(p, &t);
	}
}

/* The modifiers after a group's "}:" (perf's group: group_def ':' PE_MODIFIER_EVENT). */
static int group_mods(struct pmc_parser *p, struct pmc_mods *m)
{
	struct pmc_tok t;

	peek(p, PMC_LEX_EVENT, &t);
	if (!pmc__tok_is(&t, ":"))
		return 0;
	take(p, &t);
	peek(p, PMC_LEX_EVENT, &t);
	if (t.kind != PMC_TOK_WORD || t.quoted)
		return expected(p, &t, "modifiers after '}:'");
	take(p, &t);
	return pmc__mods_letters(p, t.text, t.text_len, t.off, m);
}

/* group = [ group-name ] , "{" , event , { "," , event } , "}" , [ ":" , modifiers ] ; */
static int parse_group(struct pmc_parser *p, const struct pmc_tok *name)
{
	struct pmc_mods m = {.offset = -1};
	size_t first = p->nr;
	struct pmc_tok t;
	int ret, mods_off;

	if (name && !pmc__group_name_ok(name))
		return pmc__parse_fail(p, -PMC_E_PARSE, name->off,
				       "'%.*s' cannot name a group: a group's name is a plain word "
				       "that names no event and holds no '-'",
				       name->text_len, name->text);
	if (name)
		take(p, name);
	peek(p, PMC_LEX_EVENT, &t);
	take(p, &t); /* '{' */
	peek(p, PMC_LEX_EVENT, &t);
	if (pmc__tok_is(&t, "}"))
		return pmc__parse_fail(p, -PMC_E_PARSE, t.off,
				       "empty group, expected an event after '{'");
	p->in_group = true;
	do {
		ret = parse_event(p);
		if (ret)
			return ret;
		peek(p, PMC_LEX_EVENT, &t);
		take(p, &t);
	} while (pmc__tok_is(&t, ","));
	p->in_group = false;
	if (!pmc__tok_is(&t, "}"))
		return expected(p, &t, "',' or '}'");
	mods_off = p->pos;
	ret = group_mods(p, &m);
	if (ret)
		return ret;
	return pmc__group_close(p, first, name ? name->text : NULL, name ? name->text_len : 0, &m,
				mods_off, p->pos);
}

/* item = group | event ; */
static int parse_item(struct pmc_parser *p)
{
	struct pmc_tok t, next;

	peek(p, PMC_LEX_EVENT, &t);
	if (pmc__tok_is(&t, "{"))
		return parse_group(p, NULL);
	pmc__lex(p->str, t.off + t.len, PMC_LEX_EVENT, &next);
	if (t.kind == PMC_TOK_WORD && pmc__tok_is(&next, "{"))
		return parse_group(p, &t);
	return parse_event(p);
}

static int add_term(struct pmc_parsed *ev, const struct pmc_term *term)
{
	if (PMC_ENSURE(ev->terms, ev->alloc_terms, ev->nr_terms + 1))
		return -ENOMEM;
	ev->terms[ev->nr_terms++] = *term;
	return 0;
}

/* term = raw-term | "@" , driver-term | term-name , [ "=" , ( number | name ) ] ; */
static int parse_term(struct pmc_parser *p, struct pmc_parsed *ev)
{
	struct pmc_term term = {0};
	struct pmc_tok t, v;

	peek(p, PMC_LEX_TERM, &t);
	term.off = term.val_off = t.off;
	if (t.kind != PMC_TOK_WORD && t.kind != PMC_TOK_DRV)
		return expected(p, &t, "a term");
	take(p, &t);
	term.name = t.text;
	term.name_len = t.text_len;
	term.drv = t.kind == PMC_TOK_DRV;
	if (t.raw && t.err)
		return pmc__parse_fail(p, -PMC_E_PARSE, t.off, "raw code above 64 bits");
	if (t.raw) { /* raw-term = "r" , hex | "r0x" , hex ; (config=0xHEX) */
		term.raw = true;
		term.vtype = PMC_TV_NUM;
		term.num = t.num;
	}
	if (t.raw || term.drv)
		return add_term(ev, &term);
	peek(p, PMC_LEX_TERM, &v);
	if (pmc__tok_is(&v, "["))
		return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, v.off,
				       "array terms ('%.*s[...]=') fill BPF maps, which pmc does "
				       "not load",
				       t.text_len, t.text);
	if (!pmc__tok_is(&v, "="))
		return add_term(ev, &term);
	take(p, &v);
	peek(p, PMC_LEX_TERM, &v);
	term.val_off = v.off;
	if (v.kind == PMC_TOK_NUM)
		term.num = v.num;
	else if (v.kind == PMC_TOK_WORD)
		term.str = v.text, term.str_len = v.text_len;
	else
		return expected(p, &v, "a number or a name after '='");
	term.vtype = v.kind == PMC_TOK_NUM ? PMC_TV_NUM : PMC_TV_STR;
	take(p, &v);
	return add_term(ev, &term);
}

/* "/" , [ term , { "," , term } ] , "/" ; */
static int parse_terms(struct pmc_parser *p, struct pmc_parsed *ev)
{
	struct pmc_tok t;

	peek(p, PMC_LEX_EVENT, &t);
	take(p, &t);
	peek(p, PMC_LEX_TERM, &t);
	ev->terms_off = t.off;
	while (!pmc__tok_is(&t, "/")) {
		int ret = parse_term(p, ev);

		if (ret)
			return ret;
		peek(p, PMC_LEX_TERM, &t);
		if (pmc__tok_is(&t, ","))
			take(p, &t);
		else if (!pmc__tok_is(&t, "/"))
			return expected(p, &t, "',' or '/' after a term");
		else
			break;
		peek(p, PMC_LEX_TERM, &t);
		if (pmc__tok_is(&t, "/"))
			return expected(p, &t, "a term after ','");
	}
	ev->terms_end = t.off;
	take(p, &t);
	return 0;
}

/* After the modifiers: the next item or the end; a second group says why it cannot be. */
static int after_mods(struct pmc_parser *p)
{
	struct pmc_tok t;

	peek(p, PMC_LEX_EVENT, &t);
	if (!pmc__tok_is(&t, ":"))
		return 0;
	return pmc__parse_fail(p, -PMC_E_PARSE, t.off,
			       "one group of modifiers per event, as in perf: write them together "
			       "(cycles:uk, not cycles:u:k)");
}

/* tail = [ "/" , [ terms ] , "/" ] , [ ":" ] , [ modifiers ] ; shape: the parts head takes. */
static int parse_tail(struct pmc_parser *p, struct pmc_parsed *ev, unsigned shape)
{
	bool slashes = false, colon = false;
	struct pmc_tok t;
	int ret;

	peek(p, PMC_LEX_EVENT, &t);
	if (pmc__tok_is(&t, "/") && (shape & (T_TERMS | T_TERMS_REQUIRED | T_TERMS_EMPTY))) {
		ret = parse_terms(p, ev);
		if (ret)
			return ret;
		if (ev->nr_terms && !(shape & (T_TERMS | T_TERMS_REQUIRED)))
			return pmc__parse_fail(
				p, -PMC_E_PARSE, t.off,
				"a tool event takes no terms: '//' at most, as in perf");
		slashes = true;
		peek(p, PMC_LEX_EVENT, &t);
	} else if (shape & T_TERMS_REQUIRED) {
		return expected(p, &t, "'/' opening the PMU's terms");
	}
	if (pmc__tok_is(&t, ":") && slashes && !(shape & T_COLON_TERMS))
		return pmc__parse_fail(p, -PMC_E_PARSE, t.off,
				       "no ':' after this event's terms: its modifiers follow the "
				       "'/' (cycles/period=1/u, as in perf)");
	if (pmc__tok_is(&t, ":") && (slashes || shape & T_COLON)) {
		take(p, &t);
		peek(p, PMC_LEX_EVENT, &t);
		colon = true;
	}
	if (t.kind != PMC_TOK_WORD || t.quoted ||
	    (!colon && !pmc__lex_mod_letters(t.text, t.text_len)))
		return 0;
	take(p, &t);
	ret = pmc__mods_letters(p, t.text, t.text_len, t.off, &ev->mods);
	return ret ? ret : after_mods(p);
}

/* numeric = number , ":" , number , tail ; (TYPE:CONFIG) */
static int parse_numeric(struct pmc_parser *p, struct pmc_parsed *ev, const struct pmc_tok *type)
{
	struct pmc_tok t;

	take(p, type);
	ev->head = PMC_HEAD_NUMERIC;
	ev->num = type->num;
	peek(p, PMC_LEX_EVENT, &t);
	if (!pmc__tok_is(&t, ":"))
		return expected(p, &t, "':' and a config after the type (TYPE:CONFIG)");
	take(p, &t);
	peek(p, PMC_LEX_EVENT, &t);
	if (t.kind != PMC_TOK_NUM)
		return expected(p, &t, "a config number after 'TYPE:'");
	take(p, &t);
	ev->num2 = t.num;
	if (ev->num > UINT32_MAX)
		return pmc__parse_fail(p, -PMC_E_PARSE, type->off,
				       "type %llu is wider than perf_event_attr's 32-bit type",
				       (unsigned long long)ev->num);
	return parse_tail(p, ev, T_TERMS | T_COLON | T_COLON_TERMS);
}

/* breakpoint = "mem:" , number , [ "/" , number ] , [ ":" , access ] , tail ; */
static int parse_breakpoint(struct pmc_parser *p, struct pmc_parsed *ev)
{
	struct pmc_tok t;
	int n = 0;

	ev->head = PMC_HEAD_BP;
	p->pos = ev->off + 4;
	peek(p, PMC_LEX_EVENT, &t);
	if (t.kind != PMC_TOK_NUM)
		return expected(p, &t, "a breakpoint address (0x... or decimal) after 'mem:'");
	take(p, &t);
	ev->num = t.num;
	peek(p, PMC_LEX_EVENT, &t);
	if (pmc__tok_is(&t, "/")) {
		take(p, &t);
		peek(p, PMC_LEX_EVENT, &t);
		if (t.kind != PMC_TOK_NUM)
			return expected(p, &t, "a breakpoint length after '/'");
		take(p, &t);
		ev->num2 = t.num;
		ev->num2_off = t.off;
		peek(p, PMC_LEX_EVENT, &t);
	}
	while (pmc__tok_is(&t, ":") && n < 3 && p->str[t.off + 1 + n] &&
	       strchr("rwx", p->str[t.off + 1 + n]))
		n++;
	if (n) {
		ev->bp_type_off = t.off + 1;
		if (pmc__bp_access(p->str + t.off + 1, n, &ev->bp_type))
			return pmc__parse_fail(p, -PMC_E_PARSE, t.off + 1,
					       "breakpoint access '%.*s' names a letter twice", n,
					       p->str + t.off + 1);
		p->pos = t.off + 1 + n;
	}
	return parse_tail(p, ev, T_COLON);
}

/* cpu-event = cpu-name , { ":" , word , [ "=" , ( number | word ) ] } , tail ; (extension) */
static int parse_cpu(struct pmc_parser *p, struct pmc_parsed *ev)
{
	struct pmc_tok colon, w, eq, v;

	ev->head = PMC_HEAD_CPU;
	for (;;) {
		int ret;

		peek(p, PMC_LEX_EVENT, &colon);
		if (!pmc__tok_is(&colon, ":"))
			break;
		pmc__lex(p->str, colon.off + 1, PMC_LEX_EVENT, &w);
		if (w.kind != PMC_TOK_WORD)
			break;
		take(p, &w);
		peek(p, PMC_LEX_EVENT, &eq);
		if (pmc__tok_is(&eq, "="))
			pmc__lex(p->str, eq.off + 1, PMC_LEX_EVENT, &v);
		if (pmc__tok_is(&eq, "=") && v.kind != PMC_TOK_NUM && v.kind != PMC_TOK_WORD)
			return expected(p, &v, "a value after '='");
		if (pmc__tok_is(&eq, "="))
			take(p, &v);
		ret = pmc__mods_cpu_segment(p, &w, pmc__tok_is(&eq, "=") ? &v : NULL, &ev->mods,
					    &ev->cpu_extra);
		if (ret)
			return ret;
	}
	return parse_tail(p, ev, T_TERMS | T_COLON);
}

/* tracepoint = subsystem , ":" , name , tail ; */
static int parse_tracepoint(struct pmc_parser *p, struct pmc_parsed *ev)
{
	struct pmc_tok colon, name;

	peek(p, PMC_LEX_EVENT, &colon);
	pmc__lex(p->str, colon.off + 1, PMC_LEX_EVENT, &name);
	take(p, &name);
	ev->head = PMC_HEAD_TP;
	ev->word2 = name.text;
	ev->word2_len = name.text_len;
	return parse_tail(p, ev, T_TERMS | T_COLON | T_COLON_TERMS);
}

/* The tail each head takes (perf's event_def alternatives). */
static const unsigned tails[] = {
	[PMC_HEAD_SYM] = T_TERMS | T_COLON,
	[PMC_HEAD_CACHE] = T_TERMS | T_COLON | T_COLON_TERMS,
	[PMC_HEAD_RAW] = T_TERMS | T_COLON | T_COLON_TERMS,
	[PMC_HEAD_PMU] = T_TERMS_REQUIRED,
	[PMC_HEAD_ALIAS] = T_TERMS | T_COLON,
	[PMC_HEAD_PRESET] = T_TERMS | T_COLON,
	[PMC_HEAD_TOOL] = T_TERMS_EMPTY | T_COLON,
};

static int bad_head(struct pmc_parser *p, const struct pmc_tok *w, int err)
{
	if (err == -PMC_E_UNSUPPORTED)
		return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, w->off,
				       "'%.*s' names an operation this cache does not have",
				       w->text_len, w->text);
	if (err == -ERANGE)
		return pmc__parse_fail(p, -PMC_E_PARSE, w->off, "raw event code above 64 bits");
	return pmc__parse_fail(p, -PMC_E_PARSE, w->off,
			       "'%.*s' is not an event: a raw code is 'r' and hex digits without "
			       "0x (r%.*s), as in perf",
			       w->text_len, w->text, w->text_len - 3, w->text + 3);
}

/* named = keyword-event | pmu-event | tracepoint | alias | cpu-event ; the word decides. */
static int parse_named(struct pmc_parser *p, struct pmc_parsed *ev, const struct pmc_tok *w)
{
	int head = pmc__lex_head(p->str, w, ev);
	struct pmc_tok next;

	take(p, w);
	ev->word = w->text;
	ev->word_len = w->text_len;
	if (head < 0)
		return bad_head(p, w, head);
	if (head == PMC_HEAD_TP)
		return parse_tracepoint(p, ev);
	if (head != PMC_HEAD_CPU) {
		ev->head = head;
		return parse_tail(p, ev, tails[head]);
	}
	peek(p, PMC_LEX_EVENT, &next);
	if (pmc__tok_is(&next, ":") && !pmc__tok_cpu_name(w)) {
		pmc__lex(p->str, next.off + 1, PMC_LEX_EVENT, &next);
		if (next.kind != PMC_TOK_WORD)
			return expected(p, &next, "a tracepoint's name after 'subsystem:'");
	}
	if (w->quoted)
		return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, w->off,
				       "unknown event '%.*s' (a quoted name names a PMU, a "
				       "tracepoint or a group)",
				       w->text_len, w->text);
	return parse_cpu(p, ev);
}

/* event = breakpoint | numeric | named ; */
static int parse_event(struct pmc_parser *p)
{
	struct pmc_parsed ev = {.terms_off = -1, .mods.offset = -1};
	struct pmc_tok t;
	int ret;

	peek(p, PMC_LEX_EVENT, &t);
	ev.off = t.off;
	if (t.kind == PMC_TOK_NUM)
		ret = parse_numeric(p, &ev, &t);
	else if (pmc__tok_is(&t, "mem") && p->str[t.off + 3] == ':')
		ret = parse_breakpoint(p, &ev);
	else if (t.kind == PMC_TOK_WORD)
		ret = parse_named(p, &ev, &t);
	else if (pmc__tok_is(&t, "{") && p->in_group)
		ret = pmc__parse_fail(p, -PMC_E_PARSE, t.off, "nested groups are not allowed");
	else
		ret = expected(p, &t, "an event");
	ev.end = p->pos;
	if (!ret)
		ret = pmc__event_build(p, &ev);
	free(ev.terms);
	free(ev.cpu_extra);
	return ret;
}

int pmc_evlist__parse(struct pmc_evlist *evlist, const char *str, struct pmc_parse_error *err)
{
	struct pmc_parse_error local;
	struct pmc_parser p = {.str = str, .evlist = evlist, .err = err ? err : &local};
	int ret;

	memset(p.err, 0, sizeof(*p.err));
	if (!evlist || !str)
		return -EINVAL;
	ret = parse_list(&p);
	if (!ret)
		ret = pmc__parse_commit(&p);
	pmc__parse_discard(&p);
	if (ret == -ENOMEM && !p.err->msg[0])
		pmc__parse_fail(&p, ret, p.pos, "out of memory");
	return ret;
}
