/* SPDX-License-Identifier: MIT */
/* The vpmu ABI: client requests a guest (or libpmc) sends to the vpmu Valgrind tool, and the
 * records the tool writes to its --out-fd stream; specified in docs/vpmu.md. */
#ifndef VPMU_PROTOCOL_H
#define VPMU_PROTOCOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any incompatible change; PRESENT returns it (0 when not running under vpmu). */
#define VPMU_PROTO_VERSION 2 /* 2: call chains, heap blocks (docs/vpmu.md, "Versions") */

/* Every struct exchanged with the tool starts with this header.  size is the size of the whole
 * struct or record in bytes, so fields can be appended in later versions: a reader skips what it
 * does not know, and the tool refuses buffers smaller than the version-1 layout. */
struct vpmu_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type; /* enum vpmu_rec_type for stream records; 0 for request structs */
	uint32_t size;
	uint32_t reserved;
};

#define VPMU_MAGIC_INFO 0x564d5049u   /* "IPMV" struct vpmu_info */
#define VPMU_MAGIC_COUNTS 0x564d5043u /* "CPMV" struct vpmu_counts */
#define VPMU_MAGIC_RECORD 0x564d5052u /* "RPMV" every stream record and sample */
#define VPMU_MAGIC_LBR 0x564d504cu    /* "LPMV" struct vpmu_lbr_stack */

/* ---- programming models -------------------------------------------------------------- */

enum vpmu_model {
	VPMU_MODEL_COREI7 = 1,	/* PerfEvtSel layout, 4 general + 3 fixed counters of 48 bits */
	VPMU_MODEL_PENTIUM = 2, /* CESR layout, 2 counters of 40 bits */
};

/*
 * The models' issue width W: uops (one per instruction) issued and retired per cycle at most.
 * The timing model lays each instruction out as its penalty cycles and one retire cycle
 * (docs/vpmu.md, "Timing model"), so W is 1. The only source of the width: the tool asserts
 * its timing model against it, and libpmc's #slots for vpmu is W (docs/metrics.md).
 */
#define VPMU_ISSUE_WIDTH 1

#define VPMU_MAX_COUNTERS 8
#define VPMU_COREI7_NR_GP 4
#define VPMU_COREI7_NR_FIXED 3
#define VPMU_COREI7_FIXED_BASE 4 /* counter index of INST_RETIRED.ANY */
#define VPMU_COREI7_WIDTH 48
#define VPMU_PENTIUM_NR 2
#define VPMU_PENTIUM_WIDTH 40

/* Core i7 IA32_PERFEVTSELx fields (guide, Appendix II). */
#define VPMU_EVTSEL_EVENT(c) ((uint32_t)(c)&0xffu)
#define VPMU_EVTSEL_UMASK(c) (((uint32_t)(c) >> 8) & 0xffu)
#define VPMU_EVTSEL_USR (1u << 16)
#define VPMU_EVTSEL_OS (1u << 17)
#define VPMU_EVTSEL_EDGE (1u << 18)
#define VPMU_EVTSEL_INT (1u << 20)
#define VPMU_EVTSEL_ANY (1u << 21)
#define VPMU_EVTSEL_EN (1u << 22)
#define VPMU_EVTSEL_INV (1u << 23)
#define VPMU_EVTSEL_CMASK(c) (((uint32_t)(c) >> 24) & 0xffu)
#define VPMU_EVTSEL(ev, um) ((uint64_t)(ev) | ((uint64_t)(um) << 8))

/* Fixed counters take the 4-bit field of IA32_FIXED_CTR_CTRL that belongs to them. */
#define VPMU_FIXED_OS 0x1u
#define VPMU_FIXED_USR 0x2u
#define VPMU_FIXED_ANY 0x4u
#define VPMU_FIXED_PMI 0x8u

/* Pentium: one counter's half of the CESR: ES in bits 5:0, CC in bits 8:6 (thesis Table 2.2). */
#define VPMU_P5_ES(c) ((uint32_t)(c)&0x3fu)
#define VPMU_P5_CC(c) (((uint32_t)(c) >> 6) & 0x7u)
#define VPMU_P5_CC_OS 0x1u
#define VPMU_P5_CC_USR 0x2u
#define VPMU_P5_CC_CLOCKS 0x4u

/* "MSRs" a guest may write with VPMU_REQ_WRMSR. */
#define VPMU_MSR_PEBS_LD_LAT 0x3f6u /* bits 15:0: minimum load latency of the latency event */
#define VPMU_MSR_LBR_SELECT 0x1c8u  /* Table 7 filter bits below */
#define VPMU_MSR_DEBUGCTL 0x1d9u    /* bit 0 (LBR) enables the last-branch record */

/* LBR_SELECT filter bits (guide Table 7): a set bit EXCLUDES that kind of branch. */
#define VPMU_LBR_CPL_EQ_0 (1u << 0)
#define VPMU_LBR_CPL_NEQ_0 (1u << 1)
#define VPMU_LBR_JCC (1u << 2)
#define VPMU_LBR_NEAR_REL_CALL (1u << 3)
#define VPMU_LBR_NEAR_IND_CALL (1u << 4)
#define VPMU_LBR_NEAR_RET (1u << 5)
#define VPMU_LBR_NEAR_IND_JMP (1u << 6)
#define VPMU_LBR_NEAR_REL_JMP (1u << 7)
#define VPMU_LBR_FAR_BRANCH (1u << 8)
#define VPMU_LBR_DEPTH 16

/* ---- client requests ----------------------------------------------------------------- */

/* Same value as VG_USERREQ_TOOL_BASE('V','P') in <valgrind.h>. */
#define VPMU_REQ_BASE ((((unsigned int)'V') & 0xff) << 24 | (((unsigned int)'P') & 0xff) << 16)

/* Arguments are listed as (a1, a2, ...); every request returns a value.  Requests returning
 * an error return a negative errno as a signed 64-bit value; the reason is then available as
 * text from VPMU_REQ_STRERROR.  Natively (not under Valgrind) every request returns 0. */
enum vpmu_request {
	VPMU_REQ_PRESENT = VPMU_REQ_BASE + 1, /* () -> VPMU_PROTO_VERSION */
	VPMU_REQ_QUERY,			      /* (struct vpmu_info *, size) -> 0 | -errno */
	VPMU_REQ_PROGRAM,		      /* (idx, config, period, flags) -> 0 | -errno */
	VPMU_REQ_START,			      /* (counter mask) -> 0 */
	VPMU_REQ_STOP,			      /* (counter mask) -> 0 */
	VPMU_REQ_RESET,	     /* (counter mask) -> 0: value of this thread's counters := 0 */
	VPMU_REQ_READ,	     /* (idx) -> value of the calling thread's counter */
	VPMU_REQ_READ_ALL,   /* (struct vpmu_counts *, size, which) -> 0 | -errno */
	VPMU_REQ_DRAIN,	     /* (buffer, size) -> bytes of whole sample records copied */
	VPMU_REQ_WRMSR,	     /* (msr, value) -> 0 | -errno */
	VPMU_REQ_STRERROR,   /* (char *buf, size) -> length of the last error reason */
	VPMU_REQ_READ_LBR,   /* (struct vpmu_lbr_stack *, size) -> 0 | -errno */
	VPMU_REQ_READ_TOTAL, /* (idx) -> value summed over all threads, dead ones included */
};

#define VPMU_ALL_COUNTERS 0xffffffffu

/* PROGRAM flags. */
#define VPMU_PROG_PRECISE 0x1u	 /* sample at the eventing instruction (PEBS-like) */
#define VPMU_PROG_IMPRECISE 0x2u /* sample --skid instructions later (interrupt-like) */
#define VPMU_PROG_LBR 0x4u	 /* copy the LBR stack into each sample */
/* Frequency mode: the period argument is a rate, samples per second of modelled time, and the
 * tool adapts the period as Linux's frequency mode does (docs/vpmu.md, "Frequency mode"). */
#define VPMU_PROG_FREQ 0x8u
/* The modelled clock: one cycle is one nanosecond of modelled time (sample times are the
 * thread's modelled cycles; frequency mode counts its seconds in them). */
#define VPMU_CLOCK_HZ 1000000000ull
#define VPMU_MAX_FREQ VPMU_CLOCK_HZ

/* READ_ALL "which" argument. */
#define VPMU_READ_THREAD 0 /* the calling thread */
#define VPMU_READ_TOTAL 1  /* all threads */

struct vpmu_info {
	struct vpmu_hdr
		hdr;	/* magic VPMU_MAGIC_INFO; the guest sets size, the tool fills the rest */
	uint32_t model; /* enum vpmu_model */
	uint32_t nr_counters;
	uint32_t nr_fixed;
	uint32_t width_bits;
	uint32_t nr_threads; /* threads seen so far */
	uint32_t pad;
	uint64_t dropped_samples;
	char preset[16];
};

struct vpmu_counts {
	struct vpmu_hdr hdr; /* magic VPMU_MAGIC_COUNTS */
	uint32_t nr;	     /* counters filled */
	uint32_t tid;	     /* Linux thread id, 0 for a total */
	uint64_t config[VPMU_MAX_COUNTERS];
	uint64_t value[VPMU_MAX_COUNTERS];
};

struct vpmu_lbr_entry {
	uint64_t from;
	uint64_t to;
	uint64_t flags; /* VPMU_BR_* kind of the branch, VPMU_BR_MISPRED bit */
};

#define VPMU_BR_COND 1u
#define VPMU_BR_REL_JMP 2u
#define VPMU_BR_IND_JMP 3u
#define VPMU_BR_REL_CALL 4u
#define VPMU_BR_IND_CALL 5u
#define VPMU_BR_RET 6u
#define VPMU_BR_KIND_MASK 0xfu
#define VPMU_BR_MISPRED 0x10u

struct vpmu_lbr_stack {
	struct vpmu_hdr hdr; /* magic VPMU_MAGIC_LBR */
	uint32_t nr;	     /* valid entries, most recent first */
	uint32_t pad;
	struct vpmu_lbr_entry e[VPMU_LBR_DEPTH];
};

/* ---- the --out-fd stream and DRAIN records -------------------------------------------- */

/* The stream is a sequence of records, each starting with struct vpmu_hdr (magic
 * VPMU_MAGIC_RECORD, size = whole record including variable parts, 8-byte aligned).  The first
 * record is VPMU_REC_BEGIN, the last VPMU_REC_END. */
enum vpmu_rec_type {
	VPMU_REC_BEGIN = 1,
	VPMU_REC_COMM = 2,
	VPMU_REC_MMAP = 3,
	VPMU_REC_FORK = 4,
	VPMU_REC_THREAD = 5,
	VPMU_REC_EXIT = 6,
	VPMU_REC_SAMPLE = 7,
	VPMU_REC_COUNTS = 8,
	VPMU_REC_LOST = 9,
	VPMU_REC_END = 10,
	VPMU_REC_EXEC = 11,
	VPMU_REC_SITE = 12, /* version 2: an allocation site, before the first sample naming it */
	VPMU_REC_REFUSED = 13, /* a clone Valgrind refuses, before Valgrind ends the process */
};

/* What REFUSED names: a clone(CLONE_VM) that is no thread (Valgrind runs threads, fork, vfork). */
#define VPMU_REFUSED_CLONE 1

struct vpmu_rec_refused {
	struct vpmu_hdr hdr;
	uint32_t pid;
	uint32_t what;	/* VPMU_REFUSED_* */
	uint64_t flags; /* the clone flags */
};

struct vpmu_rec_begin {
	struct vpmu_hdr hdr;
	uint32_t model;
	uint32_t nr_counters;
	uint32_t pid;
	uint32_t width_bits;
	uint64_t config[VPMU_MAX_COUNTERS];
	uint64_t period[VPMU_MAX_COUNTERS];
	char preset[16];
};

struct vpmu_rec_comm {
	struct vpmu_hdr hdr;
	uint32_t pid;
	uint32_t tid;
	char comm[16]; /* NUL-terminated */
};

struct vpmu_rec_mmap { /* a file-backed executable mapping of the client */
	struct vpmu_hdr hdr;
	uint32_t pid;
	uint32_t prot; /* PROT_* bits */
	uint64_t addr;
	uint64_t len;
	uint64_t pgoff;
	char path[]; /* NUL-terminated, padded to 8 bytes; hdr.size covers it */
};

struct vpmu_rec_task { /* FORK, THREAD (a new thread) and EXIT */
	struct vpmu_hdr hdr;
	uint32_t pid;
	uint32_t ppid;
	uint32_t tid;
	uint32_t ptid;
	int32_t exit_code; /* EXIT only */
	uint32_t pad;
};

/* Written just before the process calls execve (the image's samples, lost count and COUNTS
 * precede it): a BEGIN with the same pid then starts the new image, which Valgrind runs under
 * the tool when VPMU_EXEC_FOLLOWED is set (--trace-children=yes). An exec that fails writes
 * nothing more: the process goes on and its later COUNTS supersede the ones before EXEC. */
struct vpmu_rec_exec {
	struct vpmu_hdr hdr;
	uint32_t pid;
	uint32_t tid;
	uint32_t flags; /* VPMU_EXEC_* */
	uint32_t pad;
	char path[]; /* the path given to execve, NUL-terminated, padded to 8 bytes */
};

#define VPMU_EXEC_FOLLOWED 0x1u /* the new image runs under the tool, its stream follows */

/* Sample flags. */
#define VPMU_SAMPLE_PRECISE 0x1u  /* ip is the eventing instruction */
#define VPMU_SAMPLE_HAS_ADDR 0x2u /* addr, latency and data_src are valid */
#define VPMU_SAMPLE_HAS_LBR 0x4u
#define VPMU_SAMPLE_HAS_CALLCHAIN 0x8u /* callchain[] holds nr_callchain addresses */
#define VPMU_SAMPLE_HAS_BLOCK 0x10u    /* addr is in the live heap block block_addr.. */

/* The most frames a sample's call chain holds (perf's default kernel.perf_event_max_stack). */
#define VPMU_MAX_CALLCHAIN 127

/* Register order in regs[] (the PEBS record's order). */
enum vpmu_reg {
	VPMU_REG_RAX,
	VPMU_REG_RBX,
	VPMU_REG_RCX,
	VPMU_REG_RDX,
	VPMU_REG_RSI,
	VPMU_REG_RDI,
	VPMU_REG_RBP,
	VPMU_REG_RSP,
	VPMU_REG_R8,
	VPMU_REG_R9,
	VPMU_REG_R10,
	VPMU_REG_R11,
	VPMU_REG_R12,
	VPMU_REG_R13,
	VPMU_REG_R14,
	VPMU_REG_R15,
	VPMU_REG_RFLAGS,
	VPMU_REG_RIP,
	VPMU_NR_REGS
};

/* Data-source encoding of the guide's Table 5 (only the values vpmu produces). */
#define VPMU_DSRC_UNKNOWN 0x0u
#define VPMU_DSRC_L1_HIT 0x1u
#define VPMU_DSRC_L2_HIT 0x3u
#define VPMU_DSRC_L3_HIT 0x4u
#define VPMU_DSRC_LOCAL_DRAM 0xcu /* Local_Dram_GoTo_E: the model has one core, one socket */

struct vpmu_rec_sample {
	struct vpmu_hdr hdr;
	uint32_t pid;
	uint32_t tid;
	uint32_t counter;  /* index of the counter that overflowed */
	uint32_t flags;	   /* VPMU_SAMPLE_* */
	uint64_t ip;	   /* eventing IP (precise) or the IP skid instructions later */
	uint64_t event_ip; /* the eventing instruction, also for imprecise samples */
	uint64_t time;	   /* modelled cycles of this thread when the sample was taken */
	uint64_t period;
	uint64_t counter_value;	     /* the counter's event count at the overflow */
	uint64_t regs[VPMU_NR_REGS]; /* state before the eventing (precise) instruction executes */
	uint64_t addr;		     /* data linear address */
	uint64_t latency;	     /* modelled load-to-use latency in cycles */
	uint64_t data_src;	     /* VPMU_DSRC_* */
	uint32_t nr_lbr;
	uint32_t pad;
	struct vpmu_lbr_entry lbr[VPMU_LBR_DEPTH];
	/* Version 2: the heap block that holds addr (tool vpmuheap, which replaces the client's
	 * allocator): its start, size and allocation site (a VPMU_REC_SITE id). */
	uint64_t block_addr;
	uint64_t block_size;
	uint32_t block_site;
	/* Version 2: the guest's call stack when the tool runs with --callchain=N: callchain[0]
	 * is ip, callchain[1..] the return addresses of the callers, innermost first (as the
	 * kernel writes a user call chain); hdr.size covers them. */
	uint32_t nr_callchain;
	uint64_t callchain[];
};

/* At exit, and before an exec: one per thread, then one total with tid 0. The values are those
 * of the process image since it started (or since fork), so the last total of an image is
 * its count: an image ends at its EXIT, or when a BEGIN (exec) or FORK (pid reused) names its
 * pid again. */
struct vpmu_rec_counts {
	struct vpmu_hdr hdr;
	uint32_t pid;
	uint32_t tid;
	uint32_t nr;
	uint32_t pad;
	uint64_t config[VPMU_MAX_COUNTERS];
	uint64_t value[VPMU_MAX_COUNTERS];
};

/* An allocation site: the code that called malloc, calloc, realloc, memalign, new or new[]
 * (the first caller outside the allocator), written once, before the first sample whose data
 * address is in a block allocated there. */
struct vpmu_rec_site {
	struct vpmu_hdr hdr;
	uint32_t id; /* what samples' block_site names */
	uint32_t pad;
	uint64_t ip; /* the return address of the allocating call */
	char name[]; /* "func+0xOFF (file.c:LINE)" as far as debug information tells,
		      * NUL-terminated, padded to 8 bytes */
};

struct vpmu_rec_lost {
	struct vpmu_hdr hdr;
	uint64_t lost;
};

/* vpmu-specific Core i7 events (no such event exists on the real CPU); codes 0x60-0x6f are
 * unused by the Core i7 guide.  Umasks are listed in docs/vpmu.md and data/vpmu/events.tsv. */
#define VPMU_EV_STALLS 0x60   /* modelled stall cycles by cause */
#define VPMU_EV_SYSCALL 0x61  /* system-call instructions */
#define VPMU_EV_MISALIGN 0x62 /* misaligned and cache-line-split accesses */
#define VPMU_EV_BRANCHES 0x63 /* branches by kind, incl. jumps the guide has no event for */

#ifdef __cplusplus
}
#endif

#endif
