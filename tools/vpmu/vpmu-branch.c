/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Branch predictor models (Pentium BTB with 2-bit counters; gshare + BTB + return stack for
 * the Core i7 preset) and the branch helpers that produce branch signals and the LBR. */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "vpmu.h"
#include "vpmu-lbr.h"
#include "vpmu-sample.h"

/* The BTB is kept as three parallel arrays of sets * ways slots, most recently used first
 * within a set, so that a lookup reads only the 32 bytes of one set's tags; the pattern
 * history table holds one 2-bit counter a byte (16 KiB for 14 history bits: four to a byte
 * took five more instructions per branch in the inline update, and the size of the table did
 * not change the time). */
static Addr *btb_pc; /* 0: empty */
static Addr *btb_target;
static UChar *btb_ctr; /* 2-bit direction counter (Pentium predictor) */
static UInt btb_sets, btb_ways;
static UChar *pht; /* gshare: 2-bit counters in bits 0-1, initially 1 (weakly not taken) */
static UInt pht_mask;
static UInt ghist;
/* pht_step[taken << 3 | byte]: the PHT byte after its counter is updated by the outcome, with
 * bit 2 set when the counter predicted wrong (bit 2 of a PHT byte means nothing: the update
 * ignores it); the inline branch (vpmu-branch-ir.c) updates a counter with one load from it. */
static UChar pht_step[16];
static Addr *ras;
static UInt ras_top, ras_nr;

void vp_bpred_init(void)
{
	UInt n = vp_clo.btb_entries, i;

	btb_ways = vp_clo.btb_ways;
	btb_sets = n / btb_ways;
	tl_assert(btb_sets && (btb_sets & (btb_sets - 1)) == 0);
	btb_pc = vp_alloc_lines("vpmu.btb", n * sizeof(*btb_pc));
	btb_target = vp_alloc_lines("vpmu.btb", n * sizeof(*btb_target));
	btb_ctr = VG_(calloc)("vpmu.btb", n, sizeof(*btb_ctr));
	pht_mask = (1u << vp_clo.ghist_bits) - 1;
	pht = vp_alloc_lines("vpmu.pht", pht_mask + 1);
	VG_(memset)(pht, 1, pht_mask + 1);
	for (i = 0; i < 16; i++) {
		UInt taken = i >> 3, c = i & 3, nc = taken ? (c < 3 ? c + 1 : 3) : (c ? c - 1 : 0);

		pht_step[i] = nc | ((c >> 1) ^ taken) << 2;
	}
	ras = VG_(calloc)("vpmu.ras", vp_clo.ras_depth ? vp_clo.ras_depth : 1, sizeof(Addr));
}

static inline UInt pht_get(UInt idx)
{
	return pht[idx] & 3;
}

static inline void pht_set(UInt idx, UInt v)
{
	pht[idx] = v;
}

/* Moves slot i of the set starting at slot s to the front of its set. */
static void btb_to_front(UInt s, UInt i)
{
	Addr pc = btb_pc[s + i], target = btb_target[s + i];
	UChar ctr = btb_ctr[s + i];

	for (; i > 0; i--) {
		btb_pc[s + i] = btb_pc[s + i - 1];
		btb_target[s + i] = btb_target[s + i - 1];
		btb_ctr[s + i] = btb_ctr[s + i - 1];
	}
	btb_pc[s] = pc;
	btb_target[s] = target;
	btb_ctr[s] = ctr;
}

/* Finds pc in the BTB and makes it most recently used; returns its slot, or -1 on a miss. */
static inline Int btb_find(Addr pc)
{
	UInt s = (pc & (btb_sets - 1)) * btb_ways, i;

	if (btb_pc[s] == pc)
		return s;
	for (i = 1; i < btb_ways; i++) {
		if (btb_pc[s + i] == pc) {
			btb_to_front(s, i);
			return s;
		}
	}
	return -1;
}

static void btb_insert(Addr pc, Addr target, UChar ctr)
{
	UInt s = (pc & (btb_sets - 1)) * btb_ways, i;

	for (i = btb_ways - 1; i > 0; i--) {
		btb_pc[s + i] = btb_pc[s + i - 1];
		btb_target[s + i] = btb_target[s + i - 1];
		btb_ctr[s + i] = btb_ctr[s + i - 1];
	}
	btb_pc[s] = pc;
	btb_target[s] = target;
	btb_ctr[s] = ctr;
}

/* A misprediction of signal sig (one of VP_MISP_ALL_MASK: its penalty cycles are derived from
 * it, see vp_sig_sum()). */
static void mispredicted(UInt sig, Addr pc)
{
	vp_bump(sig, 1, pc, NULL);
}

/* Pentium: the BTB predicts taken when it holds the branch with counter >= 2; a taken branch
 * missing the BTB is allocated strongly taken (thesis Appendix A: BTB misses on taken branches
 * and wrong BTB predictions flush the pipeline). */
static Bool predict_cond_p5(Addr pc, Bool taken, Addr target)
{
	Int e = btb_find(pc);
	Bool pred = e >= 0 && btb_ctr[e] >= 2;

	if (e >= 0) {
		UChar c = btb_ctr[e];

		vp_bump(VP_SIG_BTB_HIT, 1, pc, NULL);
		btb_ctr[e] = taken ? (c < 3 ? c + 1 : 3) : (c ? c - 1 : 0);
		btb_target[e] = target;
	} else if (taken) {
		btb_insert(pc, target, 3);
	}
	if (taken || e >= 0)
		vp_bump(VP_SIG_P5_TAKEN_OR_BTB, 1, pc, NULL);
	return pred == taken;
}

static Bool predict_cond_gshare(Addr pc, Bool taken, Addr target)
{
	UInt idx = ((UInt)pc ^ ghist) & pht_mask;
	UInt c = pht_get(idx);
	Bool pred = c >= 2;
	Int e = btb_find(pc);

	if (e >= 0)
		vp_bump(VP_SIG_BTB_HIT, 1, pc, NULL);
	else if (taken)
		btb_insert(pc, target, 3);
	if (taken || e >= 0)
		vp_bump(VP_SIG_P5_TAKEN_OR_BTB, 1, pc, NULL);
	pht_set(idx, taken ? (c < 3 ? c + 1 : 3) : (c ? c - 1 : 0));
	ghist = ((ghist << 1) | taken) & pht_mask;
	return pred == taken;
}

static void cond_general(Addr pc, ULong taken, Addr target)
{
	Bool ok = vp_clo.p5_btb ? predict_cond_p5(pc, taken, target)
				: predict_cond_gshare(pc, taken, target);

	vp_bump(taken ? VP_SIG_BR_COND_TAKEN : VP_SIG_BR_COND_NT, 1, pc, NULL);
	if (!ok) {
		if (taken)
			vp_sig[VP_SIG_MISP_COND_TAKEN]++;
		mispredicted(VP_SIG_MISP_COND, pc);
	}
	if (taken)
		vp_lbr_push(pc, target, VPMU_BR_COND | (ok ? 0 : VPMU_BR_MISPRED));
}

/* gshare with no sampling counter watching: the same model as cond_general, written without
 * branches on the guest's outcome (which the host cannot predict). */
static inline void cond_gshare_fast(Addr pc, ULong taken, Addr target)
{
	static const UChar next[2][4] = {{0, 0, 1, 2}, {1, 2, 3, 3}};
	UInt idx = ((UInt)pc ^ ghist) & pht_mask;
	UInt c;

	__builtin_prefetch(btb_pc + (pc & (btb_sets - 1)) * btb_ways); /* overlaps the PHT load */
	c = pht_get(idx);
	ULong miss = (c >> 1) ^ taken;
	Int e = btb_find(pc);
	ULong hit = e >= 0;

	if (!hit && taken)
		btb_insert(pc, target, 3);
	pht_set(idx, next[taken][c]);
	ghist = ((ghist << 1) | taken) & pht_mask;
	vp_sig[VP_SIG_BTB_HIT] += hit;
	vp_sig[VP_SIG_P5_TAKEN_OR_BTB] += hit | taken;
	vp_sig[VP_SIG_BR_COND_NT - taken]++;
	vp_sig[VP_SIG_MISP_COND_TAKEN] += miss & taken;
	vp_sig[VP_SIG_MISP_COND] += miss;
	if (UNLIKELY(vp_clo.lbr_on) && taken)
		vp_lbr_push(pc, target, VPMU_BR_COND | (miss ? VPMU_BR_MISPRED : 0));
}

VG_REGPARM(3) void vp_h_cond(Addr pc, ULong taken, Addr target)
{
	if (LIKELY(!vp_watch && !vp_clo.p5_btb))
		cond_gshare_fast(pc, taken, target);
	else
		cond_general(pc, taken, target);
}

/* The instrumenter calls this one directly when it knows vp_h_cond would take the fast path
 * (vp_watch and the predictor only change with a reprogramming, which retranslates). */
VG_REGPARM(3) void vp_h_cond_gshare(Addr pc, ULong taken, Addr target)
{
	cond_gshare_fast(pc, taken, target);
}

/* The BTB part of cond_gshare_fast(), for a branch that is not in the most recently used way
 * of its set (the inline IR of vpmu-branch-ir.c counts the other case and the rest). */
VG_REGPARM(3) void vp_h_cond_btb(Addr pc, ULong taken, Addr target)
{
	ULong hit = btb_find(pc) >= 0;

	if (!hit && taken)
		btb_insert(pc, target, 3);
	vp_sig[VP_SIG_BTB_HIT] += hit;
	vp_sig[VP_SIG_P5_TAKEN_OR_BTB] += hit | taken;
}

/* The BTB part of vp_h_jump() for a direct jump or call that is not in the most recently
 * used way of its set with this target (vpmu-branch-ir.c counts the rest inline). */
VG_REGPARM(2) void vp_h_jump_btb(Addr pc, Addr target)
{
	Int e = btb_find(pc);

	if (e >= 0) {
		vp_sig[VP_SIG_BTB_HIT]++;
		btb_target[e] = target;
	} else {
		btb_insert(pc, target, 3);
	}
}

/* The BTB part of vp_h_jump() for an indirect jump or call that is not in the most recently
 * used way of its set (vpmu-branch-ir.c counts the rest inline): the prediction is the
 * target the BTB holds for it, if any. */
VG_REGPARM(3) void vp_h_ind_btb(Addr pc, Addr target, ULong kind)
{
	Int e = btb_find(pc);

	if (e >= 0) {
		vp_sig[VP_SIG_BTB_HIT]++;
		if (btb_target[e] != target)
			mispredicted(kind == VPMU_BR_IND_JMP ? VP_SIG_MISP_JMP_IND
							     : VP_SIG_MISP_CALL_IND,
				     pc);
		btb_target[e] = target;
	} else {
		mispredicted(kind == VPMU_BR_IND_JMP ? VP_SIG_MISP_JMP_IND : VP_SIG_MISP_CALL_IND,
			     pc);
		btb_insert(pc, target, 3);
	}
}

void vp_gshare_view(struct vp_gshare_view *g, Addr pc)
{
	UInt s = (pc & (btb_sets - 1)) * btb_ways;

	g->ghist = &ghist;
	g->pht = pht;
	g->pht_mask = pht_mask;
	g->pht_step = pht_step;
	g->btb_mru = &btb_pc[s];
	g->btb_mru_target = &btb_target[s];
	g->ras = ras;
	g->ras_top = &ras_top;
	g->ras_nr = &ras_nr;
}

/* Unconditional transfers.  kind_and_next = VPMU_BR_* kind | (fall-through address << 8);
 * the fall-through is the return address a call pushes. */
VG_REGPARM(3) void vp_h_jump(Addr pc, Addr target, ULong kind_and_next)
{
	static const UInt sig[] = {[VPMU_BR_REL_JMP] = VP_SIG_BR_JMP_DIR,
				   [VPMU_BR_IND_JMP] = VP_SIG_BR_JMP_IND,
				   [VPMU_BR_REL_CALL] = VP_SIG_BR_CALL_DIR,
				   [VPMU_BR_IND_CALL] = VP_SIG_BR_CALL_IND,
				   [VPMU_BR_RET] = VP_SIG_BR_RET};
	static const UInt misp[] = {[VPMU_BR_IND_JMP] = VP_SIG_MISP_JMP_IND,
				    [VPMU_BR_IND_CALL] = VP_SIG_MISP_CALL_IND,
				    [VPMU_BR_RET] = VP_SIG_MISP_RET};
	UInt kind = kind_and_next & 0xff;
	Addr next = kind_and_next >> 8;
	Int e = btb_find(pc);
	Bool ok = True;

	if (e >= 0)
		vp_bump(VP_SIG_BTB_HIT, 1, pc, NULL);
	vp_bump(VP_SIG_P5_TAKEN_OR_BTB, 1, pc, NULL);
	if (kind == VPMU_BR_RET && !vp_clo.p5_btb && vp_clo.ras_depth) {
		ok = ras_nr && ras[ras_top] == target;
		if (ras_nr) {
			ras_top = (ras_top ? ras_top : vp_clo.ras_depth) - 1; /* no division */
			ras_nr--;
		}
	} else if (kind == VPMU_BR_IND_JMP || kind == VPMU_BR_IND_CALL || kind == VPMU_BR_RET) {
		ok = e >= 0 && btb_target[e] == target;
	} else if (vp_clo.p5_btb && e < 0) {
		mispredicted(VP_SIG_MISP_DIRECT, pc); /* a taken branch missing the BTB flushes */
	}
	if (kind == VPMU_BR_REL_CALL || kind == VPMU_BR_IND_CALL) {
		if (vp_clo.ras_depth) {
			ras_top = ras_top + 1 == vp_clo.ras_depth ? 0 : ras_top + 1;
			ras[ras_top] = next;
			if (ras_nr < vp_clo.ras_depth)
				ras_nr++;
		}
	}
	if (e >= 0)
		btb_target[e] = target;
	else
		btb_insert(pc, target, 3);
	vp_bump(sig[kind], 1, pc, NULL);
	if (!ok)
		mispredicted(misp[kind], pc);
	vp_lbr_push(pc, target, kind | (ok ? 0 : VPMU_BR_MISPRED));
}
