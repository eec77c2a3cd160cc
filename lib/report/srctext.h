/* SPDX-License-Identifier: MIT */
/*
 * The text of a source file that debug information names, for pmc annotate and the HTML
 * report's source-line heat. The file is untrusted (docs/security.md): only a regular file
 * of at most PMC__SRCTEXT_MAX_FILE bytes is read, and a line is cut at
 * PMC__SRCTEXT_MAX_COLS bytes.
 */
#ifndef PMC_LIB_REPORT_SRCTEXT_H
#define PMC_LIB_REPORT_SRCTEXT_H

#include <stddef.h>

#define PMC__SRCTEXT_MAX_FILE (8u << 20) /* larger source files are not read */
#define PMC__SRCTEXT_MAX_COLS 400	 /* bytes kept of a line */

struct pmc__srctext;

/*
 * Reads path whole. Returns 0 and the text in *out (free it with pmc__srctext_free()), or
 * -PMC_E_NOTREG (a FIFO, device or folder), -EFBIG (over the size cap), -ENOMEM or the
 * negative errno of the open or read.
 */
int pmc__srctext_load(const char *path, struct pmc__srctext **out);
/* The same from bytes in memory (copied): len bytes, any content (the fuzzed part). */
int pmc__srctext_parse(const char *bytes, size_t len, struct pmc__srctext **out);
/* Line number line (from 1), without its newline and cut at PMC__SRCTEXT_MAX_COLS; NULL past
 * the last line. */
const char *pmc__srctext_line(const struct pmc__srctext *t, int line);
/* Number of lines. */
int pmc__srctext_nr_lines(const struct pmc__srctext *t);
/* Why a load failed, for a note to the reader. */
const char *pmc__srctext_why(int err);
void pmc__srctext_free(struct pmc__srctext *t);

#endif /* PMC_LIB_REPORT_SRCTEXT_H */
