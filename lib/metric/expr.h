/* SPDX-License-Identifier: MIT */
/* The lexer and parser of metric expressions (lex.c, expr.c): their shared state. */
#ifndef PMC_LIB_METRIC_EXPR_H
#define PMC_LIB_METRIC_EXPR_H

#include <stdbool.h>
#include "metric/metric.h"

/* The tokens of perf 6.1's expr.l. */
enum pmc__expr_tok {
	T_END,
	T_NUMBER,
	T_ID,
	T_LITERAL,
	T_IF,
	T_ELSE,
	T_MIN,
	T_MAX,
	T_D_RATIO,
	T_SOURCE_COUNT,
	T_OP, /* one of | ^ & < > - + * / % ( ) , */
};

struct pmc__expr_parser {
	const char *s;
	int runtime;
	int pos;		/* where the lexer goes on */
	enum pmc__expr_tok tok; /* the current token, s[start, end) */
	char op;		/* T_OP */
	int start, end;
	int prev_end; /* the end of the token before the current one */
	double num;   /* T_NUMBER */
	char *text;   /* T_ID, T_LITERAL: the name (owned until a node takes it) */
	int depth;    /* productions entered and not left */
	bool failed;  /* err is written: only the first fault is reported */
	bool nomem;
	struct pmc_parse_error *err;
};

/*
 * lex.c: reads the next token into p (tok, start, end, num, text). Returns 0, -1 on a fault
 * (written to p->err) or -ENOMEM.
 */
int pmc__expr_next(struct pmc__expr_parser *p);
/* lex.c: records the first fault of a parse, at offset. */
void pmc__expr_fail(struct pmc__expr_parser *p, int offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* lex.c: records that memory ran out. */
void pmc__expr_nomem(struct pmc__expr_parser *p, int offset);

#endif /* PMC_LIB_METRIC_EXPR_H */
