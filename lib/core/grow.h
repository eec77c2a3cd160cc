/* SPDX-License-Identifier: MIT */
/* Growing an array by doubling, its size checked for overflow (grow.c), as libbpf's
 * libbpf_ensure_mem(). */
#ifndef PMC_LIB_CORE_GROW_H
#define PMC_LIB_CORE_GROW_H

#include <stddef.h>

/*
 * Makes *data, an array of *cap elements of elem_size bytes (NULL and 0 at first), hold at
 * least need elements: when need > *cap, *data is reallocated to the larger of need, twice
 * *cap and 16 elements, the elements past the old *cap zeroed, and *cap set. Returns 0, or
 * -ENOMEM when the memory cannot be had or the size overflows size_t (-EINVAL for an
 * elem_size of 0); *data and *cap are left as they were then. The array is the caller's, to free().
 */
int pmc__ensure_mem(void **data, size_t *cap, size_t elem_size, size_t need);

/* pmc__ensure_mem() for an array pointer arr of any type (an lvalue, set when it moved), its
 * capacity cap a size_t lvalue. */
#define PMC_ENSURE(arr, cap, need)                                                             \
	({                                                                                     \
		void *ensure_p_ = (arr);                                                       \
		int ensure_err_ = pmc__ensure_mem(&ensure_p_, &(cap), sizeof(*(arr)), (need)); \
		(arr) = ensure_p_;                                                             \
		ensure_err_;                                                                   \
	})

#endif /* PMC_LIB_CORE_GROW_H */
