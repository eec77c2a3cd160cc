// SPDX-License-Identifier: MIT
/*
 * The metric expression grammar of perf 6.1 (tools/perf/util/expr.y), written here: one
 * function per production in the order of docs/metrics.md, "Grammar", over the tokens of
 * lex.c. Every error carries the byte offset of the fault.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "metric/expr.h"

static bool at_op(const struct pmc__expr_parser *p, char op)
{
	return p->tok == T_OP && p->op == op;
}

/* The current token as a message shows it. */
static const char *shown(const struct pmc__expr_parser *p, char *buf, size_t len)
{
	if (p->tok == T_END)
		return "the end";
	snprintf(buf, len, "'%.*s'", p->end - p->start > 40 ? 40 : p->end - p->start,
		 p->s + p->start);
	return buf;
}

/* Moves past the current token; false (with the fault written) when the lexer failed. */
static bool advance(struct pmc__expr_parser *p)
{
	int err;

	p->prev_end = p->end;
	err = pmc__expr_next(p);
	if (err == -ENOMEM)
		pmc__expr_nomem(p, p->start);
	return !err;
}

/* Moves past op, or fails: "expected OP WHY, found X". */
static bool expect_op(struct pmc__expr_parser *p, char op, const char *why)
{
	char buf[64];

	if (at_op(p, op))
		return advance(p);
	pmc__expr_fail(p, p->start, "expected '%c' %s, found %s", op, why,
		       shown(p, buf, sizeof(buf)));
	return false;
}

/* ---- nodes ---- */

static struct pmc__expr *node(struct pmc__expr_parser *p, enum pmc__expr_kind kind, int start,
			      struct pmc__expr *a, struct pmc__expr *b, struct pmc__expr *c)
{
	struct pmc__expr *e = p->failed ? NULL : calloc(1, sizeof(*e));
	struct pmc__expr *kids[3] = {a, b, c};

	if (!e) {
		if (!p->failed)
			pmc__expr_nomem(p, start);
		for (int i = 0; i < 3; i++)
			pmc__expr_free(kids[i]);
		return NULL;
	}
	e->kind = kind;
	e->start = start;
	e->end = p->prev_end;
	e->height = 1;
	for (int i = 0; i < 3; i++) {
		e->kid[i] = kids[i];
		if (kids[i] && kids[i]->height + 1 > e->height)
			e->height = kids[i]->height + 1;
	}
	if (e->height > PMC_EXPR_MAX_HEIGHT) {
		pmc__expr_fail(p, start, "the expression nests deeper than %d levels",
			       PMC_EXPR_MAX_HEIGHT);
		pmc__expr_free(e);
		return NULL;
	}
	return e;
}

void pmc__expr_free(struct pmc__expr *e)
{
	if (!e)
		return;
	for (int i = 0; i < 3; i++)
		pmc__expr_free(e->kid[i]);
	free(e->name);
	free(e->event);
	free(e);
}

/* ---- the grammar (expr.y), one function per production ---- */

static struct pmc__expr *if_expr(struct pmc__expr_parser *p);
static struct pmc__expr *expr(struct pmc__expr_parser *p, int min_prec);

/* Binary operators, by precedence (expr.y's %left lines, loosest first); 0: not one. */
static int precedence(const struct pmc__expr_parser *p)
{
	static const char *const levels[] = {"|", "^", "&", "<>", "+-", "*/%"};

	if (p->tok != T_OP)
		return 0;
	for (int i = 0; i < 6; i++)
		if (strchr(levels[i], p->op))
			return i + 1;
	return 0;
}

/* An ID node of name (which it takes), '@' read as '/' for the event it names. */
static struct pmc__expr *id(struct pmc__expr_parser *p, enum pmc__expr_kind kind, int start,
			    char *name)
{
	struct pmc__expr *e = node(p, kind, start, NULL, NULL, NULL);

	if (!e) {
		free(name);
		return NULL;
	}
	e->name = name;
	e->event = strdup(name);
	if (!e->event) {
		pmc__expr_nomem(p, start);
		pmc__expr_free(e);
		return NULL;
	}
	for (char *c = strchr(e->event, '@'); c; c = strchr(c, '@'))
		*c = '/';
	return e;
}

/* The current token's name, taken from the lexer. */
static char *take_text(struct pmc__expr_parser *p)
{
	char *text = p->text;

	p->text = NULL;
	return text;
}

/* SOURCE_COUNT '(' ID ')' */
static struct pmc__expr *source_count(struct pmc__expr_parser *p, int start)
{
	char buf[64], *name;

	if (!advance(p) || !expect_op(p, '(', "after source_count"))
		return NULL;
	if (p->tok != T_ID) {
		pmc__expr_fail(p, p->start, "source_count takes an event name, found %s",
			       shown(p, buf, sizeof(buf)));
		return NULL;
	}
	name = take_text(p);
	if (!advance(p) || !expect_op(p, ')', "to close source_count(")) {
		free(name);
		return NULL;
	}
	return id(p, PMC_EXPR_SOURCE_COUNT, start, name);
}

/* MIN '(' expr ',' expr ')', MAX ..., D_RATIO ... */
static struct pmc__expr *call(struct pmc__expr_parser *p, enum pmc__expr_kind kind, const char *fn,
			      int start)
{
	struct pmc__expr *a = NULL, *b = NULL;
	char why[40];

	snprintf(why, sizeof(why), "after %s", fn);
	if (!advance(p) || !expect_op(p, '(', why))
		return NULL;
	a = expr(p, 1);
	snprintf(why, sizeof(why), "between the arguments of %s()", fn);
	if (a && expect_op(p, ',', why))
		b = expr(p, 1);
	snprintf(why, sizeof(why), "to close %s(", fn);
	if (!b || !expect_op(p, ')', why)) {
		pmc__expr_free(a);
		pmc__expr_free(b);
		return NULL;
	}
	return node(p, kind, start, a, b, NULL);
}

/* '(' if_expr ')' */
static struct pmc__expr *parens(struct pmc__expr_parser *p, int start)
{
	struct pmc__expr *e;
	char why[48];

	if (!advance(p))
		return NULL;
	e = if_expr(p);
	snprintf(why, sizeof(why), "to close the '(' at offset %d", start);
	if (e && !expect_op(p, ')', why)) {
		pmc__expr_free(e);
		return NULL;
	}
	if (e) {
		e->start = start;
		e->end = p->prev_end;
	}
	return e;
}

/* NUMBER | ID | LITERAL, one token each */
static struct pmc__expr *leaf(struct pmc__expr_parser *p, int start)
{
	enum pmc__expr_tok tok = p->tok;
	double num = p->num;
	char *text = take_text(p);
	struct pmc__expr *e;

	if (!advance(p)) {
		free(text);
		return NULL;
	}
	if (tok == T_ID)
		return id(p, PMC_EXPR_ID, start, text);
	e = node(p, tok == T_NUMBER ? PMC_EXPR_NUMBER : PMC_EXPR_LITERAL, start, NULL, NULL, NULL);
	if (!e) {
		free(text);
		return NULL;
	}
	e->num = num;
	e->name = text;
	return e;
}

/*
 * An operand: NUMBER | ID | LITERAL | SOURCE_COUNT(ID) | MIN/MAX/D_RATIO(expr, expr) |
 * '(' if_expr ')' | '-' operand (expr.y's '-' expr %prec NEG: the minus binds tighter
 * than every binary operator).
 */
static struct pmc__expr *operand(struct pmc__expr_parser *p)
{
	int start = p->start;
	struct pmc__expr *e = NULL;
	char buf[64];

	if (++p->depth > PMC_EXPR_MAX_HEIGHT) {
		pmc__expr_fail(p, start, "the expression nests deeper than %d levels",
			       PMC_EXPR_MAX_HEIGHT);
	} else if (at_op(p, '-')) {
		if (advance(p) && (e = operand(p)))
			e = node(p, PMC_EXPR_NEG, start, e, NULL, NULL);
		p->depth--;
		return e;
	} else if (at_op(p, '(')) {
		e = parens(p, start);
	} else if (p->tok == T_SOURCE_COUNT) {
		e = source_count(p, start);
	} else if (p->tok == T_MIN || p->tok == T_MAX || p->tok == T_D_RATIO) {
		e = call(p,
			 p->tok == T_MIN   ? PMC_EXPR_MIN
			 : p->tok == T_MAX ? PMC_EXPR_MAX
					   : PMC_EXPR_D_RATIO,
			 p->tok == T_MIN   ? "min"
			 : p->tok == T_MAX ? "max"
					   : "d_ratio",
			 start);
	} else if (p->tok == T_NUMBER || p->tok == T_ID || p->tok == T_LITERAL) {
		e = leaf(p, start);
	} else {
		pmc__expr_fail(
			p, start,
			"expected an operand (a number, an event or metric name, a '#' literal, "
			"min, max, d_ratio, source_count or '('), found %s",
			shown(p, buf, sizeof(buf)));
	}
	p->depth--;
	return e;
}

/* expr: operand { OP expr } with expr.y's precedences, every operator left-associative. */
static struct pmc__expr *expr(struct pmc__expr_parser *p, int min_prec)
{
	int start = p->start, prec;
	struct pmc__expr *lhs = operand(p);

	while (lhs && (prec = precedence(p)) >= min_prec && prec) {
		char op = p->op;
		struct pmc__expr *rhs;

		if (!advance(p) || !(rhs = expr(p, prec + 1))) {
			pmc__expr_free(lhs);
			return NULL;
		}
		lhs = node(p, PMC_EXPR_BINARY, start, lhs, rhs, NULL);
		if (lhs)
			lhs->op = op;
	}
	return lhs;
}

/* if_expr: expr IF expr ELSE if_expr | expr */
static struct pmc__expr *if_expr(struct pmc__expr_parser *p)
{
	int start = p->start, if_at;
	struct pmc__expr *a = expr(p, 1), *cond, *b;
	char buf[64];

	if (!a || p->tok != T_IF)
		return a;
	if_at = p->start;
	if (!advance(p) || !(cond = expr(p, 1))) {
		pmc__expr_free(a);
		return NULL;
	}
	if (p->tok != T_ELSE) {
		pmc__expr_fail(p, p->start,
			       "expected 'else' to complete the 'if' at offset %d, found %s", if_at,
			       shown(p, buf, sizeof(buf)));
		b = NULL;
	} else if (++p->depth > PMC_EXPR_MAX_HEIGHT) {
		pmc__expr_fail(p, p->start, "the expression nests deeper than %d levels",
			       PMC_EXPR_MAX_HEIGHT);
		b = NULL;
	} else {
		b = advance(p) ? if_expr(p) : NULL;
		p->depth--;
	}
	if (!b) {
		pmc__expr_free(a);
		pmc__expr_free(cond);
		return NULL;
	}
	return node(p, PMC_EXPR_IF, start, a, cond, b);
}

/* start: if_expr END */
int pmc__expr_parse(const char *text, int runtime, struct pmc__expr **out,
		    struct pmc_parse_error *err)
{
	struct pmc_parse_error scratch;
	struct pmc__expr_parser p = {.s = text, .runtime = runtime, .err = err ? err : &scratch};
	struct pmc__expr *e = NULL;
	char buf[64];

	memset(p.err, 0, sizeof(*p.err));
	*out = NULL;
	if (advance(&p) && p.tok == T_END)
		pmc__expr_fail(&p, 0, "the expression is empty");
	else if (!p.failed)
		e = if_expr(&p);
	if (e && p.tok != T_END)
		pmc__expr_fail(&p, p.start,
			       p.tok == T_ELSE ? "unexpected %s: no 'if' before it"
					       : "unexpected %s after a complete expression (an "
						 "operator missing?)",
			       shown(&p, buf, sizeof(buf)));
	free(p.text);
	if (p.failed) {
		pmc__expr_free(e);
		return p.nomem ? -ENOMEM : -PMC_E_EXPR;
	}
	*out = e;
	return 0;
}
