/* SPDX-License-Identifier: MIT */
/* Names as fields of line formats: one writer for CSV, one for the space-separated formats. */
#ifndef PMC_LIB_CORE_FIELD_H
#define PMC_LIB_CORE_FIELD_H

#include <stdio.h>

/*
 * Writes s as one quoted CSV field (RFC 4180): quotes doubled, commas and other bytes kept as
 * they are inside the quotes, so a name never splits a row; control characters (C0, DEL, C1)
 * as \xHH, as on a terminal (pmc_printable), so no escape sequence reaches one. NULL is "".
 */
void pmc__csv_field(FILE *f, const char *s);

/*
 * Writes s as one CSV field of a line whose fields are separated by sep (perf stat's -x, the
 * metrics' and validation's CSV): as it is, unless it holds sep, a quote or a line break, then
 * quoted with quotes doubled (RFC 4180).
 */
void pmc__csv_field_sep(FILE *f, const char *s, const char *sep);

/*
 * Writes s as one field of a space-separated line format (the region records, the text
 * results file): a space, a control character, '%', DEL and every byte past ASCII as %XX
 * (two upper-case hex digits), so the field has no space and the line no break.
 */
void pmc__pct_field(FILE *f, const char *s);

#endif /* PMC_LIB_CORE_FIELD_H */
