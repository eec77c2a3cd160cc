// SPDX-License-Identifier: MIT
/*
 * A parse's first error: where (the byte offset the CLI puts its caret under) and what was
 * found and expected. Every part of the parser says its faults here; this file calls none.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <pmc/error.h>
#include "event/parse.h"

/* The byte at offset for messages: "'x'", "byte 0x01" or "end of string". */
static const char *describe(const char *s, int offset, char *buf, size_t len)
{
	unsigned char c = s[offset];

	if (!c)
		snprintf(buf, len, "end of string");
	else if (isprint(c))
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

int pmc__parse_fail(struct pmc_parser *p, int code, int offset, const char *fmt, ...)
{
	va_list ap;

	if (p->err->msg[0])
		return code; /* the first error is the cause; keep it */
	p->err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	return code;
}

int pmc__parse_expected(struct pmc_parser *p, int offset, const char *what)
{
	char found[32];

	return pmc__parse_fail(p, -PMC_E_PARSE, offset, "unexpected %s, expected %s",
			       describe(p->str, offset, found, sizeof(found)), what);
}
