// SPDX-License-Identifier: MIT
/* Self-contained HTML pages: the page's frame around a JSON island and the inline script. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/html.h"
#include "data/html/assets.h"

/*
 * The JSON text with the three characters that could end the island or start markup
 * written as JSON escapes. Outside strings JSON never holds them, so only strings change,
 * and JSON.parse reads them back as they were.
 */
static void put_island(FILE *f, const char *json)
{
	for (const char *p = json; *p; p++) {
		switch (*p) {
		case '<':
			fputs("\\u003c", f);
			break;
		case '>':
			fputs("\\u003e", f);
			break;
		case '&':
			fputs("\\u0026", f);
			break;
		default:
			fputc(*p, f);
		}
	}
}

/* Text for an element's content: the title is pmc's own, but escaped all the same. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

int pmc__html_write(FILE *f, enum pmc__html_page page, const char *title, json_t *data)
{
	char *json = json_dumps(data, JSON_COMPACT | JSON_REAL_PRECISION(17));

	if (!json)
		return -ENOMEM;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<link rel=\"icon\" href=\"data:,\">\n<title>",
	      f);
	put_text(f, title);
	fputs("</title>\n<style>\n", f);
	fputs(pmc_html_page_css, f);
	fputs("</style></head>\n<body><div id=\"app\"></div>\n"
	      "<script type=\"application/json\" id=\"pmc-data\">",
	      f);
	put_island(f, json);
	fputs("</script>\n<script>\n", f);
	fputs(pmc_html_common_js, f);
	fputs(page == PMC__HTML_REPORT ? pmc_html_report_js : pmc_html_stat_js, f);
	fputs("</script></body></html>\n", f);
	free(json);
	return ferror(f) ? -EIO : 0;
}
