/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Programmable counters of both models: decoding PerfEvtSel/CESR encodings onto signals,
 * per-thread values, start/stop/reset, and what the programming needs instrumented. */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_libcproc.h"
#include "vpmu.h"
#include "vpmu-sample.h"

ULong vp_sig[VP_SIG_NR] __attribute__((aligned(64))); /* see enum vp_sig */
ULong vp_watch;
ULong vp_insn_fire_at = ~0ULL;
struct vp_counter vp_ctr[VPMU_MAX_COUNTERS];
UInt vp_nr_ctr;
struct vp_thread *vp_cur;
ThreadId vp_cur_tid;
struct vp_thread vp_threads[VP_MAX_THREADS];
struct vp_needs vp_need;

/* Signals that only the data-side, instruction-side (both feed the unified L2/LLC, so they
 * are switched on together), branch or per-access models produce. */
#define B(s) VP_BIT(VP_SIG_##s)
#define MEM_SIGS                                                                            \
	(B(LOAD) | B(STORE) | B(MISALIGN_LD) | B(MISALIGN_ST) | B(SPLIT_LD) | B(SPLIT_ST) | \
	 B(P5_MISALIGN_LD) | B(P5_MISALIGN_ST))
#define CACHE_SIGS \
	((B(ITLB_MISS + 1) - B(L1D_LD_HIT)) | B(STALL_IFETCH) | B(STALL_LOAD) | B(STALL_STORE))
#define BRANCH_SIGS ((B(P5_TAKEN_OR_BTB + 1) - B(BR_COND_TAKEN)) | B(STALL_BR))

static const ULong *sig_of(const struct vp_thread *t)
{
	return t == vp_cur ? vp_sig : t->sig;
}

static UInt width_bits(UInt idx)
{
	(void)idx;
	return vp_clo.model == VPMU_MODEL_PENTIUM ? VPMU_PENTIUM_WIDTH : VPMU_COREI7_WIDTH;
}

/* The counter's event count (not wrapped) for thread t. */
static ULong raw_value(struct vp_thread *t, UInt idx)
{
	const struct vp_counter *c = &vp_ctr[idx];

	if (c->cond || !c->running)
		return t->acc[idx];
	return t->acc[idx] + vp_sig_sum(sig_of(t), c->mask) - t->base[idx];
}

ULong vp_counter_read(struct vp_thread *t, UInt idx)
{
	if (idx >= vp_nr_ctr || !t)
		return 0;
	if (vp_need.cycle_cond && t == vp_cur)
		vp_cycle_close();
	return raw_value(t, idx) & ((1ULL << width_bits(idx)) - 1);
}

static ULong dead_acc[VPMU_MAX_COUNTERS]; /* counts of threads that have exited */

ULong vp_counter_total(UInt idx)
{
	ULong sum = idx < VPMU_MAX_COUNTERS ? dead_acc[idx] : 0;
	UInt i;

	for (i = 0; i < VP_MAX_THREADS; i++)
		if (vp_threads[i].used)
			sum += vp_counter_read(&vp_threads[i], idx);
	return sum & ((1ULL << width_bits(idx)) - 1);
}

struct vp_thread *vp_thread_get(ThreadId tid)
{
	struct vp_thread *t;
	UInt i;

	if (tid >= VP_MAX_THREADS)
		tid = VP_MAX_THREADS - 1; /* never in practice: Valgrind's default is 500 threads */
	t = &vp_threads[tid];
	if (!t->used) {
		VG_(memset)(t, 0, sizeof(*t));
		t->used = True;
		t->skid_at = ~0ULL;
		t->next_tick = VP_TICK_CYCLES; /* its modelled time starts at 0 */
		for (i = 0; i < VPMU_MAX_COUNTERS; i++)
			vp_period_restart(t, i);
	}
	return t;
}

/* Called when a thread starts running client code: the inline counters always address
 * vp_sig, so the outgoing thread's signals are parked and the incoming one's loaded. */
void vp_thread_switch(ThreadId tid)
{
	struct vp_thread *t;

	if (tid == vp_cur_tid && vp_cur)
		return;
	if (vp_need.cycle_cond && vp_cur)
		vp_cycle_close();
	if (vp_cur)
		VG_(memcpy)(vp_cur->sig, vp_sig, sizeof(vp_sig));
	t = vp_thread_get(tid);
	if (!t->os_tid)
		t->os_tid = VG_(gettid)();
	VG_(memcpy)(vp_sig, t->sig, sizeof(vp_sig));
	vp_cur = t;
	vp_cur_tid = tid;
	vp_insn_fire_at = 0; /* let the next tick recompute it for this thread */
}

/* Valgrind reuses ThreadIds: an exiting thread reports its counts and leaves its slot. */
void vp_thread_exit(ThreadId tid)
{
	struct vp_thread *t;
	UInt k;

	if (tid >= VP_MAX_THREADS || !vp_threads[tid].used)
		return;
	t = &vp_threads[tid];
	if (t == vp_cur && vp_need.cycle_cond)
		vp_cycle_close();
	if (t == vp_cur)
		VG_(memcpy)(t->sig, vp_sig, sizeof(vp_sig));
	for (k = 0; k < vp_nr_ctr; k++)
		dead_acc[k] += vp_counter_read(t, k);
	if (vp_clo.out_fd >= 0)
		vp_out_counts(t->os_tid, t);
	t->used = False;
	if (t == vp_cur) {
		vp_cur = NULL;
		vp_cur_tid = 0;
	}
}

void vp_flush_cur(void)
{
	if (vp_cur)
		VG_(memcpy)(vp_cur->sig, vp_sig, sizeof(vp_sig));
}

static void for_each_thread(UInt mask, void (*fn)(struct vp_thread *, UInt))
{
	UInt i, k;

	if (vp_need.cycle_cond && vp_cur)
		vp_cycle_close();
	for (i = 0; i < VP_MAX_THREADS; i++) {
		if (!vp_threads[i].used)
			continue;
		for (k = 0; k < vp_nr_ctr; k++)
			if ((mask >> k) & 1)
				fn(&vp_threads[i], k);
	}
}

static void stop_one(struct vp_thread *t, UInt k)
{
	if (vp_ctr[k].running && !vp_ctr[k].cond)
		t->acc[k] += vp_sig_sum(sig_of(t), vp_ctr[k].mask) - t->base[k];
}

static void start_one(struct vp_thread *t, UInt k)
{
	if (!vp_ctr[k].running)
		t->base[k] = vp_sig_sum(sig_of(t), vp_ctr[k].mask);
}

static void reset_one(struct vp_thread *t, UInt k)
{
	t->acc[k] = 0;
	t->base[k] = vp_sig_sum(sig_of(t), vp_ctr[k].mask);
	vp_period_restart(t, k);
	t->cond_prev[k] = False;
}

void vp_counters_stop(UInt mask)
{
	UInt k;

	for_each_thread(mask, stop_one);
	for (k = 0; k < vp_nr_ctr; k++)
		if ((mask >> k) & 1)
			vp_ctr[k].running = False;
}

static Bool counter_enabled(UInt k)
{
	const struct vp_counter *c = &vp_ctr[k];

	if (!c->programmed)
		return False;
	if (vp_clo.model == VPMU_MODEL_PENTIUM)
		return (VPMU_P5_CC(c->config) & 3) != 0;
	if (k >= VPMU_COREI7_FIXED_BASE)
		return (c->config & (VPMU_FIXED_OS | VPMU_FIXED_USR)) != 0;
	return (c->config & VPMU_EVTSEL_EN) != 0;
}

void vp_counters_start(UInt mask)
{
	UInt k;

	for (k = 0; k < vp_nr_ctr; k++)
		if (((mask >> k) & 1) && !counter_enabled(k))
			mask &= ~(1u << k);
	for_each_thread(mask, start_one);
	for (k = 0; k < vp_nr_ctr; k++)
		if ((mask >> k) & 1)
			vp_ctr[k].running = True;
}

void vp_counters_reset(UInt mask)
{
	for_each_thread(mask, reset_one);
}

void vp_counters_init(void)
{
	vp_nr_ctr = vp_clo.model == VPMU_MODEL_PENTIUM ? VPMU_PENTIUM_NR
						       : VPMU_COREI7_NR_GP + VPMU_COREI7_NR_FIXED;
}

/* ---- decoding encodings ---- */

static const struct vp_event_desc *find_row(UInt ev, UInt um)
{
	const struct vp_event_desc *tab = vp_events_corei7;
	UInt n = vp_nr_events_corei7, i;

	if (vp_clo.model == VPMU_MODEL_PENTIUM) {
		tab = vp_events_pentium;
		n = vp_nr_events_pentium;
		um = 0;
	}
	for (i = 0; i < n; i++)
		if (tab[i].event == ev && tab[i].umask == um)
			return &tab[i];
	return NULL;
}

/* Events whose umask is a set of independent conditions: an unlisted umask is the OR of its
 * bits, each of which must be a supported row. */
static Bool umask_is_bitset(UInt ev)
{
	static const UChar evs[] = {0x88, 0x89, 0x24, 0xc7, 0x10, 0xcb,
				    0x0b, 0xf0, 0x60, 0x62, 0x63};
	UInt i;

	for (i = 0; i < sizeof(evs); i++)
		if (evs[i] == ev)
			return True;
	return False;
}

static Int decode_event(UInt ev, UInt um, ULong *mask, HChar *why, Int wl)
{
	const struct vp_event_desc *r = find_row(ev, um);
	UInt bit;

	if (r && r->kind == VP_EV_UNSUPPORTED) {
		vp_snprintf(why, wl, "event 0x%02x umask 0x%02x (%s) is not supported: %s", ev, um,
			    r->name, r->desc);
		return -95; /* EOPNOTSUPP */
	}
	if (r) {
		*mask = r->mask | (vp_clo.p5_errata ? r->errata : 0);
		return 0;
	}
	if (vp_clo.model == VPMU_MODEL_PENTIUM || !umask_is_bitset(ev) || um == 0) {
		vp_snprintf(why, wl, "event 0x%02x umask 0x%02x is unknown to the %s model", ev, um,
			    vp_clo.model == VPMU_MODEL_PENTIUM ? "Pentium" : "Core i7");
		return -2; /* ENOENT */
	}
	*mask = 0;
	for (bit = 1; bit < 0x100; bit <<= 1) {
		if (!(um & bit))
			continue;
		r = find_row(ev, bit);
		if (!r || r->kind == VP_EV_UNSUPPORTED) {
			vp_snprintf(why, wl, "event 0x%02x umask bit 0x%02x: %s", ev, bit,
				    r ? r->desc : "no such condition in the model");
			return r ? -95 : -2;
		}
		*mask |= r->mask;
	}
	return 0;
}

static Int decode_corei7(struct vp_counter *c, UInt idx, ULong config, HChar *why, Int wl)
{
	Int err;

	if (idx >= VPMU_COREI7_FIXED_BASE) {
		static const ULong fixed_mask[3] = {VP_BIT(VP_SIG_INSN), VP_CYCLES_MASK,
						    VP_CYCLES_MASK};

		if (config & ~0xfULL) {
			vp_snprintf(why, wl, "fixed counter %u takes a 4-bit control field", idx);
			return -22;
		}
		c->mask = (config & VPMU_FIXED_USR) ? fixed_mask[idx - VPMU_COREI7_FIXED_BASE] : 0;
		return 0;
	}
	if (config >> 32) {
		vp_snprintf(why, wl, "PerfEvtSel bits 63:32 are reserved");
		return -22;
	}
	err = decode_event(VPMU_EVTSEL_EVENT(config), VPMU_EVTSEL_UMASK(config), &c->mask, why, wl);
	if (err)
		return err;
	c->cmask = VPMU_EVTSEL_CMASK(config);
	c->inv = (config & VPMU_EVTSEL_INV) != 0;
	c->edge = (config & VPMU_EVTSEL_EDGE) != 0;
	if (!c->cmask && (c->inv || c->edge)) {
		vp_snprintf(why, wl, "inv and edge need a non-zero cmask in vpmu");
		return -22;
	}
	c->cond = c->cmask != 0;
	/* Guest code runs at CPL 3; an OS-only counter sees nothing, as on hardware. */
	if (!(config & VPMU_EVTSEL_USR))
		c->mask = 0;
	return 0;
}

static Int decode_pentium(struct vp_counter *c, ULong config, HChar *why, Int wl)
{
	UInt cc = VPMU_P5_CC(config);

	if (config >> 9) {
		vp_snprintf(why, wl, "a Pentium counter takes ES[5:0] and CC[8:6] only");
		return -22;
	}
	if (cc & VPMU_P5_CC_CLOCKS)
		c->mask = VP_CYCLES_MASK;
	else {
		Int err = decode_event(VPMU_P5_ES(config), 0, &c->mask, why, wl);

		if (err)
			return err;
	}
	if (!(cc & VPMU_P5_CC_USR))
		c->mask = 0;
	return 0;
}

static Int check_sampling(const struct vp_counter *c, HChar *why, Int wl)
{
	if (!c->period)
		return 0;
	if ((c->flags & VPMU_PROG_FREQ) && c->period > VPMU_MAX_FREQ) {
		vp_snprintf(why, wl, "a frequency is at most %llu samples a second (one a cycle)",
			    VPMU_MAX_FREQ);
		return -22;
	}
	if (c->cond) {
		vp_snprintf(why, wl, "sampling on a cmask/inv/edge programming is not supported");
		return -95;
	}
	if (c->mask & VP_STATIC_MASK & ~VP_BIT(VP_SIG_INSN)) {
		vp_snprintf(why, wl,
			    "sampling on FP/SIMD/multiply/divide/syscall events is not supported");
		return -95;
	}
	if (c->flags & VPMU_PROG_FREQ)
		return 0; /* the tool sets the periods: at most one sample per overflow check */
	if ((c->mask & VP_BIT(VP_SIG_INSN)) && c->period < 128) {
		vp_snprintf(why, wl, "a period below 128 is refused for instruction-driven events");
		return -22;
	}
	if (c->period >> width_bits(0)) {
		vp_snprintf(why, wl, "period is wider than the counter");
		return -22;
	}
	return 0;
}

/* Usage: PROGRAM a counter (stopped), then START it.  Returns 0 or a negative errno with a
 * reason in why.  Reprogramming discards all translations (done by the caller). */
Int vp_counter_program(UInt idx, ULong config, ULong period, UInt flags, HChar *why, Int wl)
{
	struct vp_counter c;
	Int err;
	UInt mask = 1u << idx;

	why[0] = 0;
	if (idx >= vp_nr_ctr) {
		vp_snprintf(why, wl, "counter %u does not exist (the model has %u)", idx,
			    vp_nr_ctr);
		return -22;
	}
	VG_(memset)(&c, 0, sizeof(c));
	c.config = config;
	c.period = period;
	c.flags = flags;
	err = vp_clo.model == VPMU_MODEL_PENTIUM ? decode_pentium(&c, config, why, wl)
						 : decode_corei7(&c, idx, config, why, wl);
	if (!err)
		err = check_sampling(&c, why, wl);
	if (err)
		return err;
	vp_counters_stop(mask);
	c.programmed = True;
	vp_ctr[idx] = c;
	vp_counters_reset(mask);
	return 0;
}

void vp_compute_needs(void)
{
	ULong all = 0;
	UInt k;

	VG_(memset)(&vp_need, 0, sizeof(vp_need));
	vp_watch = 0;
	for (k = 0; k < vp_nr_ctr; k++) {
		const struct vp_counter *c = &vp_ctr[k];
		/* STALL_BR is derived from the mispredictions (vp_sig_sum()). */
		ULong m = c->mask | ((c->mask & VP_BIT(VP_SIG_STALL_BR)) ? VP_MISP_ALL_MASK : 0);

		if (!c->programmed)
			continue;
		/*
		 * A cmask/inv/edge programming judges every cycle, and the cycles of an
		 * instruction are its retire cycle plus its penalties: every penalty source must
		 * run, whatever the counter's own mask holds, or its stall cycles would depend
		 * on what the other counters switched on (docs/vpmu.md, "Timing model").
		 */
		if (c->cond) {
			vp_need.cycle_cond = True;
			m |= VP_CYCLES_MASK | VP_MISP_ALL_MASK;
		}
		/* Frequency mode reads modelled time: the whole timing model runs, and time is
		 * watched, so that its ticks fall on the instruction that reaches them. */
		if (c->period && (c->flags & VPMU_PROG_FREQ)) {
			vp_need.freq = True;
			m |= VP_CYCLES_MASK | VP_MISP_ALL_MASK;
		}
		all |= m;
		if (c->period) {
			vp_watch |= m;
			if ((c->mask & VP_BIT(VP_SIG_INSN)) || (c->flags & VPMU_PROG_IMPRECISE))
				vp_need.insn_tick = True;
		}
	}
	vp_need.insn_tick |= vp_need.freq;
	vp_need.sigs = all;
	vp_need.mem = (all & (MEM_SIGS | CACHE_SIGS)) != 0;
	vp_need.dcache = vp_need.icache = (all & CACHE_SIGS) != 0;
	vp_need.branch = (all & BRANCH_SIGS) != 0 || vp_clo.lbr_on;
	vp_insn_fire_at = 0;
}

/* One COUNTS record: thread t's counters (NULL: the totals) to the --out-fd stream. */
void vp_out_counts(UInt tid, struct vp_thread *t)
{
	struct vpmu_rec_counts r;
	UInt k;

	VG_(memset)(&r, 0, sizeof(r));
	vp_hdr_init(&r.hdr, VPMU_MAGIC_RECORD, VPMU_REC_COUNTS, sizeof(r));
	r.pid = VG_(getpid)();
	r.tid = tid;
	r.nr = vp_nr_ctr;
	for (k = 0; k < vp_nr_ctr; k++) {
		r.config[k] = vp_ctr[k].config;
		r.value[k] = t ? vp_counter_read(t, k) : vp_counter_total(k);
	}
	vp_out_write(&r, sizeof(r));
}
