// SPDX-License-Identifier: MIT
/*
 * A JSON scanner for pmc merge's reader (docs/mpi.md, "Reading fast"): it walks a document
 * in place, checking it as strictly as jansson does (RFC 8259's grammar, UTF-8, no \u0000,
 * nesting at most JSCAN_MAX_DEPTH deep), and decodes only the strings and numbers its caller
 * asks for. A rank's file is mostly what merge does not need (per-repetition arrays,
 * indentation); building jansson's tree of it was nearly all of merge's time.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "core/grow.h"
#include "merge/scan.h"

static void ws(struct jscan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
		s->p++;
}

int pmc__jscan_peek(struct jscan *s)
{
	ws(s);
	return s->p < s->end ? (unsigned char)*s->p : -1;
}

static int expect(struct jscan *s, char c)
{
	if (pmc__jscan_peek(s) != (unsigned char)c)
		return -1;
	s->p++;
	return 0;
}

/* The length of the UTF-8 sequence at p (a lead byte of 0x80 or above), 0 when invalid. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0];
	size_t n = c >= 0xc2 && c <= 0xdf   ? 2
		   : c >= 0xe0 && c <= 0xef ? 3
		   : c >= 0xf0 && c <= 0xf4 ? 4
					    : 0;

	if (!n || (size_t)(end - p) < n)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	/* No overlong forms, no surrogates, nothing above U+10FFFF. */
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
	    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
		return 0;
	return n;
}

static int hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
						    : 16;
		if (d == 16)
			return -1;
		*v = *v << 4 | d;
	}
	return 0;
}

static int put(struct jstr *o, const char *b, size_t n)
{
	if (!o)
		return 0;
	if (n >= SIZE_MAX - o->len || PMC_ENSURE(o->s, o->cap, o->len + n + 1))
		return -ENOMEM;
	memcpy(o->s + o->len, b, n);
	o->len += n;
	o->s[o->len] = 0;
	return 0;
}

/* An escape at p (after the backslash) into out; p moves past it. */
static int escape(struct jscan *s, const char **pp, struct jstr *out)
{
	const char *p = *pp;
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e = p < s->end ? memchr(from, *p, sizeof(from) - 1) : NULL;
	unsigned u, lo;
	char b[4];
	size_t n;

	if (e && *p) {
		*pp = p + 1;
		return put(out, &to[e - from], 1);
	}
	if (p >= s->end || *p != 'u' || s->end - p < 5 || hex4(p + 1, &u))
		return -1;
	p += 5;
	if (u >= 0xd800 && u <= 0xdbff) { /* a surrogate pair */
		if (s->end - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, &lo) ||
		    lo < 0xdc00 || lo > 0xdfff)
			return -1;
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		p += 6;
	} else if ((u >= 0xdc00 && u <= 0xdfff) || !u) {
		return -1; /* a lone low surrogate, or NUL (jansson refuses it too) */
	}
	if (u < 0x80) {
		b[0] = (char)u, n = 1;
	} else if (u < 0x800) {
		b[0] = (char)(0xc0 | u >> 6), b[1] = (char)(0x80 | (u & 0x3f)), n = 2;
	} else if (u < 0x10000) {
		b[0] = (char)(0xe0 | u >> 12), b[1] = (char)(0x80 | ((u >> 6) & 0x3f));
		b[2] = (char)(0x80 | (u & 0x3f)), n = 3;
	} else {
		b[0] = (char)(0xf0 | u >> 18), b[1] = (char)(0x80 | ((u >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((u >> 6) & 0x3f)), b[3] = (char)(0x80 | (u & 0x3f)), n = 4;
	}
	*pp = p;
	return put(out, b, n);
}

int pmc__jscan_string(struct jscan *s, struct jstr *out)
{
	const char *p, *run;
	int err;

	if (expect(s, '"'))
		return -1;
	if (out)
		out->len = 0;
	for (p = run = s->p;;) {
		unsigned char c;

		/* The common case: printable ASCII, copied in runs. */
		while (p < s->end && (c = (unsigned char)*p) >= 0x20 && c < 0x80 && c != '"' &&
		       c != '\\')
			p++;
		if (p >= s->end)
			return -1;
		c = (unsigned char)*p;
		if (c < 0x20)
			return -1;
		if ((err = put(out, run, (size_t)(p - run))))
			return err;
		if (c == '"')
			break;
		if (c == '\\') {
			p++;
			if ((err = escape(s, &p, out)))
				return err;
		} else {
			size_t n =
				utf8_len((const unsigned char *)p, (const unsigned char *)s->end);

			if (!n || (err = put(out, p, n)))
				return n ? err : -1;
			p += n;
		}
		run = p;
	}
	if (out && !out->s && (err = put(out, "", 0)))
		return err;
	s->p = p + 1;
	return 0;
}

/* Past a number's token, checked against the grammar; *start and *len give its text. */
static int number_token(struct jscan *s, const char **start, size_t *len)
{
	const char *p = s->p, *e = s->end;

	*start = p;
	if (p < e && *p == '-')
		p++;
	if (p < e && *p == '0') {
		p++;
	} else if (p < e && *p >= '1' && *p <= '9') {
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	} else {
		return -1;
	}
	if (p < e && *p == '.') {
		if (++p >= e || *p < '0' || *p > '9')
			return -1;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < e && (*p == '+' || *p == '-'))
			p++;
		if (p >= e || *p < '0' || *p > '9')
			return -1;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	}
	*len = (size_t)(p - *start);
	s->p = p;
	return 0;
}

int pmc__jscan_number(struct jscan *s, double *v)
{
	const char *t;
	char small[64], *buf = small, *end, *dot;
	const char *point = localeconv()->decimal_point;
	size_t n;

	if (pmc__jscan_peek(s) < 0 || number_token(s, &t, &n))
		return -1;
	if (n >= sizeof(small) && !(buf = malloc(n + 1)))
		return -ENOMEM;
	memcpy(buf, t, n);
	buf[n] = 0;
	/* strtod reads the locale's decimal point; JSON's is '.' (jansson does the same). */
	if (point && point[0] && point[0] != '.' && !point[1] && (dot = strchr(buf, '.')))
		*dot = point[0];
	*v = strtod(buf, &end);
	n = (size_t)(end - buf) == n;
	if (buf != small)
		free(buf);
	return n && isfinite(*v) ? 0 : -1; /* jansson refuses a real that overflows, too */
}

static int literal(struct jscan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n))
		return -1;
	s->p += n;
	return 0;
}

int pmc__jscan_enter(struct jscan *s, char open)
{
	if (expect(s, open) || ++s->depth > JSCAN_MAX_DEPTH)
		return -1;
	return 0;
}

/* Past the ',' between members or elements, or the closing bracket (then 0). */
static int next(struct jscan *s, bool *first, char close)
{
	int c = pmc__jscan_peek(s);

	if (c == close) {
		s->p++;
		s->depth--;
		return 0;
	}
	if (!*first && (c != ',' || (s->p++, pmc__jscan_peek(s) < 0)))
		return -1;
	*first = false;
	return 1;
}

int pmc__jscan_key(struct jscan *s, bool *first, struct jstr *key)
{
	int k = next(s, first, '}'), err;

	if (k != 1)
		return k;
	if ((err = pmc__jscan_string(s, key)) || (err = expect(s, ':')))
		return err;
	return 1;
}

int pmc__jscan_next(struct jscan *s, bool *first)
{
	return next(s, first, ']');
}

int pmc__jscan_skip(struct jscan *s)
{
	const char *t;
	size_t n;
	bool first = true;
	int c = pmc__jscan_peek(s), k;

	switch (c) {
	case '"':
		return pmc__jscan_string(s, NULL);
	case '{':
	case '[':
		if (pmc__jscan_enter(s, (char)c))
			return -1;
		if (c == '{') {
			while ((k = pmc__jscan_key(s, &first, NULL)) == 1)
				if ((k = pmc__jscan_skip(s)))
					return k;
		} else {
			while ((k = pmc__jscan_next(s, &first)) == 1)
				if ((k = pmc__jscan_skip(s)))
					return k;
		}
		return k;
	case 't':
		return literal(s, "true");
	case 'f':
		return literal(s, "false");
	case 'n':
		return literal(s, "null");
	default:
		return number_token(s, &t, &n);
	}
}

int pmc__jscan_end(struct jscan *s)
{
	return pmc__jscan_peek(s) < 0 ? 0 : -1;
}
