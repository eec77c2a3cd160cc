// SPDX-License-Identifier: MIT
/* pmc__ensure_mem(), the one growth of an array: doubling, at least what is needed, the new
 * elements zeroed, nothing moved when there is room, sizes that overflow refused. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <criterion/criterion.h>
#include "core/grow.h"

struct item {
	uint64_t a, b;
};

Test(core_grow, first_growth_at_least_16)
{
	struct item *v = NULL;
	size_t cap = 0;

	cr_assert_eq(PMC_ENSURE(v, cap, 1), 0);
	cr_assert_not_null(v);
	cr_assert_eq(cap, 16);
	for (size_t i = 0; i < cap; i++)
		cr_assert(v[i].a == 0 && v[i].b == 0, "element %zu not zeroed", i);
	free(v);
}

Test(core_grow, doubles_and_zeroes_the_new_part)
{
	struct item *v = NULL;
	size_t cap = 0;

	cr_assert_eq(PMC_ENSURE(v, cap, 16), 0);
	for (size_t i = 0; i < cap; i++)
		v[i].a = i + 1;
	cr_assert_eq(PMC_ENSURE(v, cap, 17), 0);
	cr_assert_eq(cap, 32);
	for (size_t i = 0; i < 16; i++)
		cr_assert_eq(v[i].a, i + 1, "element %zu lost", i);
	for (size_t i = 16; i < 32; i++)
		cr_assert(v[i].a == 0 && v[i].b == 0, "element %zu not zeroed", i);
	/* More than twice: exactly what is needed. */
	cr_assert_eq(PMC_ENSURE(v, cap, 100), 0);
	cr_assert_eq(cap, 100);
	free(v);
}

Test(core_grow, room_left_moves_nothing)
{
	struct item *v = NULL, *before;
	size_t cap = 0;

	cr_assert_eq(PMC_ENSURE(v, cap, 10), 0);
	before = v;
	cr_assert_eq(PMC_ENSURE(v, cap, 16), 0);
	cr_assert_eq(PMC_ENSURE(v, cap, 0), 0);
	cr_assert_eq(v, before);
	cr_assert_eq(cap, 16);
	free(v);
}

Test(core_grow, overflow_refused_and_array_kept)
{
	struct item *v = NULL, *before;
	size_t cap = 0;

	cr_assert_eq(PMC_ENSURE(v, cap, 4), 0);
	v[3].a = 7;
	before = v;
	/* need * elem_size overflows size_t. */
	cr_assert_eq(PMC_ENSURE(v, cap, SIZE_MAX / sizeof(*v) + 1), -ENOMEM);
	cr_assert_eq(v, before);
	cr_assert_eq(cap, 16);
	cr_assert_eq(v[3].a, 7);
	/* Twice a huge capacity would overflow: what is needed is asked for, and its size
	 * overflows too. */
	void *p = v;
	size_t huge = SIZE_MAX / 2 + 1;

	cr_assert_eq(pmc__ensure_mem(&p, &huge, 2, SIZE_MAX / 2 + 2), -ENOMEM);
	cr_assert_eq(p, v);
	cr_assert_eq(huge, SIZE_MAX / 2 + 1);
	free(v);
}

Test(core_grow, zero_element_size_refused)
{
	void *p = NULL;
	size_t cap = 0;

	cr_assert_eq(pmc__ensure_mem(&p, &cap, 0, 4), -EINVAL);
	cr_assert_null(p);
	cr_assert_eq(cap, 0);
}
