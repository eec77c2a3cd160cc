// SPDX-License-Identifier: MIT
/* Names as fields of line formats: CSV (RFC 4180), always quoted or where it must be, and
 * %XX-encoded words: the one writer of each. */
#include <stdbool.h>
#include <string.h>
#include "core/field.h"

void pmc__csv_field(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', f);
	for (; *p; p++) {
		/* Control bytes as the terminal's text shows them (pmc_printable): a CSV file
		 * is read on terminals too. C1 controls are U+0080 to U+009F, C2 80 to C2 9F. */
		bool c1 = p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0;

		if (*p < 0x20 || *p == 0x7f || c1) {
			fprintf(f, "\\x%02x", *p);
			if (c1)
				fprintf(f, "\\x%02x", *++p);
			continue;
		}
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

void pmc__csv_field_sep(FILE *f, const char *s, const char *sep)
{
	if (!strstr(s, sep) && !strpbrk(s, "\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
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
