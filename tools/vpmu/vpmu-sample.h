/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sampling (vpmu-sample.c): the overflow check that signal counts call when a sampling
 * counter watches them, the cycle accounting, and the sample ring; vp_bump, the one way a
 * model adds to a signal.
 */
#ifndef VPMU_SAMPLE_H
#define VPMU_SAMPLE_H

#include "vpmu.h"

struct vp_mem_info {
	Addr addr;
	ULong latency;
	ULong data_src;
	Bool valid;
};
void vp_overflow_check(Addr imark, const struct vp_mem_info *mi, ULong extra_insn);
VG_REGPARM(2) void vp_h_insn_tick(Addr imark, ULong extra_insn);
void vp_cycle_close(void);
VG_REGPARM(1) void vp_h_cycle(Addr imark);
void vp_samples_init(void);
UInt vp_samples_drain(void *dst, UInt size);
void vp_samples_flush(void);
ULong vp_samples_lost(void);

static inline void vp_bump(enum vp_sig s, ULong n, Addr imark, const struct vp_mem_info *mi)
{
	vp_sig[s] += n;
	if (UNLIKELY(vp_watch & VP_BIT(s)))
		vp_overflow_check(imark, mi, 0);
}

#endif /* VPMU_SAMPLE_H */
