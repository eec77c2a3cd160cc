/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One cache's (or TLB's) array of sets: its allocation and geometry, and its lookups past the
 * most recently used way, the scalar scan and the host-vector lookups (vpmu-cache-vec.h) as
 * functions for the code that is not compiled for AVX2.  The hierarchy of caches and the
 * access paths are in vpmu-cache.c. */
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "vpmu-cache-vec.h"

static __attribute__((noinline)) VP_AVX2 Int lookup4(struct vp_cache *c, ULong *set, ULong line,
						     ULong dirty, Bool alloc, ULong *victim)
{
	return lookup_chunks(c, set, line, dirty, alloc, victim, 1);
}

static __attribute__((noinline)) VP_AVX2 Int lookup8(struct vp_cache *c, ULong *set, ULong line,
						     ULong dirty, Bool alloc, ULong *victim)
{
	return lookup_chunks(c, set, line, dirty, alloc, victim, 2);
}

static __attribute__((noinline)) VP_AVX2 Int lookup16(struct vp_cache *c, ULong *set, ULong line,
						      ULong dirty, Bool alloc, ULong *victim)
{
	return lookup_chunks(c, set, line, dirty, alloc, victim, 4);
}

/* The host-vector lookup for sets of `ways` ways, or NULL where there is none (another number
 * of ways, or a host without AVX2). */
static vp_lookup_fn vector_lookup(UInt ways)
{
	VexArch arch;
	VexArchInfo info;

	VG_(machine_get_VexArchInfo)(&arch, &info);
	if (!(info.hwcaps & VEX_HWCAPS_AMD64_AVX2))
		return NULL;
	switch (ways) {
	case 4:
		return lookup4;
	case 8:
		return lookup8;
	case 16:
		return lookup16;
	default:
		return NULL;
	}
}

/* Zeroed memory that starts on a host cache line (never freed: the models live as long as the
 * tool), so that no set of ways of 64 bytes or less straddles two lines: an 8-way set is one
 * host line, and a scan past its first way reads no second one.  Taken from a static pool
 * while it lasts: the tool's own data lies below 2 GiB, where the code VEX generates for an
 * inline check adds a set's offset to the array as a 32-bit displacement, instead of loading a
 * 64-bit address into a register and adding it.  An array larger than what is left goes to
 * the heap and the next ones still try the pool: with the Nehalem geometry all but the LLC's
 * megabyte of tags fit, the first levels, the TLBs, the BTB and the PHT included. */
void *vp_alloc_lines(const HChar *cc, SizeT bytes)
{
	static UChar pool[512 << 10] __attribute__((aligned(64)));
	static SizeT used;
	SizeT n = VG_ROUNDUP(bytes, 64);
	void *p;

	if (n > sizeof(pool) - used)
		return (void *)VG_ROUNDUP((Addr)VG_(calloc)(cc, bytes + 64, 1), 64);
	p = pool + used;
	used += n;
	return p;
}

static UInt log2_exact(UInt v, const HChar *what)
{
	UInt s = 0;

	while (s < 31 && (1u << s) < v)
		s++;
	if ((1u << s) != v) {
		vp_umsg("vpmu: %s: %u is not a power of two\n", what, v);
		VG_(exit)(1);
	}
	return s;
}

void vp_cache_init(struct vp_cache *c, const HChar *name, const struct vp_cache_geom *g,
		   Bool is_tlb)
{
	UInt entries, i, sets;

	c->latency = g->latency;
	c->line_shift = log2_exact(g->line_bytes, name); /* before dividing by it: 0 exits */
	entries = is_tlb ? g->size_bytes : g->size_bytes / g->line_bytes;
	c->ways = g->ways ? g->ways : entries;
	if (entries == 0 || entries % c->ways) {
		vp_umsg("vpmu: %s: %u entries cannot be split into %u ways\n", name, entries,
			c->ways);
		VG_(exit)(1);
	}
	sets = entries / c->ways;
	log2_exact(sets, name);
	c->set_mask = sets - 1;
	c->tags = vp_alloc_lines("vpmu.cache", sizeof(ULong) * entries);
	for (i = 0; i < entries; i++)
		c->tags[i] = ~0ULL;
	c->last = ~0ULL;
	c->last_slot = NULL;
	c->lookup = vp_clo.host_vector ? vector_lookup(c->ways) : NULL;
}

/* The scalar lookup past the most-recently-used way (cache_access() in vpmu-cache.c checks
 * that one): the scan with move-to-front, and the miss.  Out of line so that the common MRU
 * hit stays small.  The scan moves each way it passes down one as it goes, so that a hit or a
 * miss ends one loop: where the line is cannot be predicted, and a separate shift loop cost a
 * second mispredicted exit. */
__attribute__((noinline)) Int vp_cache_scan(struct vp_cache *c, ULong *set, ULong line, ULong dirty,
					    Bool alloc, ULong *victim)
{
	ULong want = (line << 1) | 1, prev, cur;
	UInt i;

	if (!alloc) { /* a miss must leave the set as it was */
		for (i = 1; i < c->ways; i++)
			if ((set[i] | 1) == want)
				break;
		if (i == c->ways)
			return VP_MISS;
	}
	prev = set[0];
	for (i = 1; i < c->ways; i++) {
		cur = set[i];
		set[i] = prev;
		if ((cur | 1) == want) {
			set[0] = cur | dirty;
			c->last = line;
			c->last_slot = set;
			return VP_HIT;
		}
		prev = cur;
	}
	*victim = prev;
	set[0] = (want ^ 1) | dirty;
	c->last = line;
	c->last_slot = set;
	return VP_MISS;
}
