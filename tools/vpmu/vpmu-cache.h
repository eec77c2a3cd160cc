/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cache model's set array: set up and looked up in vpmu-cache-set.c (and inline, with
 * the host's vectors, in vpmu-cache-vec.h), used by the hierarchy in vpmu-cache.c. */
#ifndef VPMU_CACHE_H
#define VPMU_CACHE_H

#include "vpmu.h"

enum { VP_MISS, VP_HIT };

struct vp_cache;

/* Looks line up in set (the set's first tag, on a host line): on a hit, moves it to the front
 * (or-ing dirty into its tag); on a miss with alloc, inserts it at the front and returns the
 * tag pushed out of the last way in *victim; a miss without alloc changes nothing.  Either
 * way leaves c->last and c->last_slot describing the set's new front.  *victim is ~0 when
 * nothing was pushed out. */
typedef Int (*vp_lookup_fn)(struct vp_cache *c, ULong *set, ULong line, ULong dirty, Bool alloc,
			    ULong *victim);

/* A cache (or TLB) of sets * ways entries; each set lists its tags most recently used first.
 * A tag is the line number shifted left by one, with the dirty bit in bit 0; ~0 is empty.
 * `last` is the line of the most recent access that left its line most recently used in its
 * set (a hit, or an allocating miss): a repeat access to it is a hit that changes no order,
 * so the helpers answer it without touching the tag array.  A non-allocating miss changes no
 * set, so it leaves `last` valid. */
struct vp_cache {
	ULong *tags;
	ULong last;	  /* ~0: none */
	ULong *last_slot; /* &set[0] of last's set */
	ULong set_mask;
	struct vp_cache *below; /* the level a miss goes on to, NULL for TLBs and the last */
	vp_lookup_fn lookup;	/* the host-vector lookup of this geometry, NULL: scalar */
	UInt ways, line_shift;
	UInt latency;	     /* load-to-use cycles when this level serves the access */
	Bool prefetch_below; /* start loading below's set when this level's MRU way misses */
} __attribute__((aligned(64)));

/* vpmu-cache-set.c: sets up c for geometry g (entries of g->line_bytes, or of one page for a
 * TLB), choosing its host-vector lookup when there is one; exits with the reason when the
 * geometry is not a power of two or cannot be split into its ways. */
void vp_cache_init(struct vp_cache *c, const HChar *name, const struct vp_cache_geom *g,
		   Bool is_tlb);
/* The scalar lookup past the most recently used way, with vp_lookup_fn's contract. */
Int vp_cache_scan(struct vp_cache *c, ULong *set, ULong line, ULong dirty, Bool alloc,
		  ULong *victim);

#endif
