/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host-vector lookups (vpmu-cache-vec.h) as functions, for the code that is not compiled
 * for AVX2, and their choice at start-up. */
#include "pub_tool_machine.h"
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

vp_lookup_fn vp_vector_lookup(UInt ways)
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
