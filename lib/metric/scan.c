// SPDX-License-Identifier: MIT
/*
 * A shipped metric file split into its entries without parsing them (docs/metrics.md,
 * "Shipped files"): each top-level object's bytes with the MetricName and MetricGroup it
 * gives, so that a set parses only the entries a selection needs. JSON's grammar only as far
 * as finding where values end; the entries are parsed by load.c when needed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/grow.h"
#include "metric/metric.h"

/* (Plain comparisons, not strchr(): the scan is most of what a selection's load costs.) */
static bool blank(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* What ends a number or a literal (true, null) at depth 0. */
static bool ends_value(char c)
{
	return c == ',' || c == '}' || c == ']' || blank(c);
}

static size_t ws(const char *t, size_t n, size_t i)
{
	while (i < n && blank(t[i]))
		i++;
	return i;
}

/* The string at t[*i] ('"'): *i past its closing quote; *plain when it has no escape. */
static bool string_end(const char *t, size_t n, size_t *i, bool *plain)
{
	*plain = true;
	for (size_t k = *i + 1; k < n;) {
		const char *q = memchr(t + k, '"', n - k), *b;

		if (!q)
			return false;
		b = memchr(t + k, '\\', (size_t)(q - t) - k);
		if (b) { /* an escape: the character after it is no close */
			*plain = false;
			k = (size_t)(b - t) + 2;
			continue;
		}
		*i = (size_t)(q - t) + 1;
		return true;
	}
	return false;
}

/* Any value at t[*i]: *i past it (objects and arrays to their matching close). */
static bool value_end(const char *t, size_t n, size_t *i)
{
	int depth = 0;
	bool plain;

	do {
		if (*i >= n)
			return false;
		if (t[*i] == '"') {
			if (!string_end(t, n, i, &plain))
				return false;
			continue;
		}
		if (t[*i] == '{' || t[*i] == '[')
			depth++;
		else if (t[*i] == '}' || t[*i] == ']')
			depth--;
		else if (!depth && (t[*i] == ',' || t[*i] == ':'))
			return true;
		if (depth < 0)
			return true; /* the close of the enclosing one */
		(*i)++;
	} while (depth > 0 || (*i < n && !ends_value(t[*i])));
	return true;
}

static bool key_is(const char *t, size_t k, size_t end, const char *key)
{
	return end - k - 2 == strlen(key) && !memcmp(t + k + 1, key, end - k - 2);
}

/* A member's string value by place, or opaque when it is no plain string. */
static void member(struct pmc__lazy_entry *e, const char *t, size_t v, size_t end,
		   struct pmc__lazy_span *out)
{
	bool plain = t[v] == '"' && end - v >= 2 && !memchr(t + v + 1, '\\', end - v - 2);

	if (!plain) {
		e->opaque = true;
		return;
	}
	*out = (struct pmc__lazy_span){.off = v + 1, .len = end - v - 2, .set = true};
}

/* The object at t[*i]: its bytes, name and groups into e; *i past it. */
static int object(const char *t, size_t n, size_t *i, struct pmc__lazy_entry *e)
{
	bool plain;

	e->off = (*i)++;
	for (*i = ws(t, n, *i); *i < n && t[*i] != '}';) {
		size_t k = *i, kend, v;

		if (t[k] != '"' || !string_end(t, n, i, &plain))
			return -PMC_E_FORMAT;
		kend = *i;
		*i = ws(t, n, *i);
		if (*i >= n || t[*i] != ':')
			return -PMC_E_FORMAT;
		*i = v = ws(t, n, *i + 1);
		if (!value_end(t, n, i))
			return -PMC_E_FORMAT;
		if (!plain)
			e->opaque = true; /* a key with escapes may be any key */
		else if (key_is(t, k, kend, "MetricName"))
			member(e, t, v, *i, &e->name);
		else if (key_is(t, k, kend, "MetricGroup"))
			member(e, t, v, *i, &e->groups);
		*i = ws(t, n, *i);
		if (*i < n && t[*i] == ',')
			*i = ws(t, n, *i + 1);
		else if (*i < n && t[*i] != '}')
			return -PMC_E_FORMAT;
	}
	if (*i >= n)
		return -PMC_E_FORMAT;
	e->len = ++(*i) - e->off;
	return 0;
}

static int add_entry(struct pmc__lazy_file *f, const char *t, size_t n, size_t *i)
{
	struct pmc__lazy_entry *v = f->e;
	int ret;

	/* doubled: a realloc per entry left a trail of freed copies */
	if (PMC_ENSURE(f->e, f->cap, f->nr + 1))
		return -1;
	v = f->e + f->nr++;
	*v = (struct pmc__lazy_entry){0};
	if (t[*i] != '{') /* no object: the whole file's load says what is wrong */
		return -PMC_E_FORMAT;
	ret = object(t, n, i, v);
	return ret;
}

int pmc__lazy_scan(struct pmc__lazy_file *f)
{
	const char *t = f->text;
	size_t n = f->len, i = ws(t, n, 0);
	int ret = 0;

	if (i >= n || t[i] != '[')
		return -PMC_E_FORMAT;
	for (i = ws(t, n, i + 1); !ret && i < n && t[i] != ']';) {
		ret = add_entry(f, t, n, &i);
		i = ws(t, n, i);
		if (!ret && i < n && t[i] == ',')
			i = ws(t, n, i + 1);
		else if (!ret && (i >= n || t[i] != ']'))
			ret = -PMC_E_FORMAT;
	}
	if (!ret && (i >= n || ws(t, n, i + 1) != n))
		ret = -PMC_E_FORMAT;  /* no close, or something after it */
	if (!ret && f->nr < f->cap) { /* the doubling's spare room back (in place) */
		struct pmc__lazy_entry *v = realloc(f->e, (f->nr ? f->nr : 1) * sizeof(*v));

		if (v) {
			f->e = v;
			f->cap = f->nr ? f->nr : 1;
		}
	}
	return ret == -1 ? -ENOMEM : ret;
}

void pmc__lazy_free(struct pmc__lazy_file *f)
{
	free(f->e);
	free(f->text);
	free(f->path);
	*f = (struct pmc__lazy_file){0};
}
