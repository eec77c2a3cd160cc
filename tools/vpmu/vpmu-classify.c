/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The instrumenter's prepass: each guest instruction of a superblock classified by the VEX IR
 * operations it was translated to (multiply, divide, x87, SSE and AVX scalar and packed, SIMD
 * integer, REP loops, system calls), before any IR is emitted (vpmu-instrument.c). */
#include "pub_tool_basics.h"
#include "vpmu.h"

/* ---- static classification by IR operation ---- */

/* The static signals of one VEX IR operation. check-size: exempt from the 60-line limit: one
 * case label per IROp of libvex_ir.h that pmc classifies, grouped by the signal it raises; a
 * split would cut the one table of which VEX operation counts as what in two. */
static UInt classify_op(IROp op, Bool *fp_scalar64, Bool *fp_scalar32)
{
	IRType d, a1, a2, a3, a4;

	switch (op) {
	case Iop_Mul8:
	case Iop_Mul16:
	case Iop_Mul32:
	case Iop_Mul64:
	case Iop_MullS8:
	case Iop_MullS16:
	case Iop_MullS32:
	case Iop_MullS64:
	case Iop_MullU8:
	case Iop_MullU16:
	case Iop_MullU32:
	case Iop_MullU64:
		return VP_BIT(VP_SIG_MUL);
	case Iop_DivU32:
	case Iop_DivS32:
	case Iop_DivU64:
	case Iop_DivS64:
	case Iop_DivModU64to32:
	case Iop_DivModS64to32:
	case Iop_DivModU128to64:
	case Iop_DivModS128to64:
		return VP_BIT(VP_SIG_DIV);
	case Iop_DivF64:
	case Iop_SqrtF64:
		*fp_scalar64 = True;
		return VP_BIT(VP_SIG_DIV);
	case Iop_DivF32:
	case Iop_SqrtF32:
		*fp_scalar32 = True;
		return VP_BIT(VP_SIG_DIV);
	case Iop_AddF64:
	case Iop_SubF64:
	case Iop_MulF64:
	case Iop_MAddF64:
	case Iop_MSubF64:
	case Iop_AtanF64:
	case Iop_Yl2xF64:
	case Iop_PRemF64:
	case Iop_ScaleF64:
	case Iop_SinF64:
	case Iop_CosF64:
	case Iop_TanF64:
	case Iop_2xm1F64:
		*fp_scalar64 = True;
		return 0;
	case Iop_AddF32:
	case Iop_SubF32:
	case Iop_MulF32:
	case Iop_MAddF32:
	case Iop_MSubF32:
		*fp_scalar32 = True;
		return 0;
	case Iop_Add32Fx4:
	case Iop_Sub32Fx4:
	case Iop_Mul32Fx4:
	case Iop_Max32Fx4:
	case Iop_Min32Fx4:
	case Iop_Add32Fx8:
	case Iop_Sub32Fx8:
	case Iop_Mul32Fx8:
	case Iop_Max32Fx8:
	case Iop_Min32Fx8:
		return VP_BIT(VP_SIG_SSE_PS);
	case Iop_Div32Fx4:
	case Iop_Sqrt32Fx4:
	case Iop_Div32Fx8:
	case Iop_Sqrt32Fx8:
		return VP_BIT(VP_SIG_SSE_PS) | VP_BIT(VP_SIG_DIV);
	case Iop_Add64Fx2:
	case Iop_Sub64Fx2:
	case Iop_Mul64Fx2:
	case Iop_Max64Fx2:
	case Iop_Min64Fx2:
	case Iop_Add64Fx4:
	case Iop_Sub64Fx4:
	case Iop_Mul64Fx4:
	case Iop_Max64Fx4:
	case Iop_Min64Fx4:
		return VP_BIT(VP_SIG_SSE_PD);
	case Iop_Div64Fx2:
	case Iop_Sqrt64Fx2:
	case Iop_Div64Fx4:
	case Iop_Sqrt64Fx4:
		return VP_BIT(VP_SIG_SSE_PD) | VP_BIT(VP_SIG_DIV);
	case Iop_Add32F0x4:
	case Iop_Sub32F0x4:
	case Iop_Mul32F0x4:
	case Iop_Max32F0x4:
	case Iop_Min32F0x4:
		return VP_BIT(VP_SIG_SSE_SS);
	case Iop_Div32F0x4:
	case Iop_Sqrt32F0x4:
		return VP_BIT(VP_SIG_SSE_SS) | VP_BIT(VP_SIG_DIV);
	case Iop_Add64F0x2:
	case Iop_Sub64F0x2:
	case Iop_Mul64F0x2:
	case Iop_Max64F0x2:
	case Iop_Min64F0x2:
		return VP_BIT(VP_SIG_SSE_SD);
	case Iop_Div64F0x2:
	case Iop_Sqrt64F0x2:
		return VP_BIT(VP_SIG_SSE_SD) | VP_BIT(VP_SIG_DIV);
	/* Moves between integer and vector registers are not SIMD operations. */
	case Iop_64UtoV128:
	case Iop_32UtoV128:
	case Iop_64HLtoV128:
	case Iop_V128HLtoV256:
	case Iop_SetV128lo64:
	case Iop_SetV128lo32:
	case Iop_V128to64:
	case Iop_V128HIto64:
	case Iop_V256toV128_0:
	case Iop_V256toV128_1:
	case Iop_V128to32:
		return 0;
	default:
		break;
	}
	typeOfPrimop(op, &d, &a1, &a2, &a3, &a4);
	if (d == Ity_V128 || d == Ity_V256)
		return VP_BIT(VP_SIG_SIMD_INT);
	return 0;
}

static UInt classify_expr(const IRExpr *e, Bool *f64, Bool *f32, Bool *x87)
{
	switch (e->tag) {
	case Iex_Unop:
		return classify_op(e->Iex.Unop.op, f64, f32);
	case Iex_Binop:
		return classify_op(e->Iex.Binop.op, f64, f32);
	case Iex_Triop:
		return classify_op(e->Iex.Triop.details->op, f64, f32);
	case Iex_Qop:
		return classify_op(e->Iex.Qop.details->op, f64, f32);
	case Iex_GetI:
		*x87 = True;
		return 0;
	default:
		return 0;
	}
}

/* Fills info[] for each instruction of bb; returns the number of instructions. */
UInt vp_prepass(const IRSB *bb, struct vp_insn_info *info)
{
	Int i;
	Int n = -1;
	Bool f64 = False, f32 = False, x87 = False;

	for (i = 0; i < bb->stmts_used; i++) {
		const IRStmt *st = bb->stmts[i];

		if (st->tag == Ist_IMark) {
			if (n >= 0 && (f64 || f32))
				info[n].cls |= x87 ? VP_BIT(VP_SIG_X87)
						   : VP_BIT(f64 ? VP_SIG_SSE_SD : VP_SIG_SSE_SS);
			if (n + 1 >= VP_MAX_INSNS)
				break;
			n++;
			info[n].addr = st->Ist.IMark.addr + st->Ist.IMark.delta;
			info[n].len = st->Ist.IMark.len;
			info[n].cls = VP_BIT(VP_SIG_INSN);
			info[n].is_rep = False;
			f64 = f32 = x87 = False;
		} else if (n >= 0 && st->tag == Ist_WrTmp) {
			info[n].cls |= classify_expr(st->Ist.WrTmp.data, &f64, &f32, &x87);
		} else if (n >= 0 && st->tag == Ist_PutI) {
			x87 = True;
		} else if (n >= 0 && st->tag == Ist_Exit &&
			   st->Ist.Exit.dst->Ico.U64 == info[n].addr) {
			info[n].is_rep = True; /* a REP string instruction loops to itself */
		}
	}
	if (n >= 0 && (f64 || f32))
		info[n].cls |=
			x87 ? VP_BIT(VP_SIG_X87) : VP_BIT(f64 ? VP_SIG_SSE_SD : VP_SIG_SSE_SS);
	if (n >= 0 && bb->next->tag == Iex_Const &&
	    bb->next->Iex.Const.con->Ico.U64 == info[n].addr)
		info[n].is_rep = True;
	if (n >= 0 && (bb->jumpkind == Ijk_Sys_syscall || bb->jumpkind == Ijk_Sys_int128 ||
		       bb->jumpkind == Ijk_Sys_int129 || bb->jumpkind == Ijk_Sys_int130 ||
		       bb->jumpkind == Ijk_Sys_int210 || bb->jumpkind == Ijk_Sys_sysenter))
		info[n].cls |= VP_BIT(VP_SIG_SYSCALL);
	return n + 1;
}
