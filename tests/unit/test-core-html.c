// SPDX-License-Identifier: MIT
/*
 * The HTML pages' frame (lib/core/html.c): the data island holds each name with '<', '>' and
 * '&' escaped, so no name can end it, and the page names nothing outside itself.
 */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include "core/html.h"
#include "core/jsonstr.h"

/* The page written for a model holding one string, s. */
static char *page_of(const char *s)
{
	json_t *data = json_pack("{s:o}", "name", pmc__json_bytes(s));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	cr_assert_eq(pmc__html_write(f, PMC__HTML_REPORT, "t<i>&", data), 0);
	fclose(f);
	json_decref(data);
	return buf;
}

/* The island's text: between its opening tag and the first "</script>". */
static char *island(const char *page)
{
	const char *open = "<script type=\"application/json\" id=\"pmc-data\">";
	const char *a = strstr(page, open), *b;

	cr_assert_not_null(a);
	a += strlen(open);
	b = strstr(a, "</script>");
	cr_assert_not_null(b);
	return strndup(a, (size_t)(b - a));
}

static const struct {
	const char *name, *island;
} rows[] = {
	{"hot", "{\"name\":\"hot\"}"},
	{"</script><i id=x>", "{\"name\":\"\\u003c/script\\u003e\\u003ci id=x\\u003e\"}"},
	{"<!--", "{\"name\":\"\\u003c!--\"}"},
	{"a&amp;b", "{\"name\":\"a\\u0026amp;b\"}"},
	/* A backslash is \x5c in pmc's JSON strings (docs/versioning.md, "Strings"). */
	{"q\"\\", "{\"name\":\"q\\\"\\\\x5c\"}"},
	{"\xff<", "{\"name\":\"\\\\xff\\u003c\"}"},
};

Test(html, island_escapes_every_name)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *page = page_of(rows[i].name), *is = island(page);
		json_error_t err;
		json_t *back = json_loads(is, 0, &err);
		cr_expect_str_eq(is, rows[i].island, "row %zu", i);
		/* JSON.parse (here jansson) reads the escaped name back as the model held it. */
		cr_assert_not_null(back, "row %zu: %s", i, err.text);
		json_t *want = pmc__json_bytes(rows[i].name);
		cr_expect_str_eq(json_string_value(json_object_get(back, "name")),
				 json_string_value(want), "row %zu", i);
		json_decref(want);
		json_decref(back);
		free(is);
		free(page);
	}
}

Test(html, page_is_self_contained)
{
	char *page = page_of("x");

	cr_expect_not_null(strstr(page, "<title>t&lt;i&gt;&amp;</title>"), "title escaped");
	cr_expect_not_null(strstr(page, "content=\"default-src 'none'; "), "a policy that "
									   "fetches nothing");
	cr_expect_null(strstr(page, " src="), "no script or image from elsewhere");
	cr_expect_null(strstr(page, "stylesheet"), "no style sheet from elsewhere");
	cr_expect_null(strstr(page, "https:"), "no address");
	/* Two script elements end before the body does: the island, then the page's script. */
	cr_expect_not_null(strstr(strstr(strstr(page, "</script>") + 1, "</script>"), "</body>"));
	free(page);
}
