/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frequency mode: a counter programmed with VPMU_PROG_FREQ samples about F times per second of
 * modelled time (VPMU_CLOCK_HZ: a cycle is a nanosecond), its period adapted as Linux adapts
 * the period of an event opened with attr.freq (kernel/events/core.c, perf_adjust_period and
 * perf_calculate_period; x86's reload order). The first period is 1. At each overflow the
 * counter is reloaded with the period in force, then that period moves an eighth of the way
 * towards count * 10^9 / (time * F), the rate of the overflow just ended, when the time since
 * the previous overflow is positive and under two ticks; at each tick of the thread's
 * modelled time (VP_TICK_CYCLES) it moves so towards the rate of the tick, the count since the
 * previous tick over one tick. A counter whose remaining period exceeds eight adapted periods
 * restarts with the adapted one. Unlike the kernel, no counted event is dropped: a sample's
 * period is the count since the previous sample (docs/vpmu.md, "Frequency mode").
 */
#include "pub_tool_libcbase.h"
#include "vpmu.h"

/* The period that gives F samples a second at count events in nsec (perf_calculate_period),
 * at most a counter's width. */
static ULong calc_period(ULong nsec, ULong count, ULong freq)
{
	unsigned __int128 num = (unsigned __int128)count * VPMU_CLOCK_HZ;
	unsigned __int128 den = (unsigned __int128)nsec * freq, p;
	const ULong max = (1ULL << VPMU_COREI7_WIDTH) - 1;

	p = den ? num / den : num;
	return p > max ? max : (ULong)p;
}

/* perf_adjust_period: an eighth of the way to the measured rate's period (a low-pass filter),
 * never 0; a remaining period over 8 adapted ones restarts at the adapted one. */
static void adjust(struct vp_thread *t, UInt k, ULong nsec, ULong count, ULong val)
{
	Long target = (Long)calc_period(nsec, count, vp_ctr[k].period);
	Long sp = (Long)t->freq_period[k];

	sp += (target - sp + 7) / 8;
	t->freq_period[k] = sp > 0 ? (ULong)sp : 1;
	if (t->next_ovf[k] - val > 8 * t->freq_period[k])
		t->next_ovf[k] = val + vp_jitter(t, k, t->freq_period[k]);
}

/* A new thread, PROGRAM or RESET: the kernel's start, a period of 1 and no time stamp. */
void vp_freq_restart(struct vp_thread *t, UInt k)
{
	t->freq_period[k] = 1;
	t->freq_time[k] = ~0ULL;
	t->freq_count[k] = 0;
	t->last_ovf[k] = 0;
	t->cur_period[k] = 1;
	t->next_ovf[k] = 1;
}

/* Counter k of thread t overflowed at value val, time now (its sample taken, with the count
 * since the previous one as its period): reload with the period in force, then adapt it. */
void vp_freq_reload(struct vp_thread *t, UInt k, ULong val, ULong now)
{
	ULong count = val - t->last_ovf[k], prev = t->freq_time[k];

	t->last_ovf[k] = val;
	t->next_ovf[k] = val + vp_jitter(t, k, t->freq_period[k]);
	t->freq_time[k] = now;
	if (prev != ~0ULL && now > prev && now - prev < 2 * VP_TICK_CYCLES)
		adjust(t, k, now - prev, count, val);
}

/* The thread's modelled time reached its next tick: every running counter in frequency mode
 * that counted since the previous tick adapts to the tick's rate. A tick that an instruction's
 * penalties jumped over is taken once, as the kernel takes a late tick. */
void vp_freq_tick(struct vp_thread *t, const ULong *val, ULong now)
{
	UInt k;

	if (now < t->next_tick)
		return;
	t->next_tick = now - (now - t->next_tick) % VP_TICK_CYCLES + VP_TICK_CYCLES;
	for (k = 0; k < vp_nr_ctr; k++) {
		const struct vp_counter *c = &vp_ctr[k];
		ULong prev = t->freq_count[k];

		if (!c->period || !c->running || !(c->flags & VPMU_PROG_FREQ))
			continue;
		t->freq_count[k] = val[k];
		if (val[k] > prev)
			adjust(t, k, VP_TICK_CYCLES, val[k] - prev, val[k]);
	}
}
