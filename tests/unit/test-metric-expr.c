// SPDX-License-Identifier: MIT
/*
 * The metric expression grammar (docs/metrics.md, "Grammar"): one row per token and
 * production of perf 6.1's expr.l and expr.y, with the value it has or the offset of the
 * fault, then perf 6.1's own test strings (tools/perf/tests/expr.c).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <pmc/error.h>
#include <pmc/metric.h>
#include "metric/metric.h"

/* Table rows leave trailing fields out on purpose: they are zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* The counts every row sees: name -> value. */
static const struct {
	const char *event;
	double value, sources;
} counts[] = {
	{"FOO", 1},
	{"BAR", 2},
	{"ZERO", 0},
	{"cpu/event=0x3c/", 7},
	{"dash-event", 3},
	{"EV,param=3/", 11},
	{"cycles:u", 5},
	{"msr/tsc/", 13},
	{"0x10", 16},
	{"1e5x", 17},
	{"uncore_imc/cas/", 8, 4},
	{"a.b_c", 19},
};

static int input(const char *event, struct pmc_metric_input *in, char *why, size_t len, void *arg)
{
	(void)arg;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		if (!strcmp(counts[i].event, event)) {
			in->value = counts[i].value;
			in->nr_sources = counts[i].sources;
			return 0;
		}
	}
	snprintf(why, len, "which this test does not count");
	return -ENOENT;
}

static int literal(const char *name, double *value, void *arg)
{
	(void)arg;
	if (!strcmp(name, "#smt_on")) /* as the table spells it, however written */
		*value = 1;
	else if (!strcmp(name, "#num_cores"))
		*value = 4;
	else
		return -ENOENT;
	return 0;
}

/* A row: the expression and its value, or (fault >= 0) the offset and words of its error. */
struct row {
	const char *in;
	double value;
	int fault;
	const char *msg;
};

#define V(in, v)                \
	{                       \
		in, v, -1, NULL \
	}
#define E(in, off, msg)         \
	{                       \
		in, 0, off, msg \
	}

static const struct row rows[] = {
	/* ---- tokens (expr.l) ---- */
	/* {number}: ([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)? */
	V("42", 42),
	V("1.5", 1.5),
	V(".25", 0.25),
	V("2.", 2),
	V("1e3", 1000),
	V("1.5e-2", 0.015),
	V("1.e2", 100),
	E("1e999", 0, "out of range"),
	/* {symbol}: ({spec}|{sym})+, sym [0-9a-zA-Z_.:@?], spec \[-,=] */
	V("FOO", 1),
	V("a.b_c", 19),
	V("cycles:u", 5),
	V("cpu@event\\=0x3c@", 7), /* '@' is '/', '\' escapes '=' */
	V("msr@tsc@", 13),
	V("dash\\-event", 3),
	V("EV\\,param\\=?@", 11), /* '?' is the runtime parameter, 3 here */
	V("0x10", 16),		  /* a symbol is longer than the number "0": an event name */
	V("1e5x", 17),		  /* likewise */
	E("a\\+b", 1, "escapes only"),
	/* {literal}: #[0-9a-zA-Z_.\-]+ */
	V("#smt_on", 1),
	V("#SMT_on", 1),
	V("#num_cores * 2", 8),
	E("#smt_onn", 0, "unknown literal '#smt_onn'"),
	E("# 1", 0, "needs its name"),
	/* keywords: d_ratio max min if else source_count */
	V("d_ratio(1, 4)", 0.25),
	V("max(1, 4)", 4),
	V("min(1, 4)", 1),
	V("1 if 1 else 2", 1),
	V("source_count(uncore_imc@cas@)", 4),
	V("source_count(FOO)", 1),
	/* the single characters */
	V("6 | 1", 7),
	V("6 ^ 3", 5),
	V("6 & 3", 2),
	V("1 < 2", 1),
	V("1 > 2", 0),
	V("5 - 7", -2),
	V("5 + 7", 12),
	V("5 * 7", 35),
	V("7 / 2", 3.5),
	V("7 % 4", 3),
	V("(5)", 5),
	V("min(2,3)", 2),
	/* blanks separate tokens; other characters are refused */
	V(" \t\n1\n+\t2 ", 3),
	E("1 ! 2", 2, "not part of the expression grammar"),
	E("FOO = 1", 4, "not part of the expression grammar"),
	E("$x", 0, "not part of"),
	/* ---- productions (expr.y) ---- */
	/* start: if_expr END */
	E("", 0, "empty"),
	E("   ", 0, "empty"),
	E("1 2", 2, "after a complete expression"),
	E("FOO)", 3, "after a complete expression"),
	/* if_expr: expr IF expr ELSE if_expr | expr */
	V("10 if 0 else 20", 20),
	V("10 if FOO > 0 else 20", 10),
	V("1 + 1 if 0 else 5 * 2", 10), /* if binds loosest on both sides */
	V("10 if 0 else 20 if 0 else 30", 30),
	V("(1 if 0 else 2) * 3", 6),
	E("10 if 1", 7, "expected 'else' to complete the 'if' at offset 3"),
	E("10 else 20", 3, "no 'if' before it"),
	E("1 if 2 if 3 else 4 else 5", 7, "expected 'else'"), /* a condition has no if */
	E("1 if else 2", 5, "expected an operand"),
	/* expr: NUMBER | ID | LITERAL: above. SOURCE_COUNT '(' ID ')' */
	E("source_count FOO", 13, "expected '(' after source_count"),
	E("source_count(1)", 13, "takes an event name"),
	E("source_count(FOO", 16, "expected ')'"),
	/* expr '|' expr | expr '&' expr | expr '^' expr: | loosest, then ^, then & */
	V("1 | 2 ^ 3 & 1", 3),
	V("1-1 | 1", 1),
	V("1-1 & 1", 0),
	V("7.9 | 0", 7), /* the operands are cut to integers, as C's (long) */
	V("-7.9 & -1", -7),
	/* expr '<' expr | expr '>' expr: looser than + - */
	V("1 + 1 < 3", 1),
	V("2 > 1 > 0", 1), /* left to right: (2 > 1) > 0 */
	V("1 < 2 | 4", 5),
	/* expr '+' expr | expr '-' expr: left-associative */
	V("10 - 2 - 3", 5),
	V("10 - 2 + 3", 11),
	/* expr '*' expr | expr '/' expr | expr '%' expr: tighter than + -, left-associative */
	V("1 + 2 * 3", 7),
	V("8 / 2 / 2", 2),
	V("2 * 7 % 4", 2),
	V("17 % 5 * 2", 4),
	/* '-' expr %prec NEG: tighter than every binary operator */
	V("-2 * 3", -6),
	V("-FOO + 2", 1),
	V("- - 4", 4),
	V("1 - -4", 5),
	V("-min(2, 3)", -2),
	E("-", 1, "expected an operand"),
	/* '(' if_expr ')' */
	V("(1 + 2) * 3", 9),
	V("((((1))))", 1),
	E("(1 + 2", 6, "expected ')' to close the '(' at offset 0"),
	E("()", 1, "expected an operand"),
	/* D_RATIO '(' expr ',' expr ')' */
	V("d_ratio(FOO, BAR)", 0.5),
	V("d_ratio(2.5, 0)", 0),
	V("d_ratio(FOO, ZERO)", 0),
	E("d_ratio(1)", 9, "expected ',' between the arguments of d_ratio()"),
	E("d_ratio 1, 2", 8, "expected '(' after d_ratio"),
	/* MIN '(' expr ',' expr ')' | MAX '(' expr ',' expr ')' */
	V("min(FOO, BAR) + max(FOO, BAR)", 3),
	V("max(-1, -2)", -1),
	E("min(1 2)", 6, "expected ','"),
	E("max(1, 2", 8, "expected ')' to close max("),
	E("min(1 if 1 else 2, 3)", 6, "expected ','"), /* arguments are expr, not if_expr */
	E("max(1, 2, 3)", 8, "expected ')'"),
	/* the operand missing after an operator */
	E("1 +", 3, "found the end"),
	E("* 2", 0, "expected an operand"),
	E("1 + * 2", 4, "expected an operand"),
	E("min", 3, "expected '(' after min"),
	E("else", 0, "expected an operand"),
};

static double eval_str(const char *in, struct pmc_metric_value *v)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .no_shipped = true, .runtime = 3};
	struct pmc_metric_eval_opts e = {.sz = sizeof(e), .input = input, .literal = literal};
	struct pmc_metric_error err;
	struct pmc_metrics *m;
	char def[256];

	cr_assert_eq(pmc_metrics__new(&o, &err, &m), 0);
	snprintf(def, sizeof(def), "t = %s", in);
	cr_assert_eq(pmc_metrics__define(m, def, &err), 0, "'%s': %s at %d", in, err.parse.msg,
		     err.parse.offset);
	v->sz = sizeof(*v);
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "t"), &e, v), 0);
	pmc_metrics__delete(m);
	return v->raw;
}

Test(metric_expr, every_token_and_production)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct pmc_parse_error err;
		struct pmc__expr *e = NULL;
		struct pmc_metric_value v;
		int ret = pmc__expr_parse(r->in, 3, &e, &err);

		if (r->fault >= 0) {
			cr_expect_eq(ret, -PMC_E_EXPR, "'%s' parsed", r->in);
			cr_expect_eq(err.offset, r->fault, "'%s': fault at %d, expected %d (%s)",
				     r->in, err.offset, r->fault, err.msg);
			cr_expect(strstr(err.msg, r->msg), "'%s': '%s' lacks '%s'", r->in, err.msg,
				  r->msg);
			cr_expect_null(e);
			continue;
		}
		cr_expect_eq(ret, 0, "'%s': %s at %d", r->in, err.msg, err.offset);
		pmc__expr_free(e);
		eval_str(r->in, &v);
		cr_expect_eq(v.status, PMC_METRIC_OK, "'%s': %s", r->in, v.why);
		cr_expect(fabs(v.raw - r->value) <= 1e-12 * fabs(r->value),
			  "'%s' = %.17g, expected %g", r->in, v.raw, r->value);
	}
}

/* The spans of nodes, which messages quote. */
Test(metric_expr, nodes_span_their_text)
{
	const char *in = "(FOO + 1) * max(2, BAR) if #smt_on else source_count(X)";
	struct pmc__expr *e;

	cr_assert_eq(pmc__expr_parse(in, 0, &e, NULL), 0);
	cr_expect_eq(e->kind, PMC_EXPR_IF);
	cr_expect_eq(e->start, 0);
	cr_expect_eq(e->end, (int)strlen(in));
	cr_expect_eq(e->kid[0]->kind, PMC_EXPR_BINARY);
	cr_expect_eq(e->kid[0]->op, '*');
	cr_expect_eq(e->kid[0]->end - e->kid[0]->start, (int)strlen("(FOO + 1) * max(2, BAR)"));
	cr_expect_eq(e->kid[0]->kid[0]->start, 0); /* the parentheses are the operand's */
	cr_expect_eq(e->kid[0]->kid[0]->end, 9);
	cr_expect_eq(e->kid[0]->kid[1]->kind, PMC_EXPR_MAX);
	cr_expect_eq(e->kid[1]->kind, PMC_EXPR_LITERAL);
	cr_expect_str_eq(e->kid[1]->name, "#smt_on");
	cr_expect_eq(e->kid[2]->kind, PMC_EXPR_SOURCE_COUNT);
	cr_expect_eq(e->kid[2]->end, (int)strlen(in));
	pmc__expr_free(e);
}

/* Escapes and '@' in names: the name as written compares with metric names, the event
 * string is what pmc's event grammar reads. */
Test(metric_expr, names_and_events)
{
	struct pmc__expr *e;

	cr_assert_eq(pmc__expr_parse("cpu_core@INST_DECODED.DECODERS\\,cmask\\=1@", 0, &e, NULL),
		     0);
	cr_expect_str_eq(e->name, "cpu_core@INST_DECODED.DECODERS,cmask=1@");
	cr_expect_str_eq(e->event, "cpu_core/INST_DECODED.DECODERS,cmask=1/");
	pmc__expr_free(e);
	cr_assert_eq(pmc__expr_parse("EV\\,p\\=?@", -12, &e, NULL), 0);
	cr_expect_str_eq(e->name, "EV,p=-12@");
	pmc__expr_free(e);
}

/* An unknown literal comes with the closest ones. */
Test(metric_expr, unknown_literal_suggests)
{
	struct pmc_parse_error err;
	struct pmc__expr *e;

	cr_assert_eq(pmc__expr_parse("1 + #num_core", 0, &e, &err), -PMC_E_EXPR);
	cr_expect_eq(err.offset, 4);
	cr_assert_geq(err.nr_suggest, 1);
	cr_expect_str_eq(err.suggest[0], "#num_cores");
}

/* Trees deeper than the limit are refused where they get too deep, whatever makes them. */
Test(metric_expr, nesting_is_limited)
{
	char in[4096];
	struct pmc_parse_error err;
	struct pmc__expr *e;
	size_t n = 0;

	for (int i = 0; i < 200; i++)
		in[n++] = '(';
	in[n++] = '1';
	for (int i = 0; i < 200; i++)
		in[n++] = ')';
	in[n] = 0;
	cr_expect_eq(pmc__expr_parse(in, 0, &e, &err), -PMC_E_EXPR);
	cr_expect(strstr(err.msg, "nests deeper than"), "%s", err.msg);
	n = 0;
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "1+");
	snprintf(in + n, sizeof(in) - n, "1");
	cr_expect_eq(pmc__expr_parse(in, 0, &e, &err), -PMC_E_EXPR);
	n = 0;
	for (int i = 0; i < 300; i++)
		in[n++] = '-';
	snprintf(in + n, sizeof(in) - n, "1");
	cr_expect_eq(pmc__expr_parse(in, 0, &e, &err), -PMC_E_EXPR);
	n = 0;
	for (int i = 0; i < 200; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "1 if 0 else ");
	snprintf(in + n, sizeof(in) - n, "1");
	cr_expect_eq(pmc__expr_parse(in, 0, &e, &err), -PMC_E_EXPR);
	/* Within the limit it parses. */
	cr_expect_eq(pmc__expr_parse("((((((((((1))))))))))+1+1+1+1+1+1+1", 0, &e, &err), 0);
	pmc__expr_free(e);
}

/* perf 6.1's tools/perf/tests/expr.c: the same strings, the same values. */
static const struct row perf_rows[] = {
	V("1+1", 2),
	V("FOO+BAR", 3),
	V("(BAR/2)%2", 1),
	V("1 - -4", 5),
	V("(FOO-1)*2 + (BAR/2)%2 - -4", 5),
	V("1-1 | 1", 1),
	V("1-1 & 1", 0),
	V("min(1,2) + 1", 2),
	V("max(1,2) + 1", 3),
	V("1+1 if 3*4 else 0", 2),
	V("100 if 1 else 200 if 1 else 300", 100),
	V("100 if 0 else 200 if 1 else 300", 200),
	V("100 if 1 else 200 if 0 else 300", 100),
	V("100 if 0 else 200 if 0 else 300", 300),
	V("1.1 + 2.1", 3.2),
	V(".1 + 2.", 2.1),
	V("d_ratio(1, 2)", 0.5),
	V("d_ratio(2.5, 0)", 0),
	V("1.1 < 2.2", 1),
	V("2.2 > 1.1", 1),
	V("1.1 < 1.1", 0),
	V("2.2 > 2.2", 0),
	V("2.2 < 1.1", 0),
	V("1.1 > 2.2", 0),
	V("1.1e10 < 1.1e100", 1),
	V("1.1e2 > 1.1e-2", 1),
	E("BAR/", 4, "expected an operand"), /* "missing operand" */
};

Test(metric_expr, perf_test_strings)
{
	for (size_t i = 0; i < sizeof(perf_rows) / sizeof(perf_rows[0]); i++) {
		const struct row *r = &perf_rows[i];
		struct pmc_parse_error err;
		struct pmc__expr *e = NULL;
		struct pmc_metric_value v;

		if (r->fault >= 0) {
			cr_expect_eq(pmc__expr_parse(r->in, 0, &e, &err), -PMC_E_EXPR);
			cr_expect_eq(err.offset, r->fault);
			continue;
		}
		eval_str(r->in, &v);
		cr_expect_eq(v.status, PMC_METRIC_OK, "'%s': %s", r->in, v.why);
		cr_expect_eq(v.raw, r->value, "'%s' = %.17g, expected %g", r->in, v.raw, r->value);
	}
}
