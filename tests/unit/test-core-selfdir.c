// SPDX-License-Identifier: MIT
/* Where libpmc's code lies: linked statically here, it is this program, in its real folder. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include "core/selfdir.h"

Test(selfdir, a_static_libpmc_is_the_program)
{
	char dir[PATH_MAX], exe[PATH_MAX];
	bool is_exe = false;

	cr_assert_not_null(realpath("/proc/self/exe", exe));
	cr_assert_eq(pmc__selfdir(dir, sizeof(dir), &is_exe), 0);
	cr_expect(is_exe, "a static libpmc is reported as a library");
	cr_expect_str_eq(dir, dirname(exe));
}

Test(selfdir, a_short_buffer_is_refused_and_left_empty)
{
	char dir[4] = "xyz";
	bool is_exe;

	cr_expect_eq(pmc__selfdir(dir, sizeof(dir), &is_exe), -ENAMETOOLONG);
	cr_expect_str_eq(dir, "");
}
