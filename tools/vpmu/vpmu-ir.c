/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flat IR builders (every operand an RdTmp or a Const) shared by the instrumenter and the
 * inline fast paths (vpmu-instrument.c, vpmu-fastpath.c, vpmu-branch-ir.c), and the signal
 * counters' update in IR. They run when a block is instrumented, not when it executes.
 */
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "vpmu.h"

IRExpr *vp_ir_tmp(IRSB *out, IRType ty, IRExpr *e)
{
	IRTemp t = newIRTemp(out->tyenv, ty);

	addStmtToIRSB(out, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

IRExpr *vp_ir_bin(IRSB *out, IRType ty, IROp op, IRExpr *a, IRExpr *b)
{
	return vp_ir_tmp(out, ty, IRExpr_Binop(op, a, b));
}

IRExpr *vp_ir_un(IRSB *out, IRType ty, IROp op, IRExpr *a)
{
	return vp_ir_tmp(out, ty, IRExpr_Unop(op, a));
}

IRExpr *vp_ir_k32(UInt v)
{
	return IRExpr_Const(IRConst_U32(v));
}

IRExpr *vp_ir_k64(ULong v)
{
	return IRExpr_Const(IRConst_U64(v));
}

/* The address of signal counter s, as an IR constant. */
IRExpr *vp_ir_sig_slot(UInt s)
{
	return mkIRExpr_HWord((HWord)&vp_sig[s]);
}

void vp_ir_add_sig(IRSB *out, UInt s, IRExpr *amount)
{
	IRTemp t1 = newIRTemp(out->tyenv, Ity_I64);
	IRTemp t2 = newIRTemp(out->tyenv, Ity_I64);

	addStmtToIRSB(out, IRStmt_WrTmp(t1, IRExpr_Load(Iend_LE, Ity_I64, vp_ir_sig_slot(s))));
	addStmtToIRSB(out, IRStmt_WrTmp(t2, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(t1), amount)));
	addStmtToIRSB(out, IRStmt_Store(Iend_LE, vp_ir_sig_slot(s), IRExpr_RdTmp(t2)));
}
