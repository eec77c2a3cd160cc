/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counter overflow ("PMI"), precise and skidded samples with registers, data address and LBR,
 * the sample ring drained by DRAIN or --out-fd, and per-cycle cmask/inv/edge evaluation. */
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_stacktrace.h"
#include "vpmu.h"
#include "vpmu-lbr.h"
#include "vpmu-sample.h"

static struct vpmu_rec_sample *ring;
static ULong *ring_cc; /* with --callchain=N: N addresses for each slot of the ring */
static UInt ring_head, ring_nr;
static ULong lost;

void vp_samples_init(void)
{
	ring = VG_(malloc)("vpmu.samples", sizeof(*ring) * vp_clo.sample_buf);
	if (vp_clo.callchain)
		ring_cc = VG_(malloc)("vpmu.callchains",
				      sizeof(*ring_cc) * vp_clo.callchain * vp_clo.sample_buf);
}

ULong vp_samples_lost(void)
{
	return lost;
}

/* ---- periods (docs/vpmu.md, "Sampling"; the jitter: vpmu-jitter.c) ---- */

static ULong next_period(struct vp_thread *t, UInt k)
{
	return vp_jitter(t, k, vp_ctr[k].period);
}

/* Counter k of thread t starts counting periods afresh (a new thread, PROGRAM or RESET): its
 * generator restarts from the seed, the thread's slot and the counter, so that a run depends
 * on --seed alone and a reset replays the same periods. */
void vp_period_restart(struct vp_thread *t, UInt k)
{
	vp_jitter_seed(t, k);
	if (vp_ctr[k].flags & VPMU_PROG_FREQ) {
		vp_freq_restart(t, k);
		return;
	}
	t->cur_period[k] = next_period(t, k);
	t->next_ovf[k] = t->cur_period[k];
}

static const ULong *cur_sig(void)
{
	return vp_sig;
}

static ULong eval(UInt k)
{
	return vp_cur->acc[k] + vp_sig_sum(cur_sig(), vp_ctr[k].mask) - vp_cur->base[k];
}

static void fill_regs(struct vpmu_rec_sample *s)
{
	VexGuestAMD64State g;

	VG_(get_shadow_regs_area)(vp_cur_tid, (UChar *)&g, 0, 0, sizeof(g));
	s->regs[VPMU_REG_RAX] = g.guest_RAX;
	s->regs[VPMU_REG_RBX] = g.guest_RBX;
	s->regs[VPMU_REG_RCX] = g.guest_RCX;
	s->regs[VPMU_REG_RDX] = g.guest_RDX;
	s->regs[VPMU_REG_RSI] = g.guest_RSI;
	s->regs[VPMU_REG_RDI] = g.guest_RDI;
	s->regs[VPMU_REG_RBP] = g.guest_RBP;
	s->regs[VPMU_REG_RSP] = g.guest_RSP;
	s->regs[VPMU_REG_R8] = g.guest_R8;
	s->regs[VPMU_REG_R9] = g.guest_R9;
	s->regs[VPMU_REG_R10] = g.guest_R10;
	s->regs[VPMU_REG_R11] = g.guest_R11;
	s->regs[VPMU_REG_R12] = g.guest_R12;
	s->regs[VPMU_REG_R13] = g.guest_R13;
	s->regs[VPMU_REG_R14] = g.guest_R14;
	s->regs[VPMU_REG_R15] = g.guest_R15;
	s->regs[VPMU_REG_RFLAGS] = LibVEX_GuestAMD64_get_rflags(&g);
}

/* The guest's call stack at ip, innermost first, as the kernel writes a user call chain: ip,
 * then each caller's return address. Valgrind's unwinder (the one its error messages use:
 * CFI from .eh_frame or .debug_frame, frame pointers where there is none) reads the thread's
 * registers, which are exact at every instruction while a counter samples (--precise-regs);
 * it gives callers as return address - 1, the call instruction's last byte. Past the
 * outermost frame (_start) its frame-pointer fall-back reads stack words as callers: the
 * chain ends at the first address outside the client's executable mappings. */
static UInt take_callchain(Addr ip, ULong *cc)
{
	Addr ips[VPMU_MAX_CALLCHAIN];
	UInt n = VG_(get_StackTrace)(vp_cur_tid, ips, vp_clo.callchain, NULL, NULL, 0), i;

	if (!n)
		return 0;
	cc[0] = ip;
	for (i = 1; i < n; i++) {
		NSegment const *seg = VG_(am_find_nsegment)(ips[i] + 1);

		if (!seg || !seg->hasX || (seg->kind != SkFileC && seg->kind != SkAnonC))
			break;
		cc[i] = ips[i] + 1;
	}
	return i;
}

static void ring_put(struct vpmu_rec_sample *s, Addr ip)
{
	UInt slot;

	if (ring_nr == vp_clo.sample_buf) {
		if (vp_clo.out_fd >= 0)
			vp_samples_flush();
		else {
			lost++;
			return;
		}
	}
	slot = (ring_head + ring_nr) % vp_clo.sample_buf;
	if (ring_cc) {
		s->nr_callchain = take_callchain(ip, ring_cc + (SizeT)slot * vp_clo.callchain);
		s->flags |= VPMU_SAMPLE_HAS_CALLCHAIN;
		s->hdr.size = sizeof(*s) + s->nr_callchain * sizeof(ULong);
	}
	ring[slot] = *s;
	ring_nr++;
}

static void take_sample(UInt k, Addr ip, Addr event_ip, ULong value, ULong period,
			const struct vp_mem_info *mi, Bool precise)
{
	struct vpmu_rec_sample s;

	VG_(memset)(&s, 0, sizeof(s));
	vp_hdr_init(&s.hdr, VPMU_MAGIC_RECORD, VPMU_REC_SAMPLE, sizeof(s));
	s.pid = VG_(getpid)();
	s.tid = vp_cur->os_tid;
	s.counter = k;
	s.flags = precise ? VPMU_SAMPLE_PRECISE : 0;
	s.ip = ip;
	s.event_ip = event_ip;
	s.time = vp_sig_sum(vp_sig, VP_CYCLES_MASK);
	s.period = period;
	s.counter_value = value;
	fill_regs(&s);
	s.regs[VPMU_REG_RIP] = ip;
	if (mi && mi->valid) {
		s.flags |= VPMU_SAMPLE_HAS_ADDR;
		s.addr = mi->addr;
		s.latency = mi->latency;
		s.data_src = mi->data_src;
		vp_heap_sample(&s, mi->addr);
	}
	if (vp_ctr[k].flags & VPMU_PROG_LBR) {
		vp_lbr_copy(vp_cur, s.lbr, &s.nr_lbr);
		s.flags |= VPMU_SAMPLE_HAS_LBR;
	}
	ring_put(&s, ip);
}

/* Where the next instruction tick must look: the INSN count at which a counter that counts
 * instructions would overflow if only instructions arrived, or a pending skid. */
static void recompute_fire_at(ULong insn_now, const ULong *val, ULong now)
{
	ULong at = vp_cur->skid_at;
	UInt k;

	/* Each instruction is at least a cycle: the tick is due once as many more have run. */
	if (vp_need.freq && insn_now + (vp_cur->next_tick - now) < at)
		at = insn_now + (vp_cur->next_tick - now);
	for (k = 0; k < vp_nr_ctr; k++) {
		const struct vp_counter *c = &vp_ctr[k];

		if (!c->period || !c->running || !(c->mask & VP_BIT(VP_SIG_INSN)))
			continue;
		if (insn_now + (vp_cur->next_ovf[k] - val[k]) < at)
			at = insn_now + (vp_cur->next_ovf[k] - val[k]);
	}
	vp_insn_fire_at = at;
}

/* A counter reached its overflow point at the instruction imark.  Precise counters sample
 * here, before the instruction executes; imprecise ones --skid instructions later. */
static void overflow(UInt k, Addr imark, ULong value, const struct vp_mem_info *mi)
{
	if ((vp_ctr[k].flags & VPMU_PROG_IMPRECISE) && vp_clo.skid) {
		if (vp_cur->skid_at == ~0ULL) {
			vp_cur->skid_at = 0; /* every instruction ticks until the skid has passed */
			vp_cur->skid_left = vp_clo.skid;
			vp_cur->skid_ctr = k;
			vp_cur->skid_event_ip = imark;
			vp_cur->skid_period = vp_cur->cur_period[k];
		}
		return;
	}
	take_sample(k, imark, imark, value, vp_cur->cur_period[k], mi,
		    !(vp_ctr[k].flags & VPMU_PROG_IMPRECISE));
}

/* extra_insn: instructions of the current segment not yet added to vp_sig[INSN]. */
void vp_overflow_check(Addr imark, const struct vp_mem_info *mi, ULong extra_insn)
{
	ULong val[VPMU_MAX_COUNTERS];
	ULong insn_now = vp_sig[VP_SIG_INSN] + extra_insn, now = 0;
	UInt k;

	if (!vp_cur)
		return;
	if (vp_need.freq)
		now = vp_sig_sum(vp_sig, VP_CYCLES_MASK) + extra_insn;
	for (k = 0; k < vp_nr_ctr; k++) {
		const struct vp_counter *c = &vp_ctr[k];

		val[k] = 0;
		if (!c->period || !c->running)
			continue;
		val[k] = eval(k) + ((c->mask & VP_BIT(VP_SIG_INSN)) ? extra_insn : 0);
		if (c->flags & VPMU_PROG_FREQ) {
			/* One sample, however far the count went past its overflow point: its
			 * period is everything counted since the previous one. */
			if (val[k] >= vp_cur->next_ovf[k]) {
				vp_cur->cur_period[k] = val[k] - vp_cur->last_ovf[k];
				overflow(k, imark, val[k], mi);
				vp_freq_reload(vp_cur, k, val[k], now);
			}
			continue;
		}
		while (val[k] >= vp_cur->next_ovf[k]) {
			overflow(k, imark, val[k], mi);
			vp_cur->cur_period[k] = next_period(vp_cur, k);
			vp_cur->next_ovf[k] += vp_cur->cur_period[k];
		}
	}
	if (vp_need.freq)
		vp_freq_tick(vp_cur, val, now);
	recompute_fire_at(insn_now, val, now);
}

/* Called by the inline check when the instruction at imark makes the INSN count reach
 * vp_insn_fire_at; extra_insn counts this instruction too. */
VG_REGPARM(2) void vp_h_insn_tick(Addr imark, ULong extra_insn)
{
	struct vp_thread *t = vp_cur;

	if (!t)
		return;
	if (t->skid_at == 0 && --t->skid_left == 0) {
		UInt k = t->skid_ctr;

		t->skid_at = ~0ULL;
		take_sample(k, imark, t->skid_event_ip, eval(k), t->skid_period, NULL, False);
	}
	vp_overflow_check(imark, NULL, extra_insn);
}

/* ---- per-cycle evaluation for cmask/inv/edge (docs/vpmu.md, "Timing model") ---- */

static void cond_cycles(struct vp_thread *t, UInt k, ULong v, ULong ncyc)
{
	const struct vp_counter *c = &vp_ctr[k];
	Bool cond = c->inv ? v < c->cmask : v >= c->cmask;

	if (!ncyc)
		return;
	if (cond)
		t->acc[k] += c->edge ? !t->cond_prev[k] : ncyc;
	t->cond_prev[k] = cond;
}

/* Closes the instruction that just completed: its penalty cycles, cause by cause in signal
 * order, each carrying value 1 for the counters whose mask holds that cause, then one retire
 * cycle carrying the instruction's other signal increments. One instruction per retire cycle
 * is the issue width the protocol declares (libpmc's #slots reads it). */
_Static_assert(VPMU_ISSUE_WIDTH == 1, "the timing model retires one instruction per cycle");
void vp_cycle_close(void)
{
	struct vp_thread *t = vp_cur;
	ULong d[VP_SIG_NR];
	UInt s, k;

	if (!t || vp_sig[VP_SIG_INSN] == t->cyc_snap[VP_SIG_INSN])
		return; /* nothing retired yet: a REP iteration, or a second close at one point */
	for (s = 0; s < VP_SIG_NR; s++) {
		d[s] = vp_sig[s] - t->cyc_snap[s];
		t->cyc_snap[s] = vp_sig[s];
	}
	d[VP_SIG_STALL_BR] = vp_sig_sum(d, VP_BIT(VP_SIG_STALL_BR));
	for (k = 0; k < vp_nr_ctr; k++) {
		const struct vp_counter *c = &vp_ctr[k];
		ULong m, v = 0;

		if (!c->cond || !c->running)
			continue;
		m = VP_STALL_MASK;
		while (m) {
			s = __builtin_ctzll(m);
			m &= m - 1;
			cond_cycles(t, k, (c->mask >> s) & 1, d[s]);
		}
		m = c->mask & ~VP_STALL_MASK;
		while (m) {
			v += d[__builtin_ctzll(m)];
			m &= m - 1;
		}
		cond_cycles(t, k, v, 1);
	}
}

VG_REGPARM(1) void vp_h_cycle(Addr imark)
{
	(void)imark;
	vp_cycle_close();
}

/* ---- delivery ---- */

/* The call chain of the sample in ring slot i. */
static const ULong *slot_cc(UInt i)
{
	return ring_cc + (SizeT)i * vp_clo.callchain;
}

UInt vp_samples_drain(void *dst, UInt size)
{
	UInt n = 0;
	UChar *p = dst;

	while (ring_nr && size - n >= ring[ring_head].hdr.size) {
		const struct vpmu_rec_sample *s = &ring[ring_head];

		VG_(memcpy)(p + n, s, sizeof(*s));
		if (s->nr_callchain)
			VG_(memcpy)
		(p + n + sizeof(*s), slot_cc(ring_head), s->nr_callchain * sizeof(ULong));
		n += s->hdr.size;
		ring_head = (ring_head + 1) % vp_clo.sample_buf;
		ring_nr--;
	}
	return n;
}

void vp_samples_flush(void)
{
	while (ring_nr) {
		const struct vpmu_rec_sample *s = &ring[ring_head];

		vp_out_write(s, sizeof(*s));
		if (s->nr_callchain)
			vp_out_write(slot_cc(ring_head), s->nr_callchain * sizeof(ULong));
		ring_head = (ring_head + 1) % vp_clo.sample_buf;
		ring_nr--;
	}
}
