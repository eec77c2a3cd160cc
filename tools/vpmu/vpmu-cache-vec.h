/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Cache-set lookups with the host's AVX2 vectors, for sets of 4, 8 and 16 ways.  The set is
 * compared with the wanted tag four ways at a time, the matching way found from the compare
 * mask, and the move to front done as a blend of the set with itself shifted by one way.  The
 * scalar scan (vpmu-cache-set.c) leaves its loop at a way the host cannot predict, which costs a
 * misprediction on most lookups past the first way; this code has no branch on the way.
 * The functions change the sets exactly as the scalar scan does (tests/vpmu runs the golden
 * counts both ways).
 *
 * Inline in the data helpers that vpmu-cache.c compiles for AVX2 (8-way sets), and behind
 * the function pointers of vpmu-cache-set.c everywhere else.  Only code compiled for AVX2
 * (VP_AVX2) may call them. */
#ifndef VPMU_CACHE_VEC_H
#define VPMU_CACHE_VEC_H

#include "vpmu-cache.h"

#define VP_AVX2 __attribute__((target("avx2")))

typedef ULong v4u __attribute__((vector_size(32)));
typedef Long v4s __attribute__((vector_size(32)));
typedef double v4d __attribute__((vector_size(32)));

static inline __attribute__((always_inline)) VP_AVX2 v4u splat(ULong x)
{
	return (v4u){x, x, x, x};
}

/* The lookup of a set of 4 * chunks ways (chunks a constant 1, 2 or 4). */
static inline __attribute__((always_inline)) VP_AVX2 Int lookup_chunks(struct vp_cache *c,
								       ULong *set, ULong line,
								       ULong dirty, Bool alloc,
								       ULong *victim,
								       const UInt chunks)
{
	v4u v[4], want = splat(line << 1 | 1);
	UInt m = 0, k, i;
	Bool hit;
	ULong cur;

#pragma GCC unroll 4
	for (k = 0; k < chunks; k++) {
		v[k] = ((const v4u *)set)[k];
		m |= (UInt)__builtin_ia32_movmskpd256((v4d)((v[k] | splat(1)) == want)) << (4 * k);
	}
	/* The matching way, or on a miss the last (least recently used) one. */
	i = __builtin_ctz(m | 1u << (4 * chunks - 1));
	hit = m != 0;
	if (!hit && !alloc)
		return VP_MISS;
	cur = set[i];
	*victim = hit ? ~0ULL : cur;
#pragma GCC unroll 4
	for (k = 0; k < chunks; k++) {
		/* Ways 4k..4k+3 shifted one down (way 0 takes the front below), kept where the way
		 * is at or before the matching one. */
		v4u down = k ? __builtin_shuffle(v[k - 1], v[k], (v4u){3, 4, 5, 6})
			     : __builtin_shuffle(v[0], (v4u){0, 0, 1, 2});
		v4s way = {4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3};
		v4u take = (v4u)(way <= (v4s){i, i, i, i});
		v4u out = (down & take) | (v[k] & ~take);

		if (!k)
			out[0] = (hit ? cur : line << 1) | dirty;
		((v4u *)set)[k] = out;
	}
	c->last = line;
	c->last_slot = set;
	return hit;
}

/* The lookup of an 8-way set, for the helpers that inline it (vpmu-cache.c). */
static inline VP_AVX2 Int vp_vec_lookup8(struct vp_cache *c, ULong *set, ULong line, ULong dirty,
					 Bool alloc, ULong *victim)
{
	return lookup_chunks(c, set, line, dirty, alloc, victim, 2);
}

#endif
