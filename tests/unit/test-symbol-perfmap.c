// SPDX-License-Identifier: MIT
/* JIT symbol files (/tmp/perf-PID.map): their lines, overlaps, and lines that are not theirs. */
#include <criterion/criterion.h>
#include <string.h>
#include "symbol/perfmap.h"

static struct pmc__symtab *st;
static struct pmc__perfmap *pm;

static void setup(void)
{
	static const char text[] = "1000 40 first\n"
				   "0x1040 0X20 LazyCompile:*foo /app/x.js:1\n"
				   "1000 10 later over first\n"
				   "not a line\n"
				   "2000 0 zero size\n"
				   "ffffffffffffffff 10 wraps\n"
				   "3000 10\n"
				   "4000 10 no newline";

	cr_assert_eq(pmc__symtab_new(NULL, &st), 0);
	cr_assert_eq(pmc__perfmap_parse(st, text, sizeof(text) - 1, &pm), 0);
}

static void teardown(void)
{
	pmc__perfmap_free(pm);
	pmc__symtab_delete(st);
}

TestSuite(perfmap, .init = setup, .fini = teardown);

static const char *at(uint64_t addr)
{
	const char *name;
	uint64_t start, size;

	return pmc__perfmap_find(pm, addr, &name, &start, &size) ? NULL : name;
}

Test(perfmap, lines_and_overlaps)
{
	cr_expect_str_eq(at(0x1005), "later over first"); /* the later line wins */
	cr_expect_str_eq(at(0x1010), "first");		  /* past the later one's end */
	cr_expect_str_eq(at(0x103f), "first");
	cr_expect_str_eq(at(0x1040), "LazyCompile:*foo /app/x.js:1");
	cr_expect_str_eq(at(0x4009), "no newline");
}

Test(perfmap, other_lines_skipped)
{
	cr_expect_null(at(0xfff));
	cr_expect_null(at(0x1060));
	cr_expect_null(at(0x2000));		   /* zero size */
	cr_expect_null(at(0xffffffffffffffffull)); /* would wrap */
	cr_expect_null(at(0x3000));		   /* no name */
}
