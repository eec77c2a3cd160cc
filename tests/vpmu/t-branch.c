/* SPDX-License-Identifier: MIT */
/* Exact-count guest tests of branches and the Core i7 model's predictor: a known taken/not-taken
 * pattern, and the inline (IR) prediction of conditional branches, direct and indirect calls,
 * returns and indirect jumps against the helper path taken with the LBR on. */
#include "vpmu-guest.h"

/* Per iteration: jz taken when i is even; jnz taken except on the last iteration. */
static __attribute__((noinline)) struct delta branches(long n)
{
	struct vpmu_counts a, b;
	struct delta d;
	long i = 0;

	snap_begin(&a, &b);
	__asm__ volatile("1: test $1,%1; jz 2f; nop; 2: inc %1; dec %0; jnz 1b"
			 : "+r"(n), "+r"(i)
			 :
			 : "cc");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

static void t_branches(void)
{
	struct delta d1, d2;

	vp_program(0, EVT(VPMU_EV_BRANCHES, 0x01), 0, 0);
	vp_program(1, EVT(VPMU_EV_BRANCHES, 0x02), 0, 0);
	vp_program(2, EVT(0xc4, 0x01), 0, 0);
	vp_program(3, EVT(0xc4, 0x04), 0, 0);
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	d1 = branches(1000);
	d2 = branches(2000);
	sub(&d2, &d1);
	CHECK(d2.v[0] == 1500, "taken: 500 jz + 1000 jnz = 1500, got %lu", d2.v[0]);
	CHECK(d2.v[1] == 500, "not taken: 500 jz, got %lu", d2.v[1]);
	CHECK(d2.v[2] == 2000, "conditional: 2000, got %lu", d2.v[2]);
	CHECK(d2.v[3] == 2000, "all branches: 2000, got %lu", d2.v[3]);
}

static __attribute__((noinline)) long callee(long x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

/* n direct calls and their returns, in a loop. */
static __attribute__((noinline)) struct delta calls(long n)
{
	struct vpmu_counts a, b;
	struct delta d;
	long x = 0;

	snap_begin(&a, &b);
	for (long i = 0; i < n; i++)
		x = callee(x);
	__asm__ volatile("" : : "r"(x));
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

static __attribute__((noinline)) long callee2(long x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 2;
}

static long (*volatile targets[2])(long) = {callee, callee2};

/* n indirect calls through a table and their returns: always to one target (alternate 0), or
 * to the two in turn (alternate 1), so that the BTB always holds the other one. */
static __attribute__((noinline)) struct delta indirect_calls(long n, long alternate)
{
	struct vpmu_counts a, b;
	struct delta d;
	long x = 0;

	snap_begin(&a, &b);
	for (long i = 0; i < n; i++)
		x = targets[i & alternate](x);
	__asm__ volatile("" : : "r"(x));
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

/* n indirect jumps through a switch's jump table: always to one case (mask 0), or to the eight
 * in turn (mask 7), so that the BTB always holds another case than the next. */
static __attribute__((noinline)) struct delta indirect_jumps(long n, long mask)
{
	struct vpmu_counts a, b;
	struct delta d;
	long x = 1;

	snap_begin(&a, &b);
	for (long i = 0; i < n; i++) {
		switch (i & mask) {
		case 0:
			x += 3;
			break;
		case 1:
			x ^= 5;
			break;
		case 2:
			x *= 7;
			break;
		case 3:
			x -= 11;
			break;
		case 4:
			x <<= 1;
			break;
		case 5:
			x |= 13;
			break;
		case 6:
			x >>= 2;
			break;
		default:
			x = ~x;
			break;
		}
		__asm__ volatile("" : "+r"(x));
	}
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

/* The branch pattern's predictor counts in steady state, with the LBR off (the conditional
 * branch counted inline) or on (through the helper). */
static struct delta steady_branches(unsigned long debugctl)
{
	struct delta d1, d2;

	vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, debugctl, 0, 0);
	branches(3000); /* warms the predictor: the two deltas below then see one state */
	d1 = branches(1000);
	d2 = branches(2000);
	sub(&d2, &d1);
	return d2;
}

/* Direct calls and their returns (in IR with the LBR off, vpmu-branch-ir.c; through
 * vp_h_jump with it on): every return is predicted, with the LBR off and on alike. */
static void t_predictor_calls(void)
{
	struct delta d[2], d1;

	vp_program(0, EVT(0x89, 0x08), 0, 0); /* BR_MISP_EXEC.RETURN_NEAR */
	vp_program(1, EVT(0x63, 0x80), 0, 0); /* VPMU_BRANCHES.BTB_HIT */
	vp_program(2, EVT(0x88, 0x10), 0, 0); /* BR_INST_EXEC.DIRECT_NEAR_CALL */
	vp_program(3, EVT(0x88, 0x08), 0, 0); /* BR_INST_EXEC.RETURN_NEAR */
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	for (unsigned long lbr = 0; lbr < 2; lbr++) {
		vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, lbr, 0, 0);
		calls(3000);
		d1 = calls(1000);
		d[lbr] = calls(2000);
		sub(&d[lbr], &d1);
		CHECK(d[lbr].v[2] == 1000 && d[lbr].v[3] == 1000, "calls %lu, returns %lu",
		      d[lbr].v[2], d[lbr].v[3]);
		CHECK(d[lbr].v[0] == 0, "mispredicted returns: %lu", d[lbr].v[0]);
	}
	vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, 0, 0, 0);
	CHECK(d[0].v[1] == d[1].v[1], "BTB hits: inline %lu, helper %lu", d[0].v[1], d[1].v[1]);
}

/*
 * Inline and helper charge a misprediction the same stall. Compared per misprediction, not
 * as totals: the loops' conditional branches mispredict once more or less at a point that
 * depends on the predictor's state when main starts, which the dynamic loader's work (the
 * environment's size, /etc/ld.so.cache) leaves; the indirect transfers' counts above do not.
 */
static void stalls_per_misprediction(void)
{
	struct delta d[2][4], d1;

	vp_program(0, EVT(0x89, 0x7f), 0, 0);		/* BR_MISP_EXEC.ANY */
	vp_program(3, EVT(VPMU_EV_STALLS, 0x08), 0, 0); /* VPMU_STALLS.BRANCH */
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	for (unsigned long lbr = 0; lbr < 2; lbr++) {
		vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, lbr, 0, 0);
		for (long k = 0; k < 4; k++) { /* calls, alternating calls, jumps, masked jumps */
			struct delta (*run)(long, long) = k < 2 ? indirect_calls : indirect_jumps;
			long arg = k == 1 ? 1 : k == 3 ? 7 : 0;

			run(3000, arg);
			run(1000, arg);
			d1 = run(1000, arg);
			d[lbr][k] = run(2000, arg);
			sub(&d[lbr][k], &d1);
		}
	}
	vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, 0, 0, 0);
	for (long k = 0; k < 4; k++) {
		const struct delta *in = &d[0][k], *h = &d[1][k];

		/* stall / mispredictions equal: in.stall * h.misp == h.stall * in.misp */
		CHECK(in->v[3] * h->v[0] == h->v[3] * in->v[0] && (in->v[0] || !in->v[3]) &&
			      (h->v[0] || !h->v[3]),
		      "case %ld: inline %lu stall cycles for %lu mispredictions, helper %lu for "
		      "%lu",
		      k, in->v[3], in->v[0], h->v[3], h->v[0]);
	}
}

/* The inline conditional branch (vpmu-branch-ir.c) and the helper must agree. */
/* Indirect calls and their returns, and indirect jumps, predicted in IR with the LBR off
 * (vpmu-branch-ir.c) and by vp_h_jump with it on: the same counts either way, every return
 * predicted by the return stack, and an indirect transfer mispredicted exactly when its target
 * is not the one the BTB holds. */
static void t_predictor_indirect(void)
{
	struct delta d[2][2], d1;

	vp_program(0, EVT(0x89, 0x20), 0, 0);		/* BR_MISP_EXEC.INDIRECT_NEAR_CALL */
	vp_program(1, EVT(0x89, 0x08), 0, 0);		/* BR_MISP_EXEC.RETURN_NEAR */
	vp_program(2, EVT(0x88, 0x20), 0, 0);		/* BR_INST_EXEC.INDIRECT_NEAR_CALL */
	vp_program(3, EVT(VPMU_EV_STALLS, 0x08), 0, 0); /* VPMU_STALLS.BRANCH */
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	for (unsigned long lbr = 0; lbr < 2; lbr++) {
		vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, lbr, 0, 0);
		for (long alt = 0; alt < 2; alt++) {
			struct delta *e = &d[lbr][alt];

			indirect_calls(3000, alt);
			/* A first call of 1000 after one of 3000 mispredicts a dozen more
			 * conditional branches (the loop's exit comes at another point of the
			 * history); the delta below then compares two calls that follow alike. */
			indirect_calls(1000, alt);
			d1 = indirect_calls(1000, alt);
			*e = indirect_calls(2000, alt);
			sub(e, &d1);
			printf("lbr %lu alternate %ld: %lu of %lu indirect calls and %lu returns "
			       "mispredicted, %lu stall cycles\n",
			       lbr, alt, e->v[0], e->v[2], e->v[1], e->v[3]);
			CHECK(e->v[2] == 1000, "indirect calls: %lu", e->v[2]);
			CHECK(e->v[1] == 0, "mispredicted returns: %lu", e->v[1]);
			CHECK(e->v[0] == (alt ? 1000 : 0), "mispredicted indirect calls: %lu",
			      e->v[0]);
		}
	}
	vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, 0, 0, 0);

	vp_program(0, EVT(0x89, 0x04), 0, 0); /* BR_MISP_EXEC.INDIRECT_NON_CALL */
	vp_program(2, EVT(0x88, 0x04), 0, 0); /* BR_INST_EXEC.INDIRECT_NON_CALL */
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	for (unsigned long lbr = 0; lbr < 2; lbr++) {
		vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, lbr, 0, 0);
		for (long alt = 0; alt < 2; alt++) {
			struct delta *e = &d[lbr][alt];
			long mask = alt ? 7 : 0;

			indirect_jumps(3000, mask);
			indirect_jumps(1000, mask);
			d1 = indirect_jumps(1000, mask);
			*e = indirect_jumps(2000, mask);
			sub(e, &d1);
			printf("lbr %lu mask %ld: %lu of %lu indirect jumps mispredicted, %lu "
			       "stall "
			       "cycles\n",
			       lbr, mask, e->v[0], e->v[2], e->v[3]);
			/* The compiler may test one case before the table (gcc: 7 of 8 jump). */
			CHECK(e->v[2] >= 875 && e->v[2] <= 1000,
			      "indirect jumps: %lu (is the switch a jump table?)", e->v[2]);
			CHECK(e->v[0] == (alt ? e->v[2] : 0),
			      "mispredicted indirect jumps: %lu of %lu", e->v[0], e->v[2]);
		}
	}
	vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, 0, 0, 0);
	for (long alt = 0; alt < 2; alt++)
		CHECK(d[0][alt].v[2] == d[1][alt].v[2], "indirect jumps: inline %lu, helper %lu",
		      d[0][alt].v[2], d[1][alt].v[2]);
	stalls_per_misprediction();
}

static void t_predictor(void)
{
	struct delta in, lbr;

	vp_program(0, EVT(0xc5, 0x01), 0, 0); /* BR_MISP_RETIRED.CONDITIONAL */
	vp_program(1, EVT(0x63, 0x80), 0, 0); /* VPMU_BRANCHES.BTB_HIT */
	vp_program(2, EVT(0xc4, 0x01), 0, 0);
	vp_program(3, EVT(0x60, 0x08), 0, 0); /* VPMU_STALLS.BRANCH */
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	steady_branches(0); /* the first run after programming mispredicts a few more */
	in = steady_branches(0);
	lbr = steady_branches(1);
	printf("inline: %lu mispredicted, %lu BTB hits; helper: %lu, %lu\n", in.v[0], in.v[1],
	       lbr.v[0], lbr.v[1]);
	CHECK(in.v[2] == 2000 && lbr.v[2] == 2000, "conditional: %lu, %lu", in.v[2], lbr.v[2]);
	CHECK(in.v[0] == lbr.v[0], "mispredicted: inline %lu, helper %lu", in.v[0], lbr.v[0]);
	CHECK(in.v[1] == lbr.v[1], "BTB hits: inline %lu, helper %lu", in.v[1], lbr.v[1]);
	CHECK(in.v[3] == lbr.v[3], "stall cycles: inline %lu, helper %lu", in.v[3], lbr.v[3]);
	CHECK(in.v[1] == 2000, "the loop's two branches stay in the BTB: %lu hits", in.v[1]);
	t_predictor_calls();
	t_predictor_indirect();
}

int main(int argc, char **argv)
{
	static const struct vp_test tests[] = {
		{"branches", t_branches},
		{"predictor", t_predictor},
	};

	return vp_run_tests(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
