// SPDX-License-Identifier: MIT
/* Data-only map of perf's generic and cache events onto the vpmu models' event names. */
#include <linux/perf_event.h>
#include "backend/vpmu/generic.h"

#define HW(c) PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c
#define CACHE(id, op, res)                                                                   \
	PERF_TYPE_HW_CACHE, (PERF_COUNT_HW_CACHE_##id | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
			     (PERF_COUNT_HW_CACHE_RESULT_##res << 16))
#define I7 VPMU_MODEL_COREI7
#define P5 VPMU_MODEL_PENTIUM
#define NO_PREFETCH "the model has no hardware prefetcher"
#define NO_NODE "the model has one memory node"
#define P5_NO_LLC "the Pentium model has no last-level cache (its L2 is off-chip and uncounted)"

const struct vpmu_generic pmc__vpmu_generics[] = {
	{HW(INSTRUCTIONS), I7, "INST_RETIRED.ANY", NULL},
	{HW(CPU_CYCLES), I7, "CPU_CLK_UNHALTED.THREAD", NULL},
	{HW(REF_CPU_CYCLES), I7, "CPU_CLK_UNHALTED.REF", NULL},
	{HW(BRANCH_INSTRUCTIONS), I7, "BR_INST_RETIRED.ALL_BRANCHES", NULL},
	{HW(BRANCH_MISSES), I7, "BR_MISP_RETIRED.ALL_BRANCHES", NULL},
	{HW(CACHE_REFERENCES), I7, "LONGEST_LAT_CACHE.REFERENCE", NULL},
	{HW(CACHE_MISSES), I7, "LONGEST_LAT_CACHE.MISS", NULL},
	{HW(STALLED_CYCLES_FRONTEND), I7, "VPMU_STALLS.IFETCH", NULL},
	{HW(STALLED_CYCLES_BACKEND), I7, "RESOURCE_STALLS.ANY", NULL},
	{HW(BUS_CYCLES), I7, NULL, "the model has no bus"},
	{CACHE(L1D, READ, ACCESS), I7, "MEM_INST_RETIRED.LOADS", NULL},
	{CACHE(L1D, READ, MISS), I7, "L1D_CACHE_LD.I_STATE", NULL},
	{CACHE(L1D, WRITE, ACCESS), I7, "MEM_INST_RETIRED.STORES", NULL},
	{CACHE(L1D, WRITE, MISS), I7, "L1D_CACHE_ST.I_STATE", NULL},
	{CACHE(L1I, READ, ACCESS), I7, "L1I.READS", NULL},
	{CACHE(L1I, READ, MISS), I7, "L1I.MISSES", NULL},
	{CACHE(LL, READ, ACCESS), I7, "L2_RQSTS.LD_MISS", NULL},
	{CACHE(LL, READ, MISS), I7, "MEM_LOAD_RETIRED.LLC_MISS", NULL},
	{CACHE(LL, WRITE, ACCESS), I7, "L2_RQSTS.RFO_MISS", NULL},
	{CACHE(LL, WRITE, MISS), I7, NULL, "the model does not count LLC store misses apart"},
	{CACHE(DTLB, READ, ACCESS), I7, "MEM_INST_RETIRED.LOADS", NULL},
	{CACHE(DTLB, READ, MISS), I7, "DTLB_LOAD_MISSES.ANY", NULL},
	{CACHE(DTLB, WRITE, ACCESS), I7, "MEM_INST_RETIRED.STORES", NULL},
	{CACHE(DTLB, WRITE, MISS), I7, "MEM_STORE_RETIRED.DTLB_MISS", NULL},
	{CACHE(ITLB, READ, ACCESS), I7, "L1I.READS", NULL},
	{CACHE(ITLB, READ, MISS), I7, "ITLB_MISSES.ANY", NULL},
	{CACHE(BPU, READ, ACCESS), I7, "BR_INST_RETIRED.ALL_BRANCHES", NULL},
	{CACHE(BPU, READ, MISS), I7, "BR_MISP_RETIRED.ALL_BRANCHES", NULL},

	{HW(INSTRUCTIONS), P5, "instructions_executed", NULL},
	{HW(CPU_CYCLES), P5, "clocks", NULL},
	{HW(REF_CPU_CYCLES), P5, "clocks", NULL},
	{HW(BRANCH_INSTRUCTIONS), P5, "branches", NULL},
	{HW(BRANCH_MISSES), P5, "pipeline_flushes", NULL},
	{HW(CACHE_REFERENCES), P5, "data_read_or_write", NULL},
	{HW(CACHE_MISSES), P5, "data_read_or_write_miss", NULL},
	{HW(STALLED_CYCLES_BACKEND), P5, "pipeline_stalled_waiting_for_data_memory_read", NULL},
	{HW(STALLED_CYCLES_FRONTEND), P5, NULL, "the Pentium model counts no front-end stalls"},
	{HW(BUS_CYCLES), P5, NULL, "the model has no bus"},
	{CACHE(L1D, READ, ACCESS), P5, "data_read", NULL},
	{CACHE(L1D, READ, MISS), P5, "data_read_miss", NULL},
	{CACHE(L1D, WRITE, ACCESS), P5, "data_write", NULL},
	{CACHE(L1D, WRITE, MISS), P5, "data_write_miss", NULL},
	{CACHE(L1I, READ, ACCESS), P5, "code_read", NULL},
	{CACHE(L1I, READ, MISS), P5, "code_cache_miss", NULL},
	{CACHE(LL, READ, ACCESS), P5, NULL, P5_NO_LLC},
	{CACHE(LL, READ, MISS), P5, NULL, P5_NO_LLC},
	{CACHE(LL, WRITE, ACCESS), P5, NULL, P5_NO_LLC},
	{CACHE(LL, WRITE, MISS), P5, NULL, P5_NO_LLC},
	{CACHE(DTLB, READ, MISS), P5, "data_TLB_miss", NULL},
	{CACHE(DTLB, WRITE, MISS), P5, NULL,
	 "the Pentium counts data TLB misses of reads and writes together (dTLB-load-misses)"},
	{CACHE(ITLB, READ, MISS), P5, "code_TLB_miss", NULL},
	{CACHE(BPU, READ, ACCESS), P5, "branches", NULL},
	{CACHE(BPU, READ, MISS), P5, "pipeline_flushes", NULL},
};

const size_t pmc__vpmu_nr_generics = sizeof(pmc__vpmu_generics) / sizeof(pmc__vpmu_generics[0]);

const char *pmc__vpmu_generic_reason(uint32_t type, uint64_t config)
{
	unsigned id = config & 0xff, op = (config >> 8) & 0xff;

	if (type == PERF_TYPE_HW_CACHE && op == PERF_COUNT_HW_CACHE_OP_PREFETCH)
		return NO_PREFETCH;
	if (type == PERF_TYPE_HW_CACHE && id == PERF_COUNT_HW_CACHE_NODE)
		return NO_NODE;
	return "the model has no counterpart of this generic event";
}
