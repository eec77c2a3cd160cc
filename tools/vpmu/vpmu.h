/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal state shared by the files of the vpmu tool: configuration, per-thread counters,
 * cache/TLB/predictor models, and the entry points each file provides. */
#ifndef VPMU_H
#define VPMU_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "libvex_guest_amd64.h"
#include <vpmu/protocol.h>
#include "vpmu-events.h"

/* Valgrind's printing calls under names clang-format lays out as calls: it splits VG_(f)(...)
 * between its two parentheses. */
#define vp_umsg(...) VG_(umsg)(__VA_ARGS__)
#define vp_printf(...) VG_(printf)(__VA_ARGS__)
#define vp_snprintf(...) VG_(snprintf)(__VA_ARGS__)

#define VP_MAX_THREADS 512

/* ---- configuration (options and presets) ---- */

struct vp_cache_geom {
	UInt size_bytes;
	UInt ways; /* 0 = fully associative */
	UInt line_bytes;
	UInt latency; /* load-to-use cycles when this level serves the access */
};

struct vp_config {
	const HChar *preset;
	UInt model;				/* enum vpmu_model */
	struct vp_cache_geom l1i, l1d, l2, llc; /* llc.size_bytes == 0: no LLC */
	struct vp_cache_geom itlb, dtlb;	/* size_bytes = entries, line_bytes = page */
	UInt mem_latency;
	UInt tlb_penalty;
	UInt split_penalty;
	UInt store_miss_penalty;
	UInt div_penalty;
	UInt misp_penalty;
	Bool write_allocate;
	Bool p5_btb; /* Pentium predictor: BTB with 2-bit counters, no RAS, no gshare */
	UInt btb_entries, btb_ways, ghist_bits, ras_depth;
	Bool p5_errata;
	UInt skid;
	UInt period_jitter; /* percent of the period a period may move by, 0 to 90 */
	ULong seed;	    /* seeds the jitter's generator: equal seeds, equal samples */
	UInt ld_lat;	    /* MSR 0x3f6 */
	UInt lbr_select;    /* MSR 0x1c8 */
	Bool lbr_on;
	Int out_fd;
	UInt sample_buf;
	UInt callchain;	  /* frames of the guest's stack in each sample, 0: none */
	Bool data_maps;	  /* the stream's MMAP records include data and anonymous mappings */
	Bool start;	  /* counters run from the first instruction */
	Bool host_vector; /* look sets up with the host's AVX2 when it has it */
};

extern struct vp_config vp_clo;

/* ---- counters ---- */

struct vp_counter {
	Bool programmed;
	Bool running; /* EN set and started */
	Bool cond;    /* cmask != 0: evaluated per modelled cycle */
	UChar cmask, inv, edge;
	ULong config;
	ULong mask;   /* signals summed; 0 when the privilege filter excludes user code */
	ULong period; /* 0: counting only; with VPMU_PROG_FREQ, samples per modelled second */
	UInt flags;   /* VPMU_PROG_* */
};

struct vp_thread {
	Bool used;
	Int os_tid;
	ULong sig[VP_SIG_NR];
	ULong acc[VPMU_MAX_COUNTERS];
	ULong base[VPMU_MAX_COUNTERS];
	ULong next_ovf[VPMU_MAX_COUNTERS];
	ULong cur_period[VPMU_MAX_COUNTERS]; /* the period that ends at next_ovf */
	ULong rng[VPMU_MAX_COUNTERS];	     /* the jitter's generator state */
	/* Frequency mode (vpmu-freq.c): the count at the previous sample, the adapted period
	 * (the kernel's hwc->sample_period), the modelled time of the previous overflow (~0
	 * before the first) and the count at the previous tick. */
	ULong last_ovf[VPMU_MAX_COUNTERS];
	ULong freq_period[VPMU_MAX_COUNTERS];
	ULong freq_time[VPMU_MAX_COUNTERS];
	ULong freq_count[VPMU_MAX_COUNTERS];
	ULong next_tick;		   /* this thread's modelled cycles at its next tick */
	Bool cond_prev[VPMU_MAX_COUNTERS]; /* edge detection: condition in the last cycle */
	ULong cyc_snap[VP_SIG_NR];	   /* cmask: signals at the previous instruction boundary */
	ULong skid_at;			   /* 0 while a skidded sample is pending, else ~0 */
	UInt skid_left;			   /* instructions still to retire before it is taken */
	UInt skid_ctr;
	Addr skid_event_ip;
	ULong skid_period; /* the period that ended at the skidded sample's event */
	struct vpmu_lbr_entry lbr[VPMU_LBR_DEPTH];
	UInt lbr_top, lbr_nr;
};

extern ULong vp_sig[VP_SIG_NR]; /* the running thread's signals; inline IR adds to these */
extern ULong vp_watch;		/* signals that feed a sampling counter */
extern ULong vp_insn_fire_at;	/* INSN count at which h_insn_tick must look */
extern struct vp_counter vp_ctr[VPMU_MAX_COUNTERS];
extern UInt vp_nr_ctr;
extern struct vp_thread *vp_cur;
extern ThreadId vp_cur_tid;
extern struct vp_thread vp_threads[VP_MAX_THREADS];

static inline ULong vp_sig_bits(const ULong *sig, ULong mask)
{
	ULong v = 0;

	while (mask) {
		v += sig[__builtin_ctzll(mask)];
		mask &= mask - 1;
	}
	return v;
}

/* The sum of the signals of mask in sig (vp_sig or a parked thread's copy).  STALL_BR is never
 * added to: every mispredicted branch costs misp_penalty cycles, so it is the penalty times
 * the mispredictions, and the generated code of a branch is one addition shorter. */
static inline ULong vp_sig_sum(const ULong *sig, ULong mask)
{
	ULong br = (mask & VP_BIT(VP_SIG_STALL_BR)) ? vp_sig_bits(sig, VP_MISP_ALL_MASK) : 0;

	return br * vp_clo.misp_penalty + vp_sig_bits(sig, mask & ~VP_BIT(VP_SIG_STALL_BR));
}

/* What the current programming needs instrumented; recomputed on every PROGRAM. */
struct vp_needs {
	Bool mem, dcache, icache, branch, cycle_cond, insn_tick;
	Bool freq;  /* some counter samples in frequency mode: modelled time is watched */
	ULong sigs; /* the signals some programmed counter sums */
};
extern struct vp_needs vp_need;

/* vpmu-counter.c */
void vp_counters_init(void);
Int vp_counter_program(UInt idx, ULong config, ULong period, UInt flags, HChar *why, Int why_len);
void vp_counters_start(UInt mask);
void vp_counters_stop(UInt mask);
void vp_counters_reset(UInt mask);
ULong vp_counter_read(struct vp_thread *t, UInt idx);
ULong vp_counter_total(UInt idx);
void vp_period_restart(struct vp_thread *t, UInt k);
void vp_compute_needs(void);
void vp_thread_switch(ThreadId tid);
struct vp_thread *vp_thread_get(ThreadId tid);
void vp_flush_cur(void);
void vp_thread_exit(ThreadId tid);

/*
 * vpmu-jitter.c: a period of counter k of t drawn around p (p itself without --period-jitter);
 * and its generator restarted from --seed, the thread's slot and the counter.
 */
ULong vp_jitter(struct vp_thread *t, UInt k, ULong p);
void vp_jitter_seed(struct vp_thread *t, UInt k);

/* vpmu-freq.c: frequency mode (docs/vpmu.md, "Frequency mode") */
#define VP_TICK_CYCLES 4000000ull /* the kernel's tick at HZ=250 (Debian's), in modelled ns */
void vp_freq_restart(struct vp_thread *t, UInt k);
void vp_freq_reload(struct vp_thread *t, UInt k, ULong val, ULong now);
void vp_freq_tick(struct vp_thread *t, const ULong *val, ULong now);

/* vpmu-cache-set.c */
void *vp_alloc_lines(const HChar *cc, SizeT bytes);

/* vpmu-cache.c */
void vp_caches_init(void);
VG_REGPARM(3) void vp_h_load(Addr addr, ULong size, Addr imark);
VG_REGPARM(3) void vp_h_store(Addr addr, ULong size, Addr imark);
VG_REGPARM(2) void vp_h_ifetch(Addr line_addr, Addr imark);
VG_REGPARM(1) void vp_h_ifetch_fast(Addr line_addr);
/* Where a cache's tags are, for the inline most-recently-used check (vpmu-fastpath.c). */
struct vp_tag_view {
	ULong *tags; /* sets * ways, most recently used first; tag = line << 1 | dirty */
	ULong set_mask;
	UInt ways, line_shift;
};
void vp_data_tags(struct vp_tag_view *l1, struct vp_tag_view *tlb);
struct vp_helper {
	void *fn;
	const HChar *name;
	Bool takes_size; /* (address, size, px); else (address, px): px 0 when the page is MRU */
};
void vp_fast_data_helper(Bool store, Int size, struct vp_helper *h);
void vp_fetch_tags(struct vp_tag_view *l1, struct vp_tag_view *tlb);

/* vpmu-fastpath.c */
Bool vp_data_fast_ok(Int size);
void vp_emit_data_fast(IRSB *out, Bool store, IRExpr *addr, Int size);
void vp_emit_fetch_fast(IRSB *out, Addr line_addr, Bool check_page);

/* vpmu-branch.c */
void vp_bpred_init(void);
VG_REGPARM(3) void vp_h_cond(Addr pc, ULong taken, Addr target);
VG_REGPARM(3) void vp_h_cond_gshare(Addr pc, ULong taken, Addr target);
VG_REGPARM(3) void vp_h_jump(Addr pc, Addr target, ULong kind_and_next);
VG_REGPARM(3) void vp_h_cond_btb(Addr pc, ULong taken, Addr target);
VG_REGPARM(2) void vp_h_jump_btb(Addr pc, Addr target);
VG_REGPARM(3) void vp_h_ind_btb(Addr pc, Addr target, ULong kind);
/* Where the gshare state is, for the inline conditional branch (vpmu-branch-ir.c). */
struct vp_gshare_view {
	UInt *ghist;
	UChar *pht; /* 2-bit counters, one to a byte */
	UInt pht_mask;
	const UChar *pht_step; /* see vpmu-branch.c */
	Addr *btb_mru;	       /* the most recently used way of a given pc's BTB set */
	Addr *btb_mru_target;
	Addr *ras;
	UInt *ras_top, *ras_nr;
};
void vp_gshare_view(struct vp_gshare_view *g, Addr pc);

/* vpmu-branch-ir.c */
Bool vp_cond_fast_ok(void);
void vp_emit_cond_fast(IRSB *out, Addr pc, IRExpr *taken, Addr target);
Bool vp_emit_direct_fast(IRSB *out, Addr pc, Addr target, UInt kind, Addr next);
Bool vp_emit_indirect_fast(IRSB *out, Addr pc, IRExpr *target, UInt kind, Addr next);

/* vpmu-ir.c: flat IR builders for the instrumenter and the fast paths */
IRExpr *vp_ir_tmp(IRSB *out, IRType ty, IRExpr *e);
IRExpr *vp_ir_bin(IRSB *out, IRType ty, IROp op, IRExpr *a, IRExpr *b);
IRExpr *vp_ir_un(IRSB *out, IRType ty, IROp op, IRExpr *a);
IRExpr *vp_ir_k32(UInt v);
IRExpr *vp_ir_k64(ULong v);
IRExpr *vp_ir_sig_slot(UInt s);
void vp_ir_add_sig(IRSB *out, UInt s, IRExpr *amount);

/* vpmu-classify.c: the static signals of each instruction of a superblock */
#define VP_MAX_INSNS 256
struct vp_insn_info {
	Addr addr;
	UInt len;
	UInt cls; /* VP_BIT of static signals, as a 32-bit set over VP_SIG_INSN..SYSCALL */
	Bool is_rep;
};
UInt vp_prepass(const IRSB *bb, struct vp_insn_info *info);

/* vpmu-instrument.c */
IRSB *vp_instrument(VgCallbackClosure *closure, IRSB *bb, const VexGuestLayout *layout,
		    const VexGuestExtents *vge, const VexArchInfo *archinfo, IRType gWordTy,
		    IRType hWordTy);

/* vpmu-stream.c: the --out-fd stream's writer and its side-band records */
void vp_hdr_init(struct vpmu_hdr *h, UInt magic, UInt type, UInt size);
void vp_out_write(const void *rec, UInt size);
void vp_out_begin(void);
void vp_out_task(UInt type, Int pid, Int ppid, Int tid, Int ptid, Int code);
void vp_out_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx);
void vp_out_brk(Addr a, SizeT len);
void vp_out_stack(void);
Bool vp_out_fd_open(Int fd);
void vp_out_protect(void);
#define VP_EXEC_PATH_MAX 4096
void vp_out_exec_rec(Addr path);
void vp_out_exec_failed(void);
/* vpmu-counter.c: a COUNTS record of thread t (NULL: the totals) */
void vp_out_counts(UInt tid, struct vp_thread *t);
/* vpmu-report.c: the last records of the run, or of a process image before its exec */
void vp_out_counts_and_end(Int exitcode);
void vp_out_exec(Addr path);

/* vpmu-heap.c: heap blocks and allocation sites under the tool name vpmuheap */
void vp_heap_pre_clo_init(void);
void vp_heap_sample(struct vpmu_rec_sample *s, Addr addr);

/* vpmu-options.c */
void vp_options_init(void);
Bool vp_process_option(const HChar *arg);
void vp_print_usage(void);
void vp_print_debug_usage(void);
void vp_options_finish(void);
void vp_options_program(void);
Bool vp_options_regs_none(void);

/* vpmu-main.c */
void vp_set_error(const HChar *fmt, ...) PRINTF_CHECK(1, 2);

#endif
