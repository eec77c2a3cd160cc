// SPDX-License-Identifier: MIT
/* JSON strings from bytes: valid UTF-8 kept, every other byte escaped as \xHH, none dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <pmc/bytes.h>
#include "core/jsonstr.h"

static void expect_json(const char *in, const char *want)
{
	json_t *j = pmc__json_bytes(in);

	cr_assert_not_null(j, "no JSON string for '%s'", in);
	cr_expect_str_eq(json_string_value(j), want);
	json_decref(j);
}

Test(jsonstr, valid_utf8_is_kept)
{
	expect_json("", "");
	expect_json("loop", "loop");
	expect_json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	expect_json("a\"\n", "a\"\n");
}

/*
 * A backslash is \x5c: the byte 0xff and the text \xff encoded alike, and pmc merge then
 * took two regions of pmc's own file for one region written twice.
 */
Test(jsonstr, encoding_is_injective_and_decodes_back)
{
	expect_json("a\\x41", "a\\x5cx41");
	expect_json("\\", "\\x5c");
	expect_json("\\xff", "\\x5cxff");
	expect_json("\xff", "\\xff");

	char s[64], *back;
	unsigned seed = 7;
	const char alphabet[] = "\\x5cf0\xff\xc3\xa9"
				"a";

	for (int round = 0; round < 5000; round++) {
		json_t *j;
		size_t n = (size_t)(rand_r(&seed) % 16);

		for (size_t i = 0; i < n; i++)
			s[i] = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
		s[n] = 0;
		j = pmc__json_bytes(s);
		cr_assert_not_null(j);
		back = strdup(json_string_value(j));
		pmc__json_unbytes(back);
		cr_expect_str_eq(back, s, "round %d: decoded back differs", round);
		free(back);
		json_decref(j);
	}
}

Test(jsonstr, other_bytes_are_escaped)
{
	expect_json("\xff", "\\xff");
	expect_json("r\xe9gion", "r\\xe9gion");			 /* Latin-1 */
	expect_json("\xc0\xaf", "\\xc0\\xaf");			 /* overlong '/' */
	expect_json("\xed\xa0\x80", "\\xed\\xa0\\x80");		 /* a UTF-16 surrogate */
	expect_json("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* past U+10FFFF */
	expect_json("\xe2\x82", "\\xe2\\x82");			 /* cut short */
	expect_json("ok\xe2\x82\xacok\x80", "ok\xe2\x82\xacok\\x80");
}

Test(jsonstr, null_is_json_null)
{
	json_t *j = pmc__json_bytes(NULL);

	cr_expect(json_is_null(j));
	json_decref(j);
}

Test(jsonstr, every_byte_string_dumps_as_valid_json)
{
	char s[64];
	unsigned seed = 1;

	for (int round = 0; round < 2000; round++) {
		json_t *j, *back;
		char *text;
		size_t n = (size_t)(rand_r(&seed) % 63);

		for (size_t i = 0; i < n; i++)
			s[i] = (char)(rand_r(&seed) % 255 + 1);
		s[n] = 0;
		j = json_pack("{s:o}", "name", pmc__json_bytes(s));
		cr_assert_not_null(j, "round %d: the string was dropped", round);
		text = json_dumps(j, 0);
		back = json_loads(text, 0, NULL);
		cr_assert_not_null(back, "round %d: %s does not parse", round, text);
		free(text);
		json_decref(back);
		json_decref(j);
	}
}

static void expect_printable(const char *in, const char *want)
{
	char *p = pmc_printable(in);

	cr_assert_not_null(p);
	cr_expect_str_eq(p, want);
	free(p);
}

Test(printable, text_and_utf8_are_kept)
{
	expect_printable("", "");
	expect_printable(NULL, "");
	expect_printable("loop 'a' \"b\" %20", "loop 'a' \"b\" %20");
	expect_printable("caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac");
	expect_printable("\xc2\xa0nbsp", "\xc2\xa0nbsp"); /* U+00A0 is not a control */
}

Test(printable, controls_and_other_bytes_are_escaped)
{
	expect_printable("\x1b[31mred", "\\x1b[31mred");
	expect_printable("a\nb\tc\rd\x7f", "a\\x0ab\\x09c\\x0dd\\x7f");
	expect_printable("\xc2\x9b"
			 "2J",
			 "\\xc2\\x9b2J"); /* CSI as a C1 control */
	expect_printable("r\xe9gion", "r\\xe9gion");
}

Test(printable, fput_writes_the_same)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	cr_expect_eq(pmc_fput_printable(f, "x\x01y"), 0);
	fclose(f);
	cr_expect_str_eq(buf, "x\\x01y");
	free(buf);
}
