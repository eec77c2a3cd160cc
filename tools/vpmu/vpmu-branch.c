/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Branch predictor models (Pentium BTB with 2-bit counters; gshare + BTB + return stack for
 * the Core i7 preset) and the branch helpers that produce branch signals and the LBR. */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "vpmu.h"

struct btb_entry {
	Addr pc;     /* 0: empty */
	Addr target;
	UChar ctr;   /* 2-bit direction counter (Pentium predictor) */
};

static struct btb_entry *btb; /* sets * ways, most recently used first within a set */
static UInt btb_sets;
static UChar *pht;	      /* gshare: 2-bit counters */
static UInt ghist;
static Addr *ras;
static UInt ras_top, ras_nr;

void vp_bpred_init(void)
{
	UInt i, n = vp_clo.btb_entries;

	btb_sets = n / vp_clo.btb_ways;
	tl_assert(btb_sets && (btb_sets & (btb_sets - 1)) == 0);
	btb = VG_(calloc)("vpmu.btb", n, sizeof(*btb));
	pht = VG_(malloc)("vpmu.pht", 1u << vp_clo.ghist_bits);
	for (i = 0; i < (1u << vp_clo.ghist_bits); i++)
		pht[i] = 1; /* weakly not taken */
	ras = VG_(calloc)("vpmu.ras", vp_clo.ras_depth ? vp_clo.ras_depth : 1, sizeof(Addr));
}

/* Finds pc in the BTB and makes it most recently used; NULL on a miss. */
static struct btb_entry *btb_find(Addr pc)
{
	struct btb_entry *set = btb + ((pc >> 0) & (btb_sets - 1)) * vp_clo.btb_ways;
	struct btb_entry e;
	UInt i;

	for (i = 0; i < vp_clo.btb_ways; i++) {
		if (set[i].pc != pc)
			continue;
		e = set[i];
		for (; i > 0; i--)
			set[i] = set[i - 1];
		set[0] = e;
		return &set[0];
	}
	return NULL;
}

static struct btb_entry *btb_insert(Addr pc, Addr target, UChar ctr)
{
	struct btb_entry *set = btb + (pc & (btb_sets - 1)) * vp_clo.btb_ways;
	UInt i;

	for (i = vp_clo.btb_ways - 1; i > 0; i--)
		set[i] = set[i - 1];
	set[0].pc = pc;
	set[0].target = target;
	set[0].ctr = ctr;
	return &set[0];
}

static const UInt lbr_exclude[] = {
	[VPMU_BR_COND] = VPMU_LBR_JCC,		 [VPMU_BR_REL_JMP] = VPMU_LBR_NEAR_REL_JMP,
	[VPMU_BR_IND_JMP] = VPMU_LBR_NEAR_IND_JMP, [VPMU_BR_REL_CALL] = VPMU_LBR_NEAR_REL_CALL,
	[VPMU_BR_IND_CALL] = VPMU_LBR_NEAR_IND_CALL, [VPMU_BR_RET] = VPMU_LBR_NEAR_RET,
};

/* Records a taken branch unless LBR_SELECT excludes its kind or ring 3 (CPL_NEQ_0). */
void vp_lbr_push(Addr from, Addr to, UInt flags)
{
	struct vp_thread *t = vp_cur;
	UInt kind = flags & VPMU_BR_KIND_MASK;

	if (!vp_clo.lbr_on || !t)
		return;
	if (vp_clo.lbr_select & (VPMU_LBR_CPL_NEQ_0 | lbr_exclude[kind]))
		return;
	t->lbr_top = (t->lbr_top + 1) % VPMU_LBR_DEPTH;
	t->lbr[t->lbr_top].from = from;
	t->lbr[t->lbr_top].to = to;
	t->lbr[t->lbr_top].flags = flags;
	if (t->lbr_nr < VPMU_LBR_DEPTH)
		t->lbr_nr++;
}

void vp_lbr_copy(struct vp_thread *t, struct vpmu_lbr_entry *dst, UInt *nr)
{
	UInt i;

	for (i = 0; i < t->lbr_nr; i++)
		dst[i] = t->lbr[(t->lbr_top + VPMU_LBR_DEPTH - i) % VPMU_LBR_DEPTH];
	*nr = t->lbr_nr;
}

static void mispredicted(UInt sig, Addr pc)
{
	vp_sig[VP_SIG_STALL_BR] += vp_clo.misp_penalty;
	vp_bump(sig, 1, pc, NULL);
}

/* Pentium: the BTB predicts taken when it holds the branch with counter >= 2; a taken branch
 * missing the BTB is allocated strongly taken (thesis Appendix A: BTB misses on taken branches
 * and wrong BTB predictions flush the pipeline). */
static Bool predict_cond_p5(Addr pc, Bool taken, Addr target)
{
	struct btb_entry *e = btb_find(pc);
	Bool pred = e && e->ctr >= 2;

	if (e) {
		vp_bump(VP_SIG_BTB_HIT, 1, pc, NULL);
		e->ctr = taken ? (e->ctr < 3 ? e->ctr + 1 : 3) : (e->ctr ? e->ctr - 1 : 0);
		e->target = target;
	} else if (taken) {
		btb_insert(pc, target, 3);
	}
	if (taken || e)
		vp_bump(VP_SIG_P5_TAKEN_OR_BTB, 1, pc, NULL);
	return pred == taken;
}

static Bool predict_cond_gshare(Addr pc, Bool taken, Addr target)
{
	UInt mask = (1u << vp_clo.ghist_bits) - 1;
	UInt idx = ((UInt)pc ^ ghist) & mask;
	Bool pred = pht[idx] >= 2;
	struct btb_entry *e = btb_find(pc);

	if (e)
		vp_bump(VP_SIG_BTB_HIT, 1, pc, NULL);
	else if (taken)
		btb_insert(pc, target, 3);
	if (taken || e)
		vp_bump(VP_SIG_P5_TAKEN_OR_BTB, 1, pc, NULL);
	pht[idx] = taken ? (pht[idx] < 3 ? pht[idx] + 1 : 3) : (pht[idx] ? pht[idx] - 1 : 0);
	ghist = ((ghist << 1) | taken) & mask;
	return pred == taken;
}

VG_REGPARM(3) void vp_h_cond(Addr pc, ULong taken, Addr target)
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

/* Unconditional transfers.  kind_and_next = VPMU_BR_* kind | (fall-through address << 8);
 * the fall-through is the return address a call pushes. */
VG_REGPARM(3) void vp_h_jump(Addr pc, Addr target, ULong kind_and_next)
{
	static const UInt sig[] = { [VPMU_BR_REL_JMP] = VP_SIG_BR_JMP_DIR,
				    [VPMU_BR_IND_JMP] = VP_SIG_BR_JMP_IND,
				    [VPMU_BR_REL_CALL] = VP_SIG_BR_CALL_DIR,
				    [VPMU_BR_IND_CALL] = VP_SIG_BR_CALL_IND,
				    [VPMU_BR_RET] = VP_SIG_BR_RET };
	static const UInt misp[] = { [VPMU_BR_IND_JMP] = VP_SIG_MISP_JMP_IND,
				     [VPMU_BR_IND_CALL] = VP_SIG_MISP_CALL_IND,
				     [VPMU_BR_RET] = VP_SIG_MISP_RET };
	UInt kind = kind_and_next & 0xff;
	Addr next = kind_and_next >> 8;
	struct btb_entry *e = btb_find(pc);
	Bool ok = True;

	if (e)
		vp_bump(VP_SIG_BTB_HIT, 1, pc, NULL);
	vp_bump(VP_SIG_P5_TAKEN_OR_BTB, 1, pc, NULL);
	if (kind == VPMU_BR_RET && !vp_clo.p5_btb && vp_clo.ras_depth) {
		ok = ras_nr && ras[ras_top] == target;
		if (ras_nr) {
			ras_top = (ras_top + vp_clo.ras_depth - 1) % vp_clo.ras_depth;
			ras_nr--;
		}
	} else if (kind == VPMU_BR_IND_JMP || kind == VPMU_BR_IND_CALL || kind == VPMU_BR_RET) {
		ok = e && e->target == target;
	} else if (vp_clo.p5_btb && !e) {
		mispredicted(VP_SIG_MISP_DIRECT, pc); /* a taken branch missing the BTB flushes */
	}
	if (kind == VPMU_BR_REL_CALL || kind == VPMU_BR_IND_CALL) {
		if (vp_clo.ras_depth) {
			ras_top = (ras_top + 1) % vp_clo.ras_depth;
			ras[ras_top] = next;
			if (ras_nr < vp_clo.ras_depth)
				ras_nr++;
		}
	}
	if (e)
		e->target = target;
	else
		btb_insert(pc, target, 3);
	vp_bump(sig[kind], 1, pc, NULL);
	if (!ok)
		mispredicted(misp[kind], pc);
	vp_lbr_push(pc, target, kind | (ok ? 0 : VPMU_BR_MISPRED));
}
