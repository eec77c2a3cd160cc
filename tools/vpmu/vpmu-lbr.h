/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The last-branch record of each thread (16 entries, the guide's Table 7 filter): pushed by
 * the branch model (vpmu-branch.c), copied into samples (vpmu-sample.c) and client requests
 * (vpmu-main.c). Inline: the push runs on every taken branch while the LBR is on.
 */
#ifndef VPMU_LBR_H
#define VPMU_LBR_H

#include "vpmu.h"

static const UInt lbr_exclude[] = {
	[VPMU_BR_COND] = VPMU_LBR_JCC,
	[VPMU_BR_REL_JMP] = VPMU_LBR_NEAR_REL_JMP,
	[VPMU_BR_IND_JMP] = VPMU_LBR_NEAR_IND_JMP,
	[VPMU_BR_REL_CALL] = VPMU_LBR_NEAR_REL_CALL,
	[VPMU_BR_IND_CALL] = VPMU_LBR_NEAR_IND_CALL,
	[VPMU_BR_RET] = VPMU_LBR_NEAR_RET,
};

/* Records a taken branch unless LBR_SELECT excludes its kind or ring 3 (CPL_NEQ_0). */
static inline void vp_lbr_push(Addr from, Addr to, UInt flags)
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

static inline void vp_lbr_copy(struct vp_thread *t, struct vpmu_lbr_entry *dst, UInt *nr)
{
	UInt i;

	for (i = 0; i < t->lbr_nr; i++)
		dst[i] = t->lbr[(t->lbr_top + VPMU_LBR_DEPTH - i) % VPMU_LBR_DEPTH];
	*nr = t->lbr_nr;
}

#endif /* VPMU_LBR_H */
