/* SPDX-License-Identifier: MIT */
/* Self-contained HTML pages: the report's and pmc stat's pictures (docs/report.md, "HTML"). */
#ifndef PMC_LIB_CORE_HTML_H
#define PMC_LIB_CORE_HTML_H

#include <stdio.h>
#include <jansson.h>

enum pmc__html_page {
	PMC__HTML_REPORT, /* flame graphs, top table, source heat, data views */
	PMC__HTML_STAT,	  /* intervals as error bars, repetitions as dots, regions */
};

/*
 * Writes one HTML page to f: its style and script inline (data/html/), data (not consumed)
 * as a JSON island the script reads, and a Content-Security-Policy that lets the page fetch
 * nothing. Every string reaches the page as JSON with '<', '>' and '&' written as \uXXXX
 * escapes, and the script puts names into the page only as text, never as markup, so no
 * name can end the island or add an element. Returns 0, -ENOMEM or -EIO.
 */
int pmc__html_write(FILE *f, enum pmc__html_page page, const char *title, json_t *data);

#endif /* PMC_LIB_CORE_HTML_H */
