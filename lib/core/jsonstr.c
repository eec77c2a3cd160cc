// SPDX-License-Identifier: MIT
/*
 * Byte strings made safe, never dropped: in JSON (bytes that are not UTF-8, and backslashes,
 * as \xHH, decoded back by pmc__json_unbytes) and on a terminal (control characters too).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/bytes.h>
#include "core/jsonstr.h"

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 if the byte there starts none. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8 */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A C1 control (U+0080 to U+009F, two bytes C2 80 to C2 9F): some terminals act on it as
 * on ESC plus a letter.
 */
static bool is_c1(const unsigned char *s, size_t n)
{
	return n == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

/*
 * Writes s into out (room for 4 bytes per byte of s, plus one) with each byte that is not
 * part of valid UTF-8, and with printable, each control character too, as \xHH; returns the
 * length written, or 0 when nothing needed escaping (out untouched).
 */
static size_t escape(const unsigned char *p, bool printable, char *out)
{
	size_t len = 0;
	bool any = false;

	for (size_t i = 0, n; p[i]; i += n ? n : 1) {
		n = utf8_len(p + i);
		if (n && printable && (p[i] < 0x20 || p[i] == 0x7f || is_c1(p + i, n)))
			n = 0;
		/* In JSON a backslash is \x5c too, so that the text \xff and the byte 0xff
		 * differ: every \ in the string then starts an escape, and decoding is exact. */
		if (!printable && p[i] == '\\')
			n = 0;
		if (n) {
			if (out)
				memcpy(out + len, p + i, n);
			len += n;
		} else {
			any = true;
			if (out)
				sprintf(out + len, "\\x%02x", p[i]);
			len += 4;
		}
	}
	if (out)
		out[len] = 0;
	return any ? len + 1 : 0;
}

json_t *pmc__json_bytes(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *buf;
	json_t *j;

	if (!s)
		return json_null();
	if (!escape(p, false, NULL))
		return json_string(s);
	buf = malloc(strlen(s) * 4 + 1);
	if (!buf)
		return NULL;
	escape(p, false, buf);
	j = json_string(buf);
	free(buf);
	return j;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

void pmc__json_unbytes(char *s)
{
	char *w = s;

	for (; s && *s; s++) {
		int hi = s[0] == '\\' && s[1] == 'x' ? hex_digit(s[2]) : -1;
		int lo = hi >= 0 ? hex_digit(s[3]) : -1;

		if (lo >= 0 && (hi || lo)) {
			*w++ = (char)(hi << 4 | lo);
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	if (w)
		*w = 0;
}

char *pmc_printable(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char *buf = malloc(strlen((const char *)p) * 4 + 1);

	if (buf && !escape(p, true, buf))
		strcpy(buf, (const char *)p);
	return buf;
}

int pmc_fput_printable(FILE *f, const char *s)
{
	char *buf = pmc_printable(s);
	int err = buf && fputs(buf, f) != EOF ? 0 : -EIO;

	free(buf);
	return buf ? err : -ENOMEM;
}
