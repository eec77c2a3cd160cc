/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Data-only table of the Pentium events (thesis Table 2.3, Appendix A): the signals each sums,
 * the errata the model can reproduce, and the reason for every unsupported one. */
#include "vpmu-events.h"

#define B(s) VP_BIT(VP_SIG_##s)
#define EXACT(n, ev, m, e, d)                           \
	{                                               \
		n, ev, 0, 0, 0, 0, VP_EV_EXACT, m, e, d \
	}
#define MODEL(n, ev, m, d)                                 \
	{                                                  \
		n, ev, 0, 0, 0, 0, VP_EV_MODELLED, m, 0, d \
	}
#define UNSUP(n, ev, why)                                       \
	{                                                       \
		n, ev, 0, 0, 0, 0, VP_EV_UNSUPPORTED, 0, 0, why \
	}

const struct vp_event_desc vp_events_pentium[] = {
	EXACT("data_read", 0x00, B(LOAD), B(P5_MISALIGN_LD),
	      "Data reads, --p5-errata=yes counts a misaligned read twice (thesis Table 5.4)"),
	EXACT("data_write", 0x01, B(STORE), B(P5_MISALIGN_ST),
	      "Data writes, --p5-errata=yes counts a misaligned write twice"),
	EXACT("data_read_or_write", 0x28, B(LOAD) | B(STORE), B(P5_MISALIGN_LD) | B(P5_MISALIGN_ST),
	      "Data reads and writes"),
	MODEL("data_TLB_miss", 0x02, B(DTLB_LD_MISS) | B(DTLB_ST_MISS), "Data TLB misses"),
	MODEL("data_read_miss", 0x03, B(L1D_LD_MISS), "Data reads that miss L1D"),
	MODEL("data_write_miss", 0x04, B(L1D_ST_MISS), "Data writes that miss L1D"),
	MODEL("data_read_or_write_miss", 0x29, B(L1D_LD_MISS) | B(L1D_ST_MISS),
	      "Data accesses that miss L1D"),
	MODEL("write_hit_to_M_or_E_state_lines", 0x05, B(L1D_ST_HIT),
	      "Write hits, one core, so every line is in E or M state"),
	MODEL("data_cache_lines_written_back", 0x06, B(L1D_WB), "Dirty L1D lines written back"),
	UNSUP("external_snoops", 0x07, "the model has no other bus masters"),
	UNSUP("data_cache_snoop_hits", 0x08, "the model has no other bus masters"),
	UNSUP("memory_accesses_in_both_pipes", 0x09, "the model has no U/V pipe pairing"),
	UNSUP("bank_conflicts", 0x0a, "the model has no cache banks"),
	EXACT("misaligned_data_memory_or_IO_references", 0x0b,
	      B(P5_MISALIGN_LD) | B(P5_MISALIGN_ST), 0,
	      "2/4-byte accesses crossing 4 bytes, 8-byte accesses crossing 8 bytes (Appendix A "
	      "rule)"),
	MODEL("code_read", 0x0c, B(L1I_HIT) | B(L1I_MISS),
	      "Code fetches (one per cache line entered)"),
	MODEL("code_TLB_miss", 0x0d, B(ITLB_MISS), "Code TLB misses"),
	MODEL("code_cache_miss", 0x0e, B(L1I_MISS), "Code fetches that miss L1I"),
	UNSUP("any_segment_register_loaded", 0x0f,
	      "segment loads are not visible in 64-bit user code under VEX"),
	EXACT("branches", 0x12, VP_BR_ALL_MASK, 0,
	      "Branches: conditional, jumps, calls and returns"),
	MODEL("BTB_hits", 0x13, B(BTB_HIT), "Branches that hit the BTB"),
	MODEL("taken_branch_or_BTB_hit", 0x14, B(P5_TAKEN_OR_BTB),
	      "Branches taken or hitting the BTB"),
	MODEL("pipeline_flushes", 0x15, VP_MISP_ALL_MASK,
	      "Branch mispredictions (BTB misses on taken branches included)"),
	EXACT("instructions_executed", 0x16, B(INSN), 0,
	      "Instructions, a REP instruction counts once"),
	UNSUP("instructions_executed_in_v_pipe", 0x17, "the model has no U/V pipe pairing"),
	UNSUP("clocks_while_bus_cycle_in_progress", 0x18, "the model has no bus"),
	MODEL("clocks_stalled_full_write_buffers", 0x19, B(STALL_STORE),
	      "Store miss penalty cycles"),
	MODEL("pipeline_stalled_waiting_for_data_memory_read", 0x1a, B(STALL_LOAD),
	      "Load miss and DTLB miss penalty cycles"),
	UNSUP("stall_on_write_to_E_or_M_state_line", 0x1b, "the model has no EWBE# signal"),
	UNSUP("locked_bus_cycle", 0x1c, "the model has no bus"),
	UNSUP("IO_read_or_write_cycle", 0x1d, "user-level code does no port I/O"),
	UNSUP("non_cacheable_memory_reads", 0x1e, "all client memory is cacheable in the model"),
	UNSUP("pipeline_stalled_AGI", 0x1f, "the model has no address-generation interlocks"),
	EXACT("FLOPs", 0x22, B(X87) | B(SSE_PS) | B(SSE_SS) | B(SSE_PD) | B(SSE_SD) | B(MUL), 0,
	      "FP arithmetic instructions and integer multiplies (Appendix A)"),
	UNSUP("breakpoint_match_DR0", 0x23, "the model has no debug registers"),
	UNSUP("breakpoint_match_DR1", 0x24, "the model has no debug registers"),
	UNSUP("breakpoint_match_DR2", 0x25, "the model has no debug registers"),
	UNSUP("breakpoint_match_DR3", 0x26, "the model has no debug registers"),
	UNSUP("hardware_interrupts", 0x27, "the model runs user code only and sees no interrupts"),
};

const unsigned vp_nr_events_pentium = sizeof(vp_events_pentium) / sizeof(vp_events_pentium[0]);
