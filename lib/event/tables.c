// SPDX-License-Identifier: MIT
/* Data only: perf's generic hardware, software and cache event names, the breakpoint forms and
 * the PAPI presets (tests/unit/test-event-tables.c and test-event-preset.c validate them). */
#include <stddef.h>
#include "event/parse.h"

#define HW(n, c, d)                                         \
	{                                                   \
		n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, d \
	}
#define SW(n, c, d)                                         \
	{                                                   \
		n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, d \
	}

/* Spellings and aliases as perf 6.x accepts them; the first of each config is canonical. */
const struct pmc_event_name pmc__event_generic[] = {
	HW("cpu-cycles", CPU_CYCLES, "CPU cycles"),
	HW("cycles", CPU_CYCLES, "CPU cycles"),
	HW("instructions", INSTRUCTIONS, "retired instructions"),
	HW("cache-references", CACHE_REFERENCES, "cache accesses (usually the last level)"),
	HW("cache-misses", CACHE_MISSES, "cache misses (usually the last level)"),
	HW("branch-instructions", BRANCH_INSTRUCTIONS, "retired branch instructions"),
	HW("branches", BRANCH_INSTRUCTIONS, "retired branch instructions"),
	HW("branch-misses", BRANCH_MISSES, "mispredicted branches"),
	HW("bus-cycles", BUS_CYCLES, "bus cycles"),
	HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND, "cycles the front end stalled"),
	HW("idle-cycles-frontend", STALLED_CYCLES_FRONTEND, "cycles the front end stalled"),
	HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND, "cycles the back end stalled"),
	HW("idle-cycles-backend", STALLED_CYCLES_BACKEND, "cycles the back end stalled"),
	HW("ref-cycles", REF_CPU_CYCLES, "reference cycles, unaffected by frequency scaling"),
	SW("cpu-clock", CPU_CLOCK, "per-CPU high-resolution timer, ns"),
	SW("task-clock", TASK_CLOCK, "time the task ran, ns"),
	SW("page-faults", PAGE_FAULTS, "page faults"),
	SW("faults", PAGE_FAULTS, "page faults"),
	SW("context-switches", CONTEXT_SWITCHES, "context switches"),
	SW("cs", CONTEXT_SWITCHES, "context switches"),
	SW("cpu-migrations", CPU_MIGRATIONS, "migrations to another CPU"),
	SW("migrations", CPU_MIGRATIONS, "migrations to another CPU"),
	SW("minor-faults", PAGE_FAULTS_MIN, "page faults served without I/O"),
	SW("major-faults", PAGE_FAULTS_MAJ, "page faults that needed I/O"),
	SW("alignment-faults", ALIGNMENT_FAULTS, "unaligned accesses fixed up by the kernel"),
	SW("emulation-faults", EMULATION_FAULTS, "instructions emulated by the kernel"),
	SW("dummy", DUMMY, "counts nothing; carries side-band records"),
	SW("bpf-output", BPF_OUTPUT, "BPF program output"),
	SW("cgroup-switches", CGROUP_SWITCHES, "switches between cgroups"),
};
const size_t pmc__event_nr_generic = sizeof(pmc__event_generic) / sizeof(pmc__event_generic[0]);

/*
 * perf's tool events (its event_symbols_tool): times pmc measures itself around each run, in
 * ns, no counter behind them (docs/events.md, "Tool events").
 */
const struct pmc_event_name pmc__event_tool[] = {
	{"duration_time", 0, PMC_TOOL_DURATION_TIME, "wall time of each run, ns"},
	{"user_time", 0, PMC_TOOL_USER_TIME, "user CPU time of the command (rusage), ns"},
	{"system_time", 0, PMC_TOOL_SYSTEM_TIME, "system CPU time of the command (rusage), ns"},
};
const size_t pmc__event_nr_tool = sizeof(pmc__event_tool) / sizeof(pmc__event_tool[0]);

/* perf's evsel__hw_cache*, in the order of enum perf_hw_cache_{id,op_id,op_result_id}. */
const char *const pmc__cache_names[PERF_COUNT_HW_CACHE_MAX][PMC_CACHE_MAX_ALIASES] = {
	{"L1-dcache", "l1-d", "l1d", "L1-data"},
	{"L1-icache", "l1-i", "l1i", "L1-instruction"},
	{"LLC", "L2"},
	{"dTLB", "d-tlb", "Data-TLB"},
	{"iTLB", "i-tlb", "Instruction-TLB"},
	{"branch", "branches", "bpu", "btb", "bpc"},
	{"node"},
};

/* The second spelling is the plural perf uses in canonical access names ("L1-dcache-loads"). */
const char *const pmc__cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][PMC_CACHE_MAX_ALIASES] = {
	{"load", "loads", "read"},
	{"store", "stores", "write"},
	{"prefetch", "prefetches", "speculative-read", "speculative-load"},
};

const char *const pmc__cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][PMC_CACHE_MAX_ALIASES] = {
	{"refs", "Reference", "ops", "access"},
	{"misses", "miss"},
};

#define OP(x) (1u << PERF_COUNT_HW_CACHE_OP_##x)
const unsigned pmc__cache_ops_valid[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_L1I] = OP(READ) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_LL] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_DTLB] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_ITLB] = OP(READ),
	[PERF_COUNT_HW_CACHE_BPU] = OP(READ),
	[PERF_COUNT_HW_CACHE_NODE] = OP(READ) | OP(WRITE) | OP(PREFETCH),
};

const char *const pmc__cache_descs[PERF_COUNT_HW_CACHE_MAX] = {
	"L1 data cache",   "L1 instruction cache",   "last-level cache",  "data TLB",
	"instruction TLB", "branch prediction unit", "local memory node",
};

/* docs/events.md, "Breakpoints"; the examples are judged by pmc list as the forms' verdicts. */
const struct pmc_event_form pmc__breakpoint_forms[] = {
	{"mem:ADDR[/LEN][:rw]", "mem:0x1000",
	 "hardware breakpoint: reads and writes of the LEN bytes at ADDR (LEN 1, 2, 4 or 8; "
	 "default 4)"},
	{"mem:ADDR[/LEN]:r", "mem:0x1000:r", "hardware breakpoint: reads of the LEN bytes at ADDR"},
	{"mem:ADDR[/LEN]:w", "mem:0x1000:w",
	 "hardware breakpoint: writes of the LEN bytes at ADDR"},
	{"mem:ADDR:x", "mem:0x1000:x",
	 "hardware breakpoint: executions of the instruction at ADDR"},
};
const size_t pmc__nr_breakpoint_forms =
	sizeof(pmc__breakpoint_forms) / sizeof(pmc__breakpoint_forms[0]);

#define PMC_PRESET(name, generic, corei7, papi, line, desc) \
	{name, generic, corei7, papi, line, desc},
const struct pmc_preset pmc__presets[] = {
#include "data/presets/papi.def"
};
#undef PMC_PRESET
const size_t pmc__nr_presets = sizeof(pmc__presets) / sizeof(pmc__presets[0]);
