/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Periods drawn around the programmed one (docs/vpmu.md, "Sampling": --period-jitter and --seed),
 * for the sampling of vpmu-sample.c and the frequency mode of vpmu-freq.c. */
#include "vpmu.h"

/* splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014): one 64-bit state, every seed a full-period sequence. */
static ULong splitmix64(ULong *state)
{
	ULong z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A period of counter k drawn around p: p itself, or with --period-jitter=J a uniform integer
 * in [p - p*J/100, p + p*J/100] (mean p exactly), never below 1. */
ULong vp_jitter(struct vp_thread *t, UInt k, ULong p)
{
	ULong half = p / 100 * vp_clo.period_jitter + p % 100 * vp_clo.period_jitter / 100;
	ULong d;

	if (!half)
		return p;
	d = splitmix64(&t->rng[k]) % (2 * half + 1);
	return p - half + d < 1 ? 1 : p - half + d;
}

void vp_jitter_seed(struct vp_thread *t, UInt k)
{
	ULong st = vp_clo.seed ^ ((ULong)(t - vp_threads) << 8 | k) * 0xd1b54a32d192ed03ULL;

	t->rng[k] = splitmix64(&st);
}
