/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inline IR for the gshare predictor's conditional branch: the pattern history table, the
 * global history and the branch signals updated in IR; the BTB's helper called only when the
 * branch is not in the most recently used way of its set. */
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "vpmu.h"

static void add_sig(IRSB *out, UInt s, IRExpr *amount)
{
	if (vp_need.sigs & VP_BIT(s))
		vp_ir_add_sig(out, s, amount);
}

Bool vp_cond_fast_ok(void)
{
	/* Sampling needs the overflow checks, the LBR a helper per taken branch; the Pentium
	 * predictor has no pattern history table. */
	return !vp_watch && !vp_clo.p5_btb && !vp_clo.lbr_on;
}

/* Reads and updates the PHT counter and the history; returns the misprediction (I32 0/1).
 * The counter's byte goes through pht_step (vpmu-branch.c), which gives the updated byte and
 * whether the counter predicted wrong.  The counter's address is computed apart for the load
 * and for the store, each temporary used once, so that VEX's tree builder puts the sum in the
 * access and can fold the table's address into it as a displacement (vp_alloc_lines). */
static IRExpr *pht_update(IRSB *out, const struct vp_gshare_view *g, Addr pc, IRExpr *t32)
{
	IRExpr *hist = vp_ir_tmp(out, Ity_I32,
				 IRExpr_Load(Iend_LE, Ity_I32, mkIRExpr_HWord((HWord)g->ghist)));
	IRExpr *idx =
		vp_ir_un(out, Ity_I64, Iop_32Uto64,
			 vp_ir_bin(out, Ity_I32, Iop_And32,
				   vp_ir_bin(out, Ity_I32, Iop_Xor32, hist, vp_ir_k32((UInt)pc)),
				   vp_ir_k32(g->pht_mask)));
	IRExpr *byte = vp_ir_un(out, Ity_I32, Iop_8Uto32,
				vp_ir_tmp(out, Ity_I8,
					  IRExpr_Load(Iend_LE, Ity_I8,
						      vp_ir_bin(out, Ity_I64, Iop_Add64, idx,
								vp_ir_k64((HWord)g->pht)))));
	IRExpr *key = vp_ir_bin(
		out, Ity_I32, Iop_Or32,
		vp_ir_bin(out, Ity_I32, Iop_Shl32, t32, IRExpr_Const(IRConst_U8(3))), byte);
	IRExpr *step = vp_ir_tmp(out, Ity_I8,
				 IRExpr_Load(Iend_LE, Ity_I8,
					     vp_ir_bin(out, Ity_I64, Iop_Add64,
						       vp_ir_un(out, Ity_I64, Iop_32Uto64, key),
						       vp_ir_k64((HWord)g->pht_step))));
	IRExpr *nh = vp_ir_bin(
		out, Ity_I32, Iop_And32,
		vp_ir_bin(out, Ity_I32, Iop_Or32,
			  vp_ir_bin(out, Ity_I32, Iop_Shl32, hist, IRExpr_Const(IRConst_U8(1))),
			  t32),
		vp_ir_k32(g->pht_mask));

	addStmtToIRSB(
		out, IRStmt_Store(Iend_LE,
				  vp_ir_bin(out, Ity_I64, Iop_Add64, idx, vp_ir_k64((HWord)g->pht)),
				  step));
	addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)g->ghist), nh));
	return vp_ir_bin(out, Ity_I32, Iop_Shr32, vp_ir_un(out, Ity_I32, Iop_8Uto32, step),
			 IRExpr_Const(IRConst_U8(2)));
}

/* A misprediction (I64 0/1) of a transfer of signal sig (its penalty cycles are derived from
 * the count: vp_sig_sum()). */
static void add_misp(IRSB *out, UInt sig, IRExpr *miss)
{
	add_sig(out, sig, miss);
}

/* The conditional branch at pc, taken (an I64 atom, 0 or 1) to target: what
 * cond_gshare_fast() in vpmu-branch.c does, with its BTB part (vp_h_cond_btb) called only
 * when pc is not in the most recently used way of its BTB set, where a lookup would hit and
 * change nothing.  Only while vp_cond_fast_ok(). */
void vp_emit_cond_fast(IRSB *out, Addr pc, IRExpr *taken, Addr target)
{
	struct vp_gshare_view g;
	IRExpr *t32, *miss, *hit, *h64;
	IRDirty *d;

	vp_gshare_view(&g, pc);
	t32 = vp_ir_un(out, Ity_I32, Iop_64to32, taken);
	miss = vp_ir_un(out, Ity_I64, Iop_32Uto64, pht_update(out, &g, pc, t32));
	add_sig(out, VP_SIG_BR_COND_TAKEN, taken);
	add_sig(out, VP_SIG_BR_COND_NT, vp_ir_bin(out, Ity_I64, Iop_Xor64, taken, vp_ir_k64(1)));
	add_sig(out, VP_SIG_MISP_COND_TAKEN, vp_ir_bin(out, Ity_I64, Iop_And64, miss, taken));
	add_misp(out, VP_SIG_MISP_COND, miss);
	hit = vp_ir_bin(out, Ity_I1, Iop_CmpEQ64,
			vp_ir_tmp(out, Ity_I64,
				  IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)g.btb_mru))),
			vp_ir_k64(pc));
	h64 = vp_ir_un(out, Ity_I64, Iop_1Uto64, hit);
	add_sig(out, VP_SIG_BTB_HIT, h64);
	add_sig(out, VP_SIG_P5_TAKEN_OR_BTB, h64);
	d = unsafeIRDirty_0_N(3, "vp_h_cond_btb", VG_(fnptr_to_fnentry)(vp_h_cond_btb),
			      mkIRExprVec_3(mkIRExpr_HWord(pc), taken, mkIRExpr_HWord(target)));
	d->guard = vp_ir_un(out, Ity_I1, Iop_Not1, hit);
	addStmtToIRSB(out, IRStmt_Dirty(d));
}

/* The return stack push of a call (vp_h_jump() in vpmu-branch.c): next on top. */
static void ras_push(IRSB *out, const struct vp_gshare_view *g, Addr next)
{
	UInt depth = vp_clo.ras_depth;
	IRExpr *top = vp_ir_tmp(out, Ity_I32,
				IRExpr_Load(Iend_LE, Ity_I32, mkIRExpr_HWord((HWord)g->ras_top)));
	IRExpr *t1 = vp_ir_bin(out, Ity_I32, Iop_Add32, top, vp_ir_k32(1));
	IRExpr *nt = vp_ir_tmp(out, Ity_I32,
			       IRExpr_ITE(vp_ir_bin(out, Ity_I1, Iop_CmpEQ32, t1, vp_ir_k32(depth)),
					  vp_ir_k32(0), t1));
	IRExpr *at = vp_ir_bin(out, Ity_I64, Iop_Add64,
			       vp_ir_bin(out, Ity_I64, Iop_Shl64,
					 vp_ir_un(out, Ity_I64, Iop_32Uto64, nt),
					 IRExpr_Const(IRConst_U8(3))),
			       vp_ir_k64((HWord)g->ras));
	IRExpr *nr = vp_ir_tmp(out, Ity_I32,
			       IRExpr_Load(Iend_LE, Ity_I32, mkIRExpr_HWord((HWord)g->ras_nr)));
	IRExpr *more = vp_ir_un(out, Ity_I32, Iop_1Uto32,
				vp_ir_bin(out, Ity_I1, Iop_CmpLT32U, nr, vp_ir_k32(depth)));

	addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)g->ras_top), nt));
	addStmtToIRSB(out, IRStmt_Store(Iend_LE, at, vp_ir_k64(next)));
	addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)g->ras_nr),
					vp_ir_bin(out, Ity_I32, Iop_Add32, nr, more)));
}

/* A direct jump or call (kind VPMU_BR_REL_JMP/REL_CALL) at pc to target, next the return
 * address: what vp_h_jump() does for it (a direct transfer is always predicted with gshare),
 * its BTB part (vp_h_jump_btb) called only when pc with this target is not the MRU way of its
 * set.  Returns False, emitting nothing, where the helper must do it all. */
Bool vp_emit_direct_fast(IRSB *out, Addr pc, Addr target, UInt kind, Addr next)
{
	struct vp_gshare_view g;
	IRExpr *hit, *h64;
	IRDirty *d;

	if (!vp_cond_fast_ok() || (kind != VPMU_BR_REL_JMP && kind != VPMU_BR_REL_CALL))
		return False;
	vp_gshare_view(&g, pc);
	add_sig(out, VP_SIG_P5_TAKEN_OR_BTB, vp_ir_k64(1));
	if (kind == VPMU_BR_REL_CALL && vp_clo.ras_depth)
		ras_push(out, &g, next);
	hit = vp_ir_bin(out, Ity_I1, Iop_And1,
			vp_ir_bin(out, Ity_I1, Iop_CmpEQ64,
				  vp_ir_tmp(out, Ity_I64,
					    IRExpr_Load(Iend_LE, Ity_I64,
							mkIRExpr_HWord((HWord)g.btb_mru))),
				  vp_ir_k64(pc)),
			vp_ir_bin(out, Ity_I1, Iop_CmpEQ64,
				  vp_ir_tmp(out, Ity_I64,
					    IRExpr_Load(Iend_LE, Ity_I64,
							mkIRExpr_HWord((HWord)g.btb_mru_target))),
				  vp_ir_k64(target)));
	h64 = vp_ir_un(out, Ity_I64, Iop_1Uto64, hit);
	add_sig(out, VP_SIG_BTB_HIT, h64);
	add_sig(out, kind == VPMU_BR_REL_CALL ? VP_SIG_BR_CALL_DIR : VP_SIG_BR_JMP_DIR,
		vp_ir_k64(1));
	d = unsafeIRDirty_0_N(2, "vp_h_jump_btb", VG_(fnptr_to_fnentry)(vp_h_jump_btb),
			      mkIRExprVec_2(mkIRExpr_HWord(pc), mkIRExpr_HWord(target)));
	d->guard = vp_ir_un(out, Ity_I1, Iop_Not1, hit);
	addStmtToIRSB(out, IRStmt_Dirty(d));
	return True;
}

/* The BTB part of an indirect transfer (vp_h_jump()) when pc is the most recently used way of
 * its set: the lookup hits and changes no order, and the way's target becomes target.
 * Returns the hit (I1), and the target the way held in *old_target; when the hit is false,
 * the caller's BTB helper must do the lookup. */
static IRExpr *btb_mru_update(IRSB *out, const struct vp_gshare_view *g, Addr pc, IRExpr *target,
			      IRExpr **old_target)
{
	IRExpr *at = mkIRExpr_HWord((HWord)g->btb_mru_target);
	IRExpr *hit = vp_ir_bin(
		out, Ity_I1, Iop_CmpEQ64,
		vp_ir_tmp(out, Ity_I64,
			  IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)g->btb_mru))),
		vp_ir_k64(pc));
	IRExpr *old = vp_ir_tmp(out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, at));

	addStmtToIRSB(out, IRStmt_Store(Iend_LE, at,
					vp_ir_tmp(out, Ity_I64, IRExpr_ITE(hit, target, old))));
	add_sig(out, VP_SIG_BTB_HIT, vp_ir_un(out, Ity_I64, Iop_1Uto64, hit));
	*old_target = old;
	return hit;
}

/* A return at pc to target: pops the return stack in IR (a misprediction when it was empty or
 * its top was not target); returns the BTB helper's call, for the caller to guard. */
static IRDirty *emit_ret(IRSB *out, const struct vp_gshare_view *g, Addr pc, IRExpr *target)
{
	IRExpr *top = vp_ir_tmp(out, Ity_I32,
				IRExpr_Load(Iend_LE, Ity_I32, mkIRExpr_HWord((HWord)g->ras_top)));
	IRExpr *nr = vp_ir_tmp(out, Ity_I32,
			       IRExpr_Load(Iend_LE, Ity_I32, mkIRExpr_HWord((HWord)g->ras_nr)));
	IRExpr *any = vp_ir_bin(out, Ity_I1, Iop_CmpNE32, nr, vp_ir_k32(0));
	IRExpr *slot =
		vp_ir_tmp(out, Ity_I64,
			  IRExpr_Load(Iend_LE, Ity_I64,
				      vp_ir_bin(out, Ity_I64, Iop_Add64,
						vp_ir_bin(out, Ity_I64, Iop_Shl64,
							  vp_ir_un(out, Ity_I64, Iop_32Uto64, top),
							  IRExpr_Const(IRConst_U8(3))),
						vp_ir_k64((HWord)g->ras))));
	IRExpr *ok = vp_ir_bin(out, Ity_I1, Iop_And1, any,
			       vp_ir_bin(out, Ity_I1, Iop_CmpEQ64, slot, target));
	IRExpr *below =
		vp_ir_tmp(out, Ity_I32,
			  IRExpr_ITE(vp_ir_bin(out, Ity_I1, Iop_CmpEQ32, top, vp_ir_k32(0)),
				     vp_ir_k32(vp_clo.ras_depth - 1),
				     vp_ir_bin(out, Ity_I32, Iop_Sub32, top, vp_ir_k32(1))));

	addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)g->ras_top),
					vp_ir_tmp(out, Ity_I32, IRExpr_ITE(any, below, top))));
	addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)g->ras_nr),
					vp_ir_bin(out, Ity_I32, Iop_Sub32, nr,
						  vp_ir_un(out, Ity_I32, Iop_1Uto32, any))));
	add_misp(out, VP_SIG_MISP_RET,
		 vp_ir_un(out, Ity_I64, Iop_1Uto64, vp_ir_un(out, Ity_I1, Iop_Not1, ok)));
	add_sig(out, VP_SIG_BR_RET, vp_ir_k64(1));
	return unsafeIRDirty_0_N(2, "vp_h_jump_btb", VG_(fnptr_to_fnentry)(vp_h_jump_btb),
				 mkIRExprVec_2(mkIRExpr_HWord(pc), target));
}

/* A return (predicted by the return stack, which it pops) or an indirect jump or call
 * (predicted by the BTB's target; a call pushes next on the return stack) at pc to target (an
 * atom): what vp_h_jump() does for it, with the BTB part in a helper only when pc is not the
 * most recently used way of its set.  Returns False, emitting nothing, where the helper must
 * do it all. */
Bool vp_emit_indirect_fast(IRSB *out, Addr pc, IRExpr *target, UInt kind, Addr next)
{
	struct vp_gshare_view g;
	IRExpr *hit, *old, *miss;
	IRDirty *d;

	if (!vp_cond_fast_ok() || !vp_clo.ras_depth ||
	    (kind != VPMU_BR_RET && kind != VPMU_BR_IND_JMP && kind != VPMU_BR_IND_CALL))
		return False;
	vp_gshare_view(&g, pc);
	add_sig(out, VP_SIG_P5_TAKEN_OR_BTB, vp_ir_k64(1));
	hit = btb_mru_update(out, &g, pc, target, &old);
	if (kind == VPMU_BR_RET) {
		d = emit_ret(out, &g, pc, target);
	} else {
		/* Predicted right when the MRU way held this target; the helper decides otherwise.
		 */
		miss = vp_ir_un(out, Ity_I64, Iop_1Uto64,
				vp_ir_bin(out, Ity_I1, Iop_And1, hit,
					  vp_ir_bin(out, Ity_I1, Iop_CmpNE64, old, target)));
		add_misp(out, kind == VPMU_BR_IND_JMP ? VP_SIG_MISP_JMP_IND : VP_SIG_MISP_CALL_IND,
			 miss);
		if (kind == VPMU_BR_IND_CALL)
			ras_push(out, &g, next);
		add_sig(out, kind == VPMU_BR_IND_JMP ? VP_SIG_BR_JMP_IND : VP_SIG_BR_CALL_IND,
			vp_ir_k64(1));
		d = unsafeIRDirty_0_N(3, "vp_h_ind_btb", VG_(fnptr_to_fnentry)(vp_h_ind_btb),
				      mkIRExprVec_3(mkIRExpr_HWord(pc), target, vp_ir_k64(kind)));
	}
	d->guard = vp_ir_un(out, Ity_I1, Iop_Not1, hit);
	addStmtToIRSB(out, IRStmt_Dirty(d));
	return True;
}
