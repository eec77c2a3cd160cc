// SPDX-License-Identifier: MIT
/* Symbol names demangled as perf report shows them: C++ and both Rust schemes; others kept. */
#include <criterion/criterion.h>
#include "symbol/symbol.h"

static struct pmc__symtab *st[2]; /* [no_demangle] */

static void setup(void)
{
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pmc__symtab_new(&(struct pmc__symtab_opts){.no_demangle = i}, &st[i]),
			     0);
}

static void teardown(void)
{
	for (int i = 0; i < 2; i++)
		pmc__symtab_delete(st[i]);
}

static const char *shown(bool no_demangle, const char *name)
{
	const char *s = pmc__symtab_demangle(st[no_demangle], name);

	cr_assert_not_null(s);
	return s;
}

TestSuite(demangle, .init = setup, .fini = teardown);

Test(demangle, cxx_names_without_parameters)
{
	cr_expect_str_eq(shown(false, "_ZNK6shapes6Square4areaEv"), "shapes::Square::area");
	cr_expect_str_eq(shown(false, "_ZN6shapes5totalINS_6SquareEEEmm"),
			 "shapes::total<shapes::Square>");
	cr_expect_str_eq(shown(false, "_ZNSt6vectorIiSaIiEE9push_backERKi"),
			 "std::vector<int, std::allocator<int> >::push_back");
}

/* Rust's legacy scheme (Itanium-shaped, a 17h<hash>E suffix the name drops) and v0 (_R). */
Test(demangle, rust_names)
{
	cr_expect_str_eq(shown(false, "_ZN4core3fmt5write17h0123456789abcdefE"),
			 "core::fmt::write");
	cr_expect_str_eq(shown(false, "_RNvCs15kBYyAo9fc_7mycrate7example"), "mycrate::example");
}

Test(demangle, others_and_no_demangle_kept)
{
	cr_expect_str_eq(shown(false, "main"), "main");
	cr_expect_str_eq(shown(false, "_Zbogus"), "_Zbogus");
	cr_expect_str_eq(shown(false, "_start"), "_start");
	cr_expect_str_eq(shown(true, "_ZNK6shapes6Square4areaEv"), "_ZNK6shapes6Square4areaEv");
}

/* The same name twice is the same interned string (sort keys compare pointers). */
Test(demangle, interned)
{
	cr_expect_eq(shown(false, "_ZNK6shapes6Square4areaEv"),
		     shown(false, "_ZNK6shapes6Square4areaEv"));
}
