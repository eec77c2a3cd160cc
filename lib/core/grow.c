// SPDX-License-Identifier: MIT
/* Growing an array by doubling (grow.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

#define GROW_MIN 16

int pmc__ensure_mem(void **data, size_t *cap, size_t elem_size, size_t need)
{
	size_t n = *cap, bytes;
	void *p;

	if (need <= n)
		return 0;
	n = n > SIZE_MAX / 2 ? need : 2 * n;
	if (n < need)
		n = need;
	if (n < GROW_MIN)
		n = GROW_MIN;
	if (!elem_size)
		return -EINVAL;
	if (__builtin_mul_overflow(n, elem_size, &bytes))
		return -ENOMEM;
	p = realloc(*data, bytes);
	if (!p)
		return -ENOMEM;
	memset((char *)p + *cap * elem_size, 0, bytes - *cap * elem_size);
	*data = p;
	*cap = n;
	return 0;
}
