/* SPDX-License-Identifier: GPL-2.0-or-later */
/* VEX IR instrumentation specialised to the programmed events: inline per-segment counts,
 * memory/fetch/branch helper calls, instruction ticks for sampling and per-cycle closes. */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "vpmu.h"
#include "vpmu-sample.h"

/* The instrumenter's running state for one superblock. */
struct ctx {
	IRSB *out;
	ULong pending[VP_SIG_NR]; /* inline counts not yet added to vp_sig */
	UInt seg_nins;		  /* counted instructions in the current segment */
	IRTemp seg_base;	  /* vp_sig[INSN] at the segment start, for ticks */
	Addr last_fetch_line;
	Addr last_fetch_page; /* of the block's previous fetch, which left it MRU in the ITLB */
};

/* ---- emitting IR (flat: every operand an RdTmp or Const) ---- */

static void add_to_sig(struct ctx *c, UInt s, IRExpr *amount)
{
	vp_ir_add_sig(c->out, s, amount);
}

static void flush(struct ctx *c)
{
	UInt s;

	for (s = 0; s < VP_SIG_NR; s++) {
		if (c->pending[s])
			add_to_sig(c, s, IRExpr_Const(IRConst_U64(c->pending[s])));
		c->pending[s] = 0;
	}
	c->seg_nins = 0;
	c->seg_base = IRTemp_INVALID;
}

static void count_insn(struct ctx *c, UInt cls)
{
	UInt s;

	for (s = 0; s < VP_SIG_NR_STATIC; s++)
		if (cls & (1u << s))
			c->pending[s]++;
	if (cls & VP_BIT(VP_SIG_DIV))
		c->pending[VP_SIG_STALL_DIV] += vp_clo.div_penalty;
}

static void call(struct ctx *c, const HChar *name, void *fn, Int regparms, IRExpr **args,
		 IRExpr *guard)
{
	IRDirty *d = unsafeIRDirty_0_N(regparms, name, VG_(fnptr_to_fnentry)(fn), args);

	if (guard)
		d->guard = guard;
	addStmtToIRSB(c->out, IRStmt_Dirty(d));
}

/* REP completion: the instruction retires once, when control leaves it for the next one. */
static void count_rep(struct ctx *c, const struct vp_insn_info *in, IRExpr *guard)
{
	IRExpr *one = vp_ir_k64(1);
	UInt s;

	if (guard) {
		IRTemp t = newIRTemp(c->out->tyenv, Ity_I64);

		addStmtToIRSB(c->out, IRStmt_WrTmp(t, IRExpr_Unop(Iop_1Uto64, guard)));
		one = IRExpr_RdTmp(t);
	}
	for (s = 0; s < VP_SIG_NR_STATIC; s++)
		if (in->cls & (1u << s))
			add_to_sig(c, s, one);
}

static void emit_tick(struct ctx *c, const struct vp_insn_info *in)
{
	IRTemp tf = newIRTemp(c->out->tyenv, Ity_I64);
	IRTemp tn = newIRTemp(c->out->tyenv, Ity_I64);
	IRTemp g = newIRTemp(c->out->tyenv, Ity_I1);
	ULong extra = c->seg_nins + (in->is_rep ? 1 : 0);

	if (c->seg_base == IRTemp_INVALID) {
		c->seg_base = newIRTemp(c->out->tyenv, Ity_I64);
		addStmtToIRSB(c->out,
			      IRStmt_WrTmp(c->seg_base, IRExpr_Load(Iend_LE, Ity_I64,
								    vp_ir_sig_slot(VP_SIG_INSN))));
	}
	addStmtToIRSB(c->out,
		      IRStmt_WrTmp(tf, IRExpr_Load(Iend_LE, Ity_I64,
						   mkIRExpr_HWord((HWord)&vp_insn_fire_at))));
	addStmtToIRSB(c->out, IRStmt_WrTmp(tn, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(c->seg_base),
							    vp_ir_k64(extra))));
	addStmtToIRSB(c->out, IRStmt_WrTmp(g, IRExpr_Binop(Iop_CmpLE64U, IRExpr_RdTmp(tf),
							   IRExpr_RdTmp(tn))));
	call(c, "vp_h_insn_tick", vp_h_insn_tick, 2,
	     mkIRExprVec_2(mkIRExpr_HWord(in->addr), vp_ir_k64(extra)), IRExpr_RdTmp(g));
}

static void emit_fetch(struct ctx *c, const struct vp_insn_info *in)
{
	UInt shift = __builtin_ctz(vp_clo.l1i.line_bytes);
	Addr l, first = in->addr >> shift, last = (in->addr + in->len - 1) >> shift;

	for (l = first; l <= last; l++) {
		if (l == c->last_fetch_line)
			continue;
		c->last_fetch_line = l;
		if (!vp_watch) {
			/* The page needs no check when the block's previous fetch was from it: that
			 * fetch left it most recently used (checked, or put there by the helper),
			 * and only fetches use the ITLB. */
			Addr page = (l << shift) >> __builtin_ctz(vp_clo.itlb.line_bytes);

			vp_emit_fetch_fast(c->out, l << shift, page != c->last_fetch_page);
			c->last_fetch_page = page;
		} else
			call(c, "vp_h_ifetch", vp_h_ifetch, 2,
			     mkIRExprVec_2(mkIRExpr_HWord(l << shift), mkIRExpr_HWord(in->addr)),
			     NULL);
	}
}

static void on_imark(struct ctx *c, const struct vp_insn_info *in)
{
	if (vp_need.cycle_cond) {
		flush(c);
		call(c, "vp_h_cycle", vp_h_cycle, 1, mkIRExprVec_1(mkIRExpr_HWord(in->addr)), NULL);
	}
	if (vp_need.icache)
		emit_fetch(c, in);
	if (!in->is_rep) {
		count_insn(c, in->cls);
		c->seg_nins++;
	}
	if (vp_need.insn_tick)
		emit_tick(c, in);
}

static void mem_call(struct ctx *c, Bool store, IRExpr *addr, Int size, Addr pc, IRExpr *guard)
{
	if (!guard && vp_data_fast_ok(size)) {
		UInt s = store ? VP_SIG_STORE : VP_SIG_LOAD;

		vp_emit_data_fast(c->out, store, addr, size);
		if (vp_need.sigs & VP_BIT(s)) /* the helper does not count it */
			c->pending[s]++;
	} else if (store)
		call(c, "vp_h_store", vp_h_store, 3,
		     mkIRExprVec_3(addr, vp_ir_k64(size), mkIRExpr_HWord(pc)), guard);
	else
		call(c, "vp_h_load", vp_h_load, 3,
		     mkIRExprVec_3(addr, vp_ir_k64(size), mkIRExpr_HWord(pc)), guard);
}

static void on_mem(struct ctx *c, const IRSB *bb, const IRStmt *st, Addr pc)
{
	const IRTypeEnv *env = bb->tyenv;
	IRType t, ta;

	switch (st->tag) {
	case Ist_WrTmp:
		if (st->Ist.WrTmp.data->tag == Iex_Load)
			mem_call(c, False, st->Ist.WrTmp.data->Iex.Load.addr,
				 sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty), pc, NULL);
		break;
	case Ist_Store:
		mem_call(c, True, st->Ist.Store.addr,
			 sizeofIRType(typeOfIRExpr(env, st->Ist.Store.data)), pc, NULL);
		break;
	case Ist_LoadG:
		typeOfIRLoadGOp(st->Ist.LoadG.details->cvt, &t, &ta);
		mem_call(c, False, st->Ist.LoadG.details->addr, sizeofIRType(ta), pc,
			 st->Ist.LoadG.details->guard);
		break;
	case Ist_StoreG:
		mem_call(c, True, st->Ist.StoreG.details->addr,
			 sizeofIRType(typeOfIRExpr(env, st->Ist.StoreG.details->data)), pc,
			 st->Ist.StoreG.details->guard);
		break;
	case Ist_CAS: {
		const IRCAS *cas = st->Ist.CAS.details;
		Int sz = sizeofIRType(typeOfIRExpr(env, cas->dataLo)) * (cas->dataHi ? 2 : 1);

		mem_call(c, False, cas->addr, sz, pc, NULL);
		mem_call(c, True, cas->addr, sz, pc, NULL);
		break;
	}
	case Ist_LLSC:
		if (st->Ist.LLSC.storedata)
			mem_call(c, True, st->Ist.LLSC.addr,
				 sizeofIRType(typeOfIRExpr(env, st->Ist.LLSC.storedata)), pc, NULL);
		else
			mem_call(c, False, st->Ist.LLSC.addr,
				 sizeofIRType(typeOfIRTemp(env, st->Ist.LLSC.result)), pc, NULL);
		break;
	case Ist_Dirty: {
		const IRDirty *d = st->Ist.Dirty.details;

		if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
			mem_call(c, False, d->mAddr, d->mSize, pc, NULL);
		if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
			mem_call(c, True, d->mAddr, d->mSize, pc, NULL);
		break;
	}
	default:
		break;
	}
}

/* A conditional branch: the block's only Ijk_Boring side exit, in its last instruction.  VEX
 * may emit it inverted (exit to the fall-through, block end to the target). */
static void on_cond_exit(struct ctx *c, const IRSB *bb, const IRStmt *st,
			 const struct vp_insn_info *in)
{
	Addr dst = st->Ist.Exit.dst->Ico.U64;
	Addr fall = in->addr + in->len;
	IRTemp t = newIRTemp(c->out->tyenv, Ity_I64);
	IRExpr *taken = IRExpr_RdTmp(t);
	Addr target = dst;

	addStmtToIRSB(c->out, IRStmt_WrTmp(t, IRExpr_Unop(Iop_1Uto64, st->Ist.Exit.guard)));
	if (dst == fall) {
		IRTemp u = newIRTemp(c->out->tyenv, Ity_I64);

		if (bb->next->tag != Iex_Const)
			return;
		target = bb->next->Iex.Const.con->Ico.U64;
		addStmtToIRSB(c->out,
			      IRStmt_WrTmp(u, IRExpr_Binop(Iop_Xor64, taken, vp_ir_k64(1))));
		taken = IRExpr_RdTmp(u);
	}
	if (vp_cond_fast_ok())
		vp_emit_cond_fast(c->out, in->addr, taken, target);
	else if (!vp_watch && !vp_clo.p5_btb)
		call(c, "vp_h_cond_gshare", vp_h_cond_gshare, 3,
		     mkIRExprVec_3(mkIRExpr_HWord(in->addr), taken, mkIRExpr_HWord(target)), NULL);
	else
		call(c, "vp_h_cond", vp_h_cond, 3,
		     mkIRExprVec_3(mkIRExpr_HWord(in->addr), taken, mkIRExpr_HWord(target)), NULL);
}

static void on_block_end(struct ctx *c, const IRSB *bb, const struct vp_insn_info *in,
			 Bool had_cond)
{
	Addr fall = in->addr + in->len;
	Bool is_const = bb->next->tag == Iex_Const;
	UInt kind = 0;

	if (in->is_rep) {
		if (is_const && bb->next->Iex.Const.con->Ico.U64 == fall)
			count_rep(c, in, NULL);
		return;
	}
	if (!vp_need.branch || had_cond)
		return;
	if (bb->jumpkind == Ijk_Call)
		kind = is_const ? VPMU_BR_REL_CALL : VPMU_BR_IND_CALL;
	else if (bb->jumpkind == Ijk_Ret)
		kind = VPMU_BR_RET;
	else if (bb->jumpkind == Ijk_Boring && !is_const)
		kind = VPMU_BR_IND_JMP;
	else if (bb->jumpkind == Ijk_Boring && bb->next->Iex.Const.con->Ico.U64 != fall)
		kind = VPMU_BR_REL_JMP;
	if (!kind)
		return;
	if (is_const &&
	    vp_emit_direct_fast(c->out, in->addr, bb->next->Iex.Const.con->Ico.U64, kind, fall))
		return;
	if (!is_const && vp_emit_indirect_fast(c->out, in->addr, bb->next, kind, fall))
		return;
	call(c, "vp_h_jump", vp_h_jump, 3,
	     mkIRExprVec_3(mkIRExpr_HWord(in->addr), bb->next,
			   vp_ir_k64(kind | ((ULong)fall << 8))),
	     NULL);
}

IRSB *vp_instrument(VgCallbackClosure *closure, IRSB *bb, const VexGuestLayout *layout,
		    const VexGuestExtents *vge, const VexArchInfo *archinfo, IRType gWordTy,
		    IRType hWordTy)
{
	static struct vp_insn_info info[VP_MAX_INSNS];
	struct ctx c;
	UInt n = vp_prepass(bb, info);
	Int i, cur = -1;
	Bool had_cond = False;

	(void)closure;
	(void)layout;
	(void)vge;
	(void)archinfo;
	(void)gWordTy;
	(void)hWordTy;
	VG_(memset)(&c, 0, sizeof(c));
	c.out = deepCopyIRSBExceptStmts(bb);
	c.seg_base = IRTemp_INVALID;
	c.last_fetch_line = c.last_fetch_page = ~(Addr)0;
	for (i = 0; i < bb->stmts_used; i++) {
		IRStmt *st = bb->stmts[i];

		if (st->tag == Ist_IMark && cur + 1 < (Int)n) {
			cur++;
			on_imark(&c, &info[cur]);
		} else if (cur >= 0 && vp_need.mem) {
			on_mem(&c, bb, st, info[cur].addr);
		}
		if (st->tag == Ist_Exit && cur >= 0) {
			flush(&c);
			if (info[cur].is_rep) {
				if (st->Ist.Exit.dst->Ico.U64 == info[cur].addr + info[cur].len)
					count_rep(&c, &info[cur], st->Ist.Exit.guard);
			} else if (vp_need.branch && st->Ist.Exit.jk == Ijk_Boring &&
				   cur == (Int)n - 1) {
				on_cond_exit(&c, bb, st, &info[cur]);
				had_cond = True;
			}
		}
		addStmtToIRSB(c.out, st);
	}
	flush(&c);
	if (cur >= 0)
		on_block_end(&c, bb, &info[cur], had_cond);
	return c.out;
}
