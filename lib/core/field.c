// SPDX-License-Identifier: MIT
/* Names as fields of line formats: quoted CSV (RFC 4180) and %XX-encoded words. */
#include "core/field.h"

void pmc__csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void pmc__pct_field(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c >= 0x7f || c == '%')
			fprintf(f, "%%%02X", c);
		else
			fputc(c, f);
	}
}
