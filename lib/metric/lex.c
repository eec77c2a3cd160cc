// SPDX-License-Identifier: MIT
/*
 * The lexer of metric expressions: the tokens of perf 6.1's tools/perf/util/expr.l, written
 * here (docs/metrics.md, "Tokens"), for the parser in expr.c.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "metric/expr.h"

static const struct keyword {
	const char *word;
	enum pmc__expr_tok tok;
} keywords[] = {
	{"d_ratio", T_D_RATIO}, {"max", T_MAX},	  {"min", T_MIN},
	{"if", T_IF},		{"else", T_ELSE}, {"source_count", T_SOURCE_COUNT},
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* expr.l's sym: [0-9a-zA-Z_\.:@?] */
static bool is_sym(char c)
{
	return is_alnum(c) || c == '_' || c == '.' || c == ':' || c == '@' || c == '?';
}

void pmc__expr_fail(struct pmc__expr_parser *p, int offset, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return;
	p->failed = true;
	p->err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
}

void pmc__expr_nomem(struct pmc__expr_parser *p, int offset)
{
	pmc__expr_fail(p, offset, "out of memory");
	p->nomem = true;
}

/* {number}: ([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)? — its longest match at s, or 0. */
static int number_len(const char *s)
{
	int i = 0, digits = 0, j;

	for (; is_digit(s[i]); i++)
		digits++;
	if (s[i] == '.')
		for (i++; is_digit(s[i]); i++)
			digits++;
	if (!digits)
		return 0;
	if (s[i] != 'e')
		return i;
	j = i + 1 + (s[i + 1] == '-');
	if (is_digit(s[j])) {
		while (is_digit(s[j]))
			j++;
		i = j;
	}
	return i;
}

/* {symbol}: ({spec}|{sym})+ with spec \\[-,=] — its longest match at s, or 0. */
static int symbol_len(const char *s)
{
	int i = 0;

	for (;;) {
		if (is_sym(s[i]))
			i++;
		else if (s[i] == '\\' && s[i + 1] && strchr("-,=", s[i + 1]))
			i += 2;
		else
			return i;
	}
}

/* {literal}: #[0-9a-zA-Z_\.\-]+ — its length at s ('#' included), 1 for a bare '#'. */
static int literal_len(const char *s)
{
	int i = 1;

	while (is_alnum(s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '-')
		i++;
	return i;
}

/* The name of a symbol as perf's normalize() makes it: escapes dropped, '?' the runtime. */
static char *symbol_name(const char *s, int len, int runtime)
{
	size_t cap = (size_t)len * 12 + 1; /* a '?' becomes at most 11 digits and a sign */
	char *name = malloc(cap), *d = name;

	if (!name)
		return NULL;
	for (int i = 0; i < len; i++) {
		if (s[i] == '\\')
			*d++ = s[++i];
		else if (s[i] == '?')
			d += snprintf(d, cap - (size_t)(d - name), "%d", runtime);
		else
			*d++ = s[i];
	}
	*d = 0;
	return name;
}

static int lex_number(struct pmc__expr_parser *p, int len)
{
	char buf[64];

	if (len >= (int)sizeof(buf))
		return pmc__expr_fail(p, p->start, "the number '%.*s...' is too long", 20,
				      p->s + p->start),
		       -1;
	memcpy(buf, p->s + p->start, (size_t)len);
	buf[len] = 0;
	errno = 0;
	p->num = strtod(buf, NULL);
	if (errno || !isfinite(p->num))
		return pmc__expr_fail(p, p->start, "the number '%s' is out of range", buf), -1;
	p->tok = T_NUMBER;
	return 0;
}

static int lex_symbol(struct pmc__expr_parser *p, int len)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		if ((int)strlen(keywords[i].word) == len &&
		    !strncmp(p->s + p->start, keywords[i].word, (size_t)len)) {
			p->tok = keywords[i].tok;
			return 0;
		}
	}
	p->text = symbol_name(p->s + p->start, len, p->runtime);
	if (!p->text)
		return -ENOMEM;
	p->tok = T_ID;
	return 0;
}

static int lex_literal(struct pmc__expr_parser *p, int len)
{
	if (len == 1)
		return pmc__expr_fail(
			       p, p->start,
			       "'#' starts a literal and needs its name (#smt_on, #slots, ...)"),
		       -1;
	const char *name;

	p->text = strndup(p->s + p->start, (size_t)len);
	if (!p->text)
		return -ENOMEM;
	if (!(name = pmc__literal_name(p->text))) {
		pmc__expr_fail(p, p->start, "unknown literal '%s'", p->text);
		pmc__literal_suggest(p->text, p->err);
		return -1;
	}
	/* As the table spells it: the callback of another machine's literals sees one name. */
	memcpy(p->text, name, (size_t)len);
	p->tok = T_LITERAL;
	return 0;
}

/*
 * Reads the next token. As flex does, the longest match wins and a tie goes to the rule
 * listed first (keywords, literal, number, symbol): "1e5" is a number, "1e5x" and "0x10"
 * are symbols. Blanks separate tokens; other characters perf's lexer would drop are errors.
 * Returns 0, -1 on a fault (written) or -ENOMEM.
 */
int pmc__expr_next(struct pmc__expr_parser *p)
{
	const char *s = p->s;
	int num, sym;

	free(p->text);
	p->text = NULL;
	while (s[p->pos] && strchr(" \t\n\r\f\v", s[p->pos]))
		p->pos++;
	p->start = p->pos;
	num = number_len(s + p->pos);
	sym = symbol_len(s + p->pos);
	if (!s[p->pos]) {
		p->tok = T_END;
	} else if (s[p->pos] == '#') {
		p->end = p->pos + literal_len(s + p->pos);
		p->pos = p->end;
		return lex_literal(p, p->end - p->start);
	} else if (num && num >= sym) {
		p->pos += num;
		p->end = p->pos;
		return lex_number(p, num);
	} else if (sym) {
		p->pos += sym;
		p->end = p->pos;
		return lex_symbol(p, sym);
	} else if (strchr("|^&<>-+*/%(),", s[p->pos])) {
		p->tok = T_OP;
		p->op = s[p->pos++];
	} else if (s[p->pos] == '\\') {
		return pmc__expr_fail(p, p->pos, "'\\' escapes only '-', ',' and '=' in a name"),
		       -1;
	} else {
		return pmc__expr_fail(p, p->pos, "'%c' is not part of the expression grammar",
				      s[p->pos] >= ' ' && s[p->pos] < 127 ? s[p->pos] : '?'),
		       -1;
	}
	p->end = p->pos;
	return 0;
}
