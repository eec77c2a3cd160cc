/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inline IR for the data accesses and instruction fetches the model would answer without
 * changing state: a check of the L1 and TLB sets' most-recently-used ways, the hit's signals
 * counted inline, the helper called (guarded) only when the check fails. */
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "vpmu.h"

static IRExpr *shr(IRSB *out, IRExpr *a, UInt n)
{
	return vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Shr64, a, IRExpr_Const(IRConst_U8(n))));
}

static IRExpr *shl(IRSB *out, IRExpr *a, UInt n)
{
	return vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Shl64, a, IRExpr_Const(IRConst_U8(n))));
}

/* The tag in the most recently used way of the set that holds entry number addr >> shift of
 * the cache v.  The set's byte offset, ((addr >> shift) & set_mask) * ways * 8, is one shift
 * and one mask when the number of ways is a power of two. */
static IRExpr *mru_tag(IRSB *out, const struct vp_tag_view *v, IRExpr *addr, UInt shift)
{
	UInt set_bytes = v->ways * 8, w = __builtin_ctz(set_bytes);
	IRExpr *off;

	if (set_bytes & (set_bytes - 1))
		off = vp_ir_tmp(
			out, Ity_I64,
			IRExpr_Binop(Iop_Mul64,
				     vp_ir_tmp(out, Ity_I64,
					       IRExpr_Binop(Iop_And64, shr(out, addr, shift),
							    vp_ir_k64(v->set_mask))),
				     vp_ir_k64(set_bytes)));
	else
		off = vp_ir_tmp(out, Ity_I64,
				IRExpr_Binop(Iop_And64,
					     shift > w	 ? shr(out, addr, shift - w)
					     : shift < w ? shl(out, addr, w - shift)
							 : addr,
					     vp_ir_k64(v->set_mask << w)));
	return vp_ir_tmp(
		out, Ity_I64,
		IRExpr_Load(Iend_LE, Ity_I64,
			    vp_ir_tmp(out, Ity_I64,
				      IRExpr_Binop(Iop_Add64, off, vp_ir_k64((HWord)v->tags)))));
}

/* An I64 that is 0 when the access lies in one line that is most recently used in its L1D set
 * (and already dirty, for a store), and its page most recently used in its DTLB set:
 * cache_access() would then answer both as hits that change no order.  A tag is the line
 * number shifted left once with the dirty bit below, so line << 1 | 1 is
 * (a >> (line_shift - 1)) | 1.  The set is the first byte's and the line compared the last
 * byte's: a set only holds lines of its own index, so the two agree only when the access does
 * not cross a line (with more than one set; a fully associative L1D checks the crossing
 * itself).  *page_x is 0 when the page is most recently used (the MRU tag xor the page's).
 * Differences or-ed together, not compares and-ed: a compare's I1 costs VEX two more
 * instructions each time it is widened or combined. */
static IRExpr *fast_miss(IRSB *out, Bool store, IRExpr *addr, Int size, IRExpr **page_x)
{
	struct vp_tag_view l1, tlb;
	IRExpr *end = addr, *want, *tag, *x, *page;

	vp_data_tags(&l1, &tlb);
	if (size > 1)
		end = vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, addr, vp_ir_k64(size - 1)));
	want = shr(out, end, l1.line_shift - 1);
	tag = mru_tag(out, &l1, addr, l1.line_shift);
	if (store) /* a store hits a dirty line */
		x = vp_ir_tmp(out, Ity_I64,
			      IRExpr_Binop(Iop_Xor64, tag,
					   vp_ir_tmp(out, Ity_I64,
						     IRExpr_Binop(Iop_Or64, want, vp_ir_k64(1)))));
	else /* a load hits a clean or dirty line: the dirty bit is shifted out */
		x = shr(out, vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Xor64, tag, want)), 1);
	if (size > 1 && l1.set_mask == 0)
		x = vp_ir_tmp(out, Ity_I64,
			      IRExpr_Binop(Iop_Or64, x,
					   vp_ir_tmp(out, Ity_I64,
						     IRExpr_Binop(Iop_Xor64,
								  shr(out, addr, l1.line_shift),
								  shr(out, end, l1.line_shift)))));
	page = vp_ir_tmp(
		out, Ity_I64,
		IRExpr_Binop(Iop_And64, shr(out, addr, tlb.line_shift - 1), vp_ir_k64(~1ULL)));
	tag = mru_tag(out, &tlb, addr, tlb.line_shift);
	*page_x = vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Xor64, tag, page));
	return vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Or64, x, *page_x));
}

/* Adds amount to signal s if a programmed counter sums s.  The others need not be kept: a
 * counter programmed later takes its base when programmed, and reprogramming retranslates. */
static void add_sig(IRSB *out, UInt s, IRExpr *amount)
{
	if (vp_need.sigs & VP_BIT(s))
		vp_ir_add_sig(out, s, amount);
}

/* Adds `hit` to signal s when the 64-bit value v is non-zero. */
static void add_if_nonzero(IRSB *out, UInt s, IRExpr *v, IRExpr *hit)
{
	IRExpr *nz, *n64;

	if (!(vp_need.sigs & VP_BIT(s)))
		return;
	nz = vp_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, v, vp_ir_k64(0)));
	n64 = vp_ir_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, nz));
	vp_ir_add_sig(out, s, vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_And64, n64, hit)));
}

/* The signals data_access() in vpmu-cache.c produces for an access that hits the MRU ways of
 * L1D and the DTLB within one line (no stall, L1 latency), counted by `hit` (0 or 1). */
static void count_fast(IRSB *out, Bool store, IRExpr *addr, Int size, IRExpr *hit)
{
	UInt p5_shift = size >= 8 ? 3 : 2;

	add_sig(out, store ? VP_SIG_L1D_ST_HIT : VP_SIG_L1D_LD_HIT, hit);
	if (size > 1) {
		IRExpr *end =
			vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, addr, vp_ir_k64(size - 1)));
		IRExpr *x = vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Xor64, addr, end));

		add_if_nonzero(
			out, store ? VP_SIG_MISALIGN_ST : VP_SIG_MISALIGN_LD,
			vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_And64, addr, vp_ir_k64(size - 1))),
			hit);
		add_if_nonzero(
			out, store ? VP_SIG_P5_MISALIGN_ST : VP_SIG_P5_MISALIGN_LD,
			vp_ir_tmp(out, Ity_I64,
				  IRExpr_Binop(Iop_Shr64, x, IRExpr_Const(IRConst_U8(p5_shift)))),
			hit);
	}
	if (!store && (vp_need.sigs & VP_BIT(VP_SIG_LAT_ABOVE))) {
		/* ld_lat is an MSR the guest may rewrite without a retranslation: read it. */
		IRExpr *lat = vp_ir_tmp(
			out, Ity_I32,
			IRExpr_Load(Iend_LE, Ity_I32, mkIRExpr_HWord((HWord)&vp_clo.ld_lat)));
		IRExpr *above =
			vp_ir_tmp(out, Ity_I1,
				  IRExpr_Binop(Iop_CmpLT32U, lat,
					       IRExpr_Const(IRConst_U32(vp_clo.l1d.latency))));
		IRExpr *a64 = vp_ir_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, above));

		vp_ir_add_sig(out, VP_SIG_LAT_ABOVE,
			      vp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_And64, a64, hit)));
	}
}

Bool vp_data_fast_ok(Int size)
{
	return vp_need.dcache && !vp_watch && size > 0 && size <= (Int)vp_clo.l1d.line_bytes;
}

/* A load or store of size bytes at addr (an atom): counted inline when fast_miss() is 0, else
 * passed to the helper.  Only while vp_data_fast_ok(size): with a sampling counter watching,
 * the helper must see every access.  The caller counts the load or store itself (it happens
 * whichever way the check goes).  The inline hit leaves the caches' `last` hints alone; they
 * stay valid, as nothing changes any set's order. */
void vp_emit_data_fast(IRSB *out, Bool store, IRExpr *addr, Int size)
{
	IRExpr *px, *miss = fast_miss(out, store, addr, size, &px);
	IRExpr *hit = vp_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, miss, vp_ir_k64(0)));
	struct vp_helper h;
	IRDirty *d;

	/* The hit's count is dropped by VEX's dead-code pass where no counter needs it. */
	count_fast(out, store, addr, size, vp_ir_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, hit)));
	vp_fast_data_helper(store, size, &h);
	/* The helper skips the DTLB when px is 0 (the page is most recently used). */
	if (h.takes_size)
		d = unsafeIRDirty_0_N(3, h.name, VG_(fnptr_to_fnentry)(h.fn),
				      mkIRExprVec_3(addr, vp_ir_k64(size), px));
	else
		d = unsafeIRDirty_0_N(2, h.name, VG_(fnptr_to_fnentry)(h.fn),
				      mkIRExprVec_2(addr, px));
	d->guard = vp_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, miss, vp_ir_k64(0)));
	addStmtToIRSB(out, IRStmt_Dirty(d));
}

/* A fetch of the line at line_addr, guarded by the same check: when the line is most recently
 * used in its L1I set (and its page in its ITLB set, when check_page), the helper would only
 * count an L1I hit, so the IR counts it and skips the call.  Both slots are known when
 * translating.  Only while no sampling counter watches (the helper would then check for an
 * overflow). */
void vp_emit_fetch_fast(IRSB *out, Addr line_addr, Bool check_page)
{
	struct vp_tag_view l1, tlb;
	ULong line, page;
	IRExpr *x, *hit;
	IRDirty *d;

	vp_fetch_tags(&l1, &tlb);
	line = line_addr >> l1.line_shift;
	page = line_addr >> tlb.line_shift;
	/* Fetches never dirty a line, so the MRU tag is line << 1 exactly. */
	x = vp_ir_tmp(
		out, Ity_I64,
		IRExpr_Binop(Iop_Xor64,
			     vp_ir_tmp(out, Ity_I64,
				       IRExpr_Load(Iend_LE, Ity_I64,
						   mkIRExpr_HWord(
							   (HWord)(l1.tags + (line & l1.set_mask) *
										     l1.ways)))),
			     vp_ir_k64(line << 1)));
	if (check_page)
		x = vp_ir_tmp(
			out, Ity_I64,
			IRExpr_Binop(
				Iop_Or64, x,
				vp_ir_tmp(
					out, Ity_I64,
					IRExpr_Binop(
						Iop_Xor64,
						vp_ir_tmp(
							out, Ity_I64,
							IRExpr_Load(
								Iend_LE, Ity_I64,
								mkIRExpr_HWord((
									HWord)(tlb.tags +
									       (page &
										tlb.set_mask) *
										       tlb.ways)))),
						vp_ir_k64(page << 1)))));
	hit = vp_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, x, vp_ir_k64(0)));
	add_sig(out, VP_SIG_L1I_HIT, vp_ir_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, hit)));
	d = unsafeIRDirty_0_N(1, "vp_h_ifetch_fast", VG_(fnptr_to_fnentry)(vp_h_ifetch_fast),
			      mkIRExprVec_1(mkIRExpr_HWord(line_addr)));
	d->guard = vp_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, x, vp_ir_k64(0)));
	addStmtToIRSB(out, IRStmt_Dirty(d));
}
