/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Set-associative LRU write-back caches (L1I, L1D, unified L2 and LLC) and TLBs, and the
 * load/store/instruction-fetch helpers that feed them and produce the memory signals.  One
 * cache's array of sets is set up and scanned in vpmu-cache-set.c. */
#include "pub_tool_libcbase.h"
#include "vpmu-cache-vec.h"
#include "vpmu-sample.h"

/* Everything the access path reads, together: a cache's fields fill one host line, and the
 * penalties share one.  The guest's data keeps evicting the tool's globals from the host's
 * caches, and each line the path reads is then a miss of its own. */
static struct {
	struct vp_cache l1d, dtlb, l2, l1i, itlb, llc;
	UInt mem_latency, tlb_penalty, split_penalty, store_miss_penalty;
	Bool write_allocate, have_llc;
} vc;

void vp_caches_init(void)
{
	vp_cache_init(&vc.l1i, "L1I", &vp_clo.l1i, False);
	vp_cache_init(&vc.l1d, "L1D", &vp_clo.l1d, False);
	vp_cache_init(&vc.l2, "L2", &vp_clo.l2, False);
	vc.have_llc = vp_clo.llc.size_bytes != 0;
	if (vc.have_llc)
		vp_cache_init(&vc.llc, "LLC", &vp_clo.llc, False);
	vp_cache_init(&vc.itlb, "ITLB", &vp_clo.itlb, True);
	vp_cache_init(&vc.dtlb, "DTLB", &vp_clo.dtlb, True);
	vc.l1i.below = vc.l1d.below = &vc.l2;
	vc.l2.below = vc.have_llc ? &vc.llc : NULL;
	/* Only the first levels prefetch: an L1 access past the MRU way misses often enough (a
	 * third of them on gzip) for the L2 set's load to pay, while an L2 access past its MRU
	 * way nearly always hits, and prefetching the LLC's megabyte of tags for it only evicted
	 * useful host lines (gzip 10 % slower). */
	vc.l1i.prefetch_below = vc.l1d.prefetch_below = True;
	vc.mem_latency = vp_clo.mem_latency;
	vc.tlb_penalty = vp_clo.tlb_penalty;
	vc.split_penalty = vp_clo.split_penalty;
	vc.store_miss_penalty = vp_clo.store_miss_penalty;
	vc.write_allocate = vp_clo.write_allocate;
}

static void tag_view(const struct vp_cache *c, struct vp_tag_view *v)
{
	v->tags = c->tags;
	v->set_mask = c->set_mask;
	v->ways = c->ways;
	v->line_shift = c->line_shift;
}

void vp_data_tags(struct vp_tag_view *l1, struct vp_tag_view *tlb)
{
	tag_view(&vc.l1d, l1);
	tag_view(&vc.dtlb, tlb);
}

void vp_fetch_tags(struct vp_tag_view *l1, struct vp_tag_view *tlb)
{
	tag_view(&vc.l1i, l1);
	tag_view(&vc.itlb, tlb);
}

/* Starts loading the set of `line` in the level below c, which a miss looks up next: the
 * lookup here takes a while, and host-cache misses on the larger tag arrays are a large part
 * of the cost. */
static inline void prefetch_below(const struct vp_cache *c, ULong line)
{
	const struct vp_cache *b = c->below;

	if (c->prefetch_below) /* b is NULL where there is no level below */
		__builtin_prefetch(b->tags +
				   (((line << c->line_shift) >> b->line_shift) & b->set_mask) *
					   b->ways);
}

/* Looks up line number `line`; on a miss, inserts it (if alloc) as most recently used and
 * returns the evicted tag (dirty bit included) in *victim, ~0 if none.  With a host-vector
 * lookup, every way is compared at once, the most recently used one included, so there is
 * no branch on where the line is to mispredict: inline where vec (the caller is compiled for
 * AVX2, see VP_DATA_HELPERS, and c has 8 ways), else through c->lookup. */
static inline __attribute__((always_inline)) Int
cache_access(struct vp_cache *c, ULong line, ULong dirty, Bool alloc, ULong *victim, Bool vec)
{
	ULong *set = c->tags + (line & c->set_mask) * c->ways;

	*victim = ~0ULL;
	if (vec || c->lookup) { /* vec implies c->lookup */
		/* Not where the lookup is inline: it ends too soon for the prefetch to help, and
		 * the prefetch's address took five loads (gzip 5-7 % faster without). */
		if (!vec)
			prefetch_below(c, line);
		return vec ? vp_vec_lookup8(c, set, line, dirty, alloc, victim)
			   : c->lookup(c, set, line, dirty, alloc, victim);
	}
	if (line == c->last) {
		*c->last_slot |= dirty;
		return VP_HIT;
	}
	if ((set[0] | 1) == ((line << 1) | 1)) {
		set[0] |= dirty;
		c->last = line;
		c->last_slot = set;
		return VP_HIT;
	}
	prefetch_below(c, line);
	return vp_cache_scan(c, set, line, dirty, alloc, victim);
}

/* Line size may differ between levels; lines are converted through byte addresses. */
static ULong line_of(const struct vp_cache *c, Addr a)
{
	return a >> c->line_shift;
}

static void llc_writeback(Addr a)
{
	ULong v;

	if (vc.have_llc)
		cache_access(&vc.llc, line_of(&vc.llc, a), 1, True, &v, False);
}

static void l2_writeback(Addr a)
{
	ULong v;

	if (cache_access(&vc.l2, line_of(&vc.l2, a), 1, True, &v, False) == VP_MISS && v != ~0ULL) {
		vp_sig[(v & 1) ? VP_SIG_L2_OUT_DIRTY : VP_SIG_L2_OUT_CLEAN]++;
		if (v & 1)
			llc_writeback((v >> 1) << vc.l2.line_shift);
	}
}

/* Serves a miss of the first level from L2, then the LLC, then memory; returns the latency
 * and the Table 5 data source.  kind: 0 load, 1 store (RFO), 2 instruction fetch.  vec: the
 * caller is compiled for AVX2, and an 8-way L2 set is looked up inline.  Only the first level
 * and this lookup are inline in the AVX2 helpers: inlining the write-backs' and the DTLB's
 * lookups too made gzip 6 % slower (a larger helper, for lookups that are rarely made). */
static inline __attribute__((always_inline)) UInt outer_access(Addr a, UInt kind, ULong *dsrc,
							       Bool vec)
{
	static const UInt hit_sig[3] = {VP_SIG_L2_LD_HIT, VP_SIG_L2_ST_HIT, VP_SIG_L2_IF_HIT};
	static const UInt miss_sig[3] = {VP_SIG_L2_LD_MISS, VP_SIG_L2_ST_MISS, VP_SIG_L2_IF_MISS};
	ULong v;

	vec = vec && vc.l2.ways == 8;
	if (cache_access(&vc.l2, line_of(&vc.l2, a), 0, True, &v, vec) == VP_HIT) {
		vp_sig[hit_sig[kind]]++;
		*dsrc = VPMU_DSRC_L2_HIT;
		return vc.l2.latency;
	}
	vp_sig[miss_sig[kind]]++;
	vp_sig[VP_SIG_L2_LINES_IN]++;
	if (v != ~0ULL) {
		vp_sig[(v & 1) ? VP_SIG_L2_OUT_DIRTY : VP_SIG_L2_OUT_CLEAN]++;
		if (v & 1)
			llc_writeback((v >> 1) << vc.l2.line_shift);
	}
	if (!vc.have_llc) {
		*dsrc = VPMU_DSRC_LOCAL_DRAM;
		return vc.mem_latency;
	}
	vp_sig[VP_SIG_LLC_REF]++;
	if (cache_access(&vc.llc, line_of(&vc.llc, a), 0, True, &v, False) == VP_HIT) {
		if (kind == 0)
			vp_sig[VP_SIG_LLC_LD_HIT]++;
		*dsrc = VPMU_DSRC_L3_HIT;
		return vc.llc.latency;
	}
	vp_sig[VP_SIG_LLC_MISS]++;
	if (kind == 0)
		vp_sig[VP_SIG_LLC_LD_MISS]++;
	*dsrc = VPMU_DSRC_LOCAL_DRAM;
	return vc.mem_latency;
}

/* One line of a data access; returns its latency. */
static inline __attribute__((always_inline)) UInt data_line(Addr a, Bool store, ULong *dsrc,
							    Bool vec)
{
	ULong v;
	Bool alloc = !store || vc.write_allocate;
	UInt lat;

	if (cache_access(&vc.l1d, line_of(&vc.l1d, a), store, alloc, &v, vec) == VP_HIT) {
		vp_sig[store ? VP_SIG_L1D_ST_HIT : VP_SIG_L1D_LD_HIT]++;
		*dsrc = VPMU_DSRC_L1_HIT;
		return vc.l1d.latency;
	}
	vp_sig[store ? VP_SIG_L1D_ST_MISS : VP_SIG_L1D_LD_MISS]++;
	if (alloc) {
		vp_sig[VP_SIG_L1D_REPL]++;
		if (v != ~0ULL && (v & 1)) {
			vp_sig[VP_SIG_L1D_WB]++;
			l2_writeback((v >> 1) << vc.l1d.line_shift);
		}
	}
	lat = outer_access(a, store ? 1 : 0, dsrc, vec);
	if (store && !alloc)
		l2_writeback(a); /* no-write-allocate: the write goes on to L2 */
	return lat;
}

static inline Bool tlb_miss(struct vp_cache *t, Addr a)
{
	ULong v;

	return cache_access(t, line_of(t, a), 0, True, &v, False) == VP_MISS;
}

static inline void classify(Addr a, ULong size, Bool store)
{
	Addr last = a + size - 1;
	UInt p5_shift = size >= 8 ? 3 : 2; /* shifts, not divisions: this runs on every access */

	if (size > 1 && (a & (size - 1)))
		vp_sig[store ? VP_SIG_MISALIGN_ST : VP_SIG_MISALIGN_LD]++;
	/* Pentium rule (thesis Appendix A): 2/4-byte accesses crossing 4 bytes, 8-byte crossing 8.
	 */
	if (size > 1 && (a >> p5_shift) != (last >> p5_shift))
		vp_sig[store ? VP_SIG_P5_MISALIGN_ST : VP_SIG_P5_MISALIGN_LD]++;
	if ((a >> vc.l1d.line_shift) != (last >> vc.l1d.line_shift))
		vp_sig[store ? VP_SIG_SPLIT_ST : VP_SIG_SPLIT_LD]++;
}

/* from_check: called for an access the inline check (vpmu-fastpath.c) did not answer: the
 * generated code counted the load or store, the model is on and no counter samples; page_mru:
 * that check found the page most recently used in its DTLB set (a hit that changes nothing,
 * as no other access came between). */
static inline __attribute__((always_inline)) void
data_access(Addr a, ULong size, Bool store, Addr imark, Bool from_check, Bool page_mru, Bool vec)
{
	struct vp_mem_info mi = {a, 0, VPMU_DSRC_UNKNOWN, True};
	Addr last = a + (size ? size : 1) - 1;
	UInt lat, stall;
	ULong d2;

	if (size == 0)
		size = 1;
	if (!from_check)
		vp_sig[store ? VP_SIG_STORE : VP_SIG_LOAD]++;
	classify(a, size, store);
	if (!from_check && !vp_need.dcache) {
		if (UNLIKELY(vp_watch))
			vp_overflow_check(imark, &mi, 0);
		return;
	}
	lat = data_line(a, store, &mi.data_src, vec);
	if ((a >> vc.l1d.line_shift) != (last >> vc.l1d.line_shift)) {
		UInt lat2 = data_line(last, store, &d2, vec);

		if (lat2 > lat) {
			lat = lat2;
			mi.data_src = d2;
		}
		lat += vc.split_penalty;
	}
	if (!page_mru && tlb_miss(&vc.dtlb, a)) {
		vp_sig[store ? VP_SIG_DTLB_ST_MISS : VP_SIG_DTLB_LD_MISS]++;
		lat += vc.tlb_penalty;
	}
	mi.latency = lat;
	stall = lat - vc.l1d.latency;
	if (store) {
		if (mi.data_src != VPMU_DSRC_L1_HIT)
			vp_sig[VP_SIG_STALL_STORE] += vc.store_miss_penalty;
	} else {
		vp_sig[VP_SIG_STALL_LOAD] += stall;
		if (lat > vp_clo.ld_lat)
			vp_sig[VP_SIG_LAT_ABOVE]++;
	}
	if (!from_check && UNLIKELY(vp_watch))
		vp_overflow_check(imark, &mi, 0);
}

/* The common access, answered without the model: within one line, to the line and page the
 * previous data access left most recently used (so L1D and DTLB hit and keep their order),
 * while no sampling counter watches.  Produces exactly the signals data_access would. */
static inline Bool data_fast(Addr a, ULong size, Bool store)
{
	ULong line = a >> vc.l1d.line_shift;
	UInt p5_shift = size >= 8 ? 3 : 2;
	Addr last = a + size - 1;

	if (UNLIKELY(line != vc.l1d.last || (last >> vc.l1d.line_shift) != line || size == 0 ||
		     (a >> vc.dtlb.line_shift) != vc.dtlb.last || vp_watch || !vp_need.dcache))
		return False;
	*vc.l1d.last_slot |= store;
	vp_sig[store ? VP_SIG_STORE : VP_SIG_LOAD]++;
	vp_sig[store ? VP_SIG_L1D_ST_HIT : VP_SIG_L1D_LD_HIT]++;
	if (size > 1) {
		if (a & (size - 1))
			vp_sig[store ? VP_SIG_MISALIGN_ST : VP_SIG_MISALIGN_LD]++;
		if ((a >> p5_shift) != (last >> p5_shift))
			vp_sig[store ? VP_SIG_P5_MISALIGN_ST : VP_SIG_P5_MISALIGN_LD]++;
	}
	if (!store && vc.l1d.latency > vp_clo.ld_lat)
		vp_sig[VP_SIG_LAT_ABOVE]++;
	return True;
}

/* Starts loading the DTLB set of a: it is looked up after L1D, and the two host loads then
 * overlap instead of waiting one after the other (the guest's data evicts both often). */
static inline void dtlb_prefetch(Addr a)
{
	__builtin_prefetch(vc.dtlb.tags +
			   ((a >> vc.dtlb.line_shift) & vc.dtlb.set_mask) * vc.dtlb.ways);
}

VG_REGPARM(3) void vp_h_load(Addr addr, ULong size, Addr imark)
{
	dtlb_prefetch(addr);
	if (!data_fast(addr, size, False))
		data_access(addr, size, False, imark, False, False, False);
}

VG_REGPARM(3) void vp_h_store(Addr addr, ULong size, Addr imark)
{
	dtlb_prefetch(addr);
	if (!data_fast(addr, size, True))
		data_access(addr, size, True, imark, False, False, False);
}

/* The helpers of the inline check (vpmu-fastpath.c), for an access it did not answer: the
 * generated code has counted the load or store, and no sampling counter watches, so the
 * instruction's address is not needed.  One per common size, taking the address and px, 0
 * where the check found the page most recently used in its DTLB set.  Each comes twice: as written
 * (looking sets up through their pointers), and compiled for AVX2 with everything it calls
 * here inlined (flatten), the 8-way L1D and L2 lookups included.  The second ran gzip about
 * 10 % faster: an indirect call per lookup, and a helper that could not be specialised
 * around it, cost that much. */
#define VP_FLAT_AVX2 VP_AVX2 __attribute__((flatten))
#define VP_DATA_HELPERS(n)                                                \
	static VG_REGPARM(2) void h_ld##n(Addr a, ULong px)               \
	{                                                                 \
		data_access(a, n, False, 0, True, px == 0, False);        \
	}                                                                 \
	static VG_REGPARM(2) void h_st##n(Addr a, ULong px)               \
	{                                                                 \
		data_access(a, n, True, 0, True, px == 0, False);         \
	}                                                                 \
	static VG_REGPARM(2) VP_FLAT_AVX2 void hv_ld##n(Addr a, ULong px) \
	{                                                                 \
		data_access(a, n, False, 0, True, px == 0, True);         \
	}                                                                 \
	static VG_REGPARM(2) VP_FLAT_AVX2 void hv_st##n(Addr a, ULong px) \
	{                                                                 \
		data_access(a, n, True, 0, True, px == 0, True);          \
	}
VP_DATA_HELPERS(1)
VP_DATA_HELPERS(2)
VP_DATA_HELPERS(4)
VP_DATA_HELPERS(8)
VP_DATA_HELPERS(16)
VP_DATA_HELPERS(32)
VP_DATA_HELPERS(64)

static VG_REGPARM(3) void h_ld_n(Addr a, ULong size, ULong px)
{
	data_access(a, size, False, 0, True, px == 0, False);
}

static VG_REGPARM(3) void h_st_n(Addr a, ULong size, ULong px)
{
	data_access(a, size, True, 0, True, px == 0, False);
}

static VG_REGPARM(3) VP_FLAT_AVX2 void hv_ld_n(Addr a, ULong size, ULong px)
{
	data_access(a, size, False, 0, True, px == 0, True);
}

static VG_REGPARM(3) VP_FLAT_AVX2 void hv_st_n(Addr a, ULong size, ULong px)
{
	data_access(a, size, True, 0, True, px == 0, True);
}

#define VP_HELPER_PAIR(p, n)                                               \
	{                                                                  \
		p##_ld##n, p##_st##n, "vp_" #p "_ld" #n, "vp_" #p "_st" #n \
	}

void vp_fast_data_helper(Bool store, Int size, struct vp_helper *h)
{
	static const struct vp_data_helpers {
		void *ld, *st;
		const HChar *ld_name, *st_name;
	} by_call[] =
		{
			VP_HELPER_PAIR(h, 1),  VP_HELPER_PAIR(h, 2),  VP_HELPER_PAIR(h, 4),
			VP_HELPER_PAIR(h, 8),  VP_HELPER_PAIR(h, 16), VP_HELPER_PAIR(h, 32),
			VP_HELPER_PAIR(h, 64), VP_HELPER_PAIR(h, _n),
		},
	  avx2[] = {
		  VP_HELPER_PAIR(hv, 1),  VP_HELPER_PAIR(hv, 2),  VP_HELPER_PAIR(hv, 4),
		  VP_HELPER_PAIR(hv, 8),  VP_HELPER_PAIR(hv, 16), VP_HELPER_PAIR(hv, 32),
		  VP_HELPER_PAIR(hv, 64), VP_HELPER_PAIR(hv, _n),
	  };
	/* The pointer is set only on an AVX2 host, with --host-vector=yes. */
	const struct vp_data_helpers *t = vc.l1d.lookup && vc.l1d.ways == 8 ? avx2 : by_call;
	UInt l = __builtin_ctz(size), n = sizeof(by_call) / sizeof(by_call[0]) - 1;

	h->takes_size = (size & (size - 1)) != 0 || l >= n;
	if (h->takes_size)
		l = n;
	h->fn = store ? t[l].st : t[l].ld;
	h->name = store ? t[l].st_name : t[l].ld_name;
}

/* One fetch from the line at a, which an instruction stream enters (the instrumenter knows
 * statically when consecutive instructions stay in one line, and such fetches are MRU hits). */
static inline __attribute__((always_inline)) void ifetch(Addr a, Addr imark)
{
	ULong v, dsrc;
	UInt stall = 0;

	/* The line and page the last fetch left most recently used: a hit changing nothing. */
	if (LIKELY(a >> vc.l1i.line_shift == vc.l1i.last &&
		   a >> vc.itlb.line_shift == vc.itlb.last && !vp_watch)) {
		vp_sig[VP_SIG_L1I_HIT]++;
		return;
	}
	__builtin_prefetch(vc.itlb.tags +
			   ((a >> vc.itlb.line_shift) & vc.itlb.set_mask) * vc.itlb.ways);
	if (cache_access(&vc.l1i, line_of(&vc.l1i, a), 0, True, &v, False) == VP_HIT) {
		vp_sig[VP_SIG_L1I_HIT]++;
	} else {
		vp_sig[VP_SIG_L1I_MISS]++;
		stall = outer_access(a, 2, &dsrc, False);
	}
	if (tlb_miss(&vc.itlb, a)) {
		vp_sig[VP_SIG_ITLB_MISS]++;
		stall += vc.tlb_penalty;
	}
	vp_sig[VP_SIG_STALL_IFETCH] += stall;
	if (UNLIKELY(vp_watch))
		vp_overflow_check(imark, NULL, 0);
}

VG_REGPARM(2) void vp_h_ifetch(Addr a, Addr imark)
{
	ifetch(a, imark);
}

/* The helper of the inline fetch check (vpmu-instrument.c): no sampling counter watches, so
 * the instruction's address is not needed. */
VG_REGPARM(1) void vp_h_ifetch_fast(Addr a)
{
	ifetch(a, 0);
}
