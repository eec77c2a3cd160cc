/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Detector signals of the vpmu model and the event-table layout that maps encodings onto them;
 * plain C with no Valgrind headers so the tables also build on the host for the TSV check. */
#ifndef VPMU_EVENTS_H
#define VPMU_EVENTS_H

/* One per-thread 64-bit count each.  The first group is counted inline from the static
 * classification of each instruction; the others by helpers.  Stall signals count penalty
 * cycles; cycles = INSN + all STALL_* (docs/vpmu.md, "Timing model"). */
enum vp_sig {
	VP_SIG_INSN,
	VP_SIG_X87,
	VP_SIG_SSE_PS,
	VP_SIG_SSE_SS,
	VP_SIG_SSE_PD,
	VP_SIG_SSE_SD,
	VP_SIG_SIMD_INT,
	VP_SIG_MUL,
	VP_SIG_DIV,
	VP_SIG_SYSCALL,
	VP_SIG_NR_STATIC, /* end of the inline-counted group */

	/* The signals of a data access that misses the L1D's MRU way come first and together
	 * (with vp_sig on a host line, the L1D's on one line and the L2's on the next): the
	 * miss path is bound by host-cache misses.  L1D_LD_HIT..ITLB_MISS is one range. */
	VP_SIG_LOAD = VP_SIG_NR_STATIC,
	VP_SIG_STORE,
	VP_SIG_L1D_LD_HIT,
	VP_SIG_L1D_LD_MISS,
	VP_SIG_L1D_ST_HIT,
	VP_SIG_L1D_ST_MISS,
	VP_SIG_L1D_WB,
	VP_SIG_L1D_REPL,
	VP_SIG_STALL_LOAD,  /* load miss, DTLB miss and split penalty cycles */
	VP_SIG_STALL_STORE, /* store miss penalty cycles */
	VP_SIG_LAT_ABOVE,
	VP_SIG_L2_LD_HIT,
	VP_SIG_L2_LD_MISS,
	VP_SIG_L2_LINES_IN,
	VP_SIG_L2_ST_HIT,
	VP_SIG_L2_ST_MISS,
	VP_SIG_L2_OUT_CLEAN,
	VP_SIG_L2_OUT_DIRTY,
	VP_SIG_LLC_LD_HIT,
	VP_SIG_LLC_LD_MISS,
	VP_SIG_LLC_REF,
	VP_SIG_LLC_MISS,
	VP_SIG_DTLB_LD_MISS,
	VP_SIG_DTLB_ST_MISS,
	VP_SIG_L1I_HIT,
	VP_SIG_L1I_MISS,
	VP_SIG_L2_IF_HIT,
	VP_SIG_L2_IF_MISS,
	VP_SIG_ITLB_MISS,
	VP_SIG_MISALIGN_LD,
	VP_SIG_MISALIGN_ST,
	VP_SIG_SPLIT_LD,
	VP_SIG_SPLIT_ST,
	VP_SIG_P5_MISALIGN_LD,
	VP_SIG_P5_MISALIGN_ST,
	VP_SIG_BR_COND_TAKEN,
	VP_SIG_BR_COND_NT,
	VP_SIG_BR_JMP_DIR,
	VP_SIG_BR_JMP_IND,
	VP_SIG_BR_CALL_DIR,
	VP_SIG_BR_CALL_IND,
	VP_SIG_BR_RET,
	VP_SIG_MISP_COND,
	VP_SIG_MISP_COND_TAKEN,
	VP_SIG_MISP_JMP_IND,
	VP_SIG_MISP_CALL_IND,
	VP_SIG_MISP_RET,
	VP_SIG_MISP_DIRECT, /* Pentium: BTB miss on a direct jump or call */
	VP_SIG_BTB_HIT,
	VP_SIG_P5_TAKEN_OR_BTB,
	VP_SIG_STALL_IFETCH, /* L1I/ITLB miss penalty cycles */
	VP_SIG_STALL_BR,     /* branch misprediction penalty cycles: derived, see vp_sig_sum() */
	VP_SIG_STALL_DIV,    /* divider busy cycles beyond the first */
	VP_SIG_NR
};

#define VP_BIT(s) (1ULL << (s))
#define VP_STALL_MASK                                                                           \
	(VP_BIT(VP_SIG_STALL_IFETCH) | VP_BIT(VP_SIG_STALL_LOAD) | VP_BIT(VP_SIG_STALL_STORE) | \
	 VP_BIT(VP_SIG_STALL_BR) | VP_BIT(VP_SIG_STALL_DIV))
#define VP_CYCLES_MASK (VP_BIT(VP_SIG_INSN) | VP_STALL_MASK)
#define VP_STATIC_MASK (VP_BIT(VP_SIG_NR_STATIC) - 1)
#define VP_BR_COND_MASK (VP_BIT(VP_SIG_BR_COND_TAKEN) | VP_BIT(VP_SIG_BR_COND_NT))
#define VP_BR_ALL_MASK                                                             \
	(VP_BR_COND_MASK | VP_BIT(VP_SIG_BR_JMP_DIR) | VP_BIT(VP_SIG_BR_JMP_IND) | \
	 VP_BIT(VP_SIG_BR_CALL_DIR) | VP_BIT(VP_SIG_BR_CALL_IND) | VP_BIT(VP_SIG_BR_RET))
#define VP_MISP_ALL_MASK                                                                         \
	(VP_BIT(VP_SIG_MISP_COND) | VP_BIT(VP_SIG_MISP_JMP_IND) | VP_BIT(VP_SIG_MISP_CALL_IND) | \
	 VP_BIT(VP_SIG_MISP_RET) | VP_BIT(VP_SIG_MISP_DIRECT))

enum vp_ev_kind {
	VP_EV_EXACT,	   /* architectural: counted exactly from the instruction stream */
	VP_EV_MODELLED,	   /* produced by the cache, TLB, predictor or timing model */
	VP_EV_UNSUPPORTED, /* PROGRAM rejects it with the reason in desc */
};

/* A value of the event is the sum of the counts of the signals in mask (the signals are
 * disjoint, so OR-ing masks of umask bits gives the hardware's OR of conditions).  When
 * cmask/inv/edge are set in the row, they are the event's defining qualifiers (the guide's
 * predefined programmings such as UOPS_RETIRED.STALL_CYCLES), applied unless the programmed
 * encoding sets its own. */
struct vp_event_desc {
	const char *name;
	unsigned char event;
	unsigned char umask;
	unsigned char cmask;
	unsigned char inv;
	unsigned char edge;
	unsigned char kind;	   /* enum vp_ev_kind */
	unsigned long long mask;   /* VP_BIT() of the signals summed */
	unsigned long long errata; /* Pentium: signals added as well with --p5-errata=yes */
	const char *desc;	   /* what it counts, or why it is unsupported */
};

extern const struct vp_event_desc vp_events_corei7[];
extern const unsigned vp_nr_events_corei7;
extern const struct vp_event_desc vp_events_pentium[];
extern const unsigned vp_nr_events_pentium;

#endif
