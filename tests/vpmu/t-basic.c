/* SPDX-License-Identifier: MIT */
/* Exact-count guest tests for the Core i7 model: instruction loop, branch pattern, loads and
 * stores, misalignment, cache strides, REP, cmask/inv/edge identities, unsupported events. */
#include <string.h>
#include "vpmu-guest.h"

struct delta {
	unsigned long v[VPMU_MAX_COUNTERS];
};

AI void snap(struct vpmu_counts *c)
{
	c->hdr.size = sizeof(*c);
	vp_req(VPMU_REQ_READ_ALL, (unsigned long)c, sizeof(*c), VPMU_READ_THREAD, 0);
}

static void diff(struct delta *d, const struct vpmu_counts *a, const struct vpmu_counts *b)
{
	for (int i = 0; i < VPMU_MAX_COUNTERS; i++)
		d->v[i] = b->value[i] - a->value[i];
}

static void sub(struct delta *d, const struct delta *x)
{
	for (int i = 0; i < VPMU_MAX_COUNTERS; i++)
		d->v[i] -= x->v[i];
}

/* 4 instructions per iteration: nop, add, dec, jnz. */
static __attribute__((noinline)) struct delta loop(long n)
{
	struct vpmu_counts a, b;
	struct delta d;

	snap(&a);
	__asm__ volatile("test %0,%0; jz 2f; 1: nop; add $1,%%rax; dec %0; jnz 1b; 2:"
			 : "+r"(n) : : "rax", "cc");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

/* Per iteration: jz taken when i is even; jnz taken except on the last iteration. */
static __attribute__((noinline)) struct delta branches(long n)
{
	struct vpmu_counts a, b;
	struct delta d;
	long i = 0;

	snap(&a);
	__asm__ volatile("1: test $1,%1; jz 2f; nop; 2: inc %1; dec %0; jnz 1b"
			 : "+r"(n), "+r"(i) : : "cc");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

/* Per iteration: 3 loads (aligned, misaligned, line-split) and 1 store. */
static __attribute__((noinline)) struct delta loadstore(long n, char *p)
{
	struct vpmu_counts a, b;
	struct delta d;

	snap(&a);
	__asm__ volatile("1: mov (%1),%%rax; mov %%rax,8(%1); movl 1(%1),%%ecx; movl 62(%1),%%edx;"
			 " dec %0; jnz 1b"
			 : "+r"(n) : "r"(p) : "rax", "rcx", "rdx", "cc", "memory");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

/* One load per 64-byte line of p[0 .. lines*64). */
static __attribute__((noinline)) struct delta stride(long lines, char *p)
{
	struct vpmu_counts a, b;
	struct delta d;

	snap(&a);
	__asm__ volatile("test %0,%0; jz 2f; 1: movzbl (%1),%%eax; add $64,%1; dec %0; jnz 1b; 2:"
			 : "+r"(lines), "+r"(p) : : "rax", "cc", "memory");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

static __attribute__((noinline)) struct delta rep(long n, char *p)
{
	struct vpmu_counts a, b;
	struct delta d;

	snap(&a);
	__asm__ volatile("rep stosb" : "+c"(n), "+D"(p) : "a"(0) : "memory");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

/* Per iteration: a load and two stores to line p (the first store dirties a clean line, the
 * second finds it dirty), then loads of the 8 lines 4 KiB apart that share its L1D set: with
 * 9 lines cycling through 8 ways every load misses, and p leaves L1D dirty once.  Each load
 * goes to its own register: VEX drops a load whose result is overwritten unread. */
static __attribute__((noinline)) struct delta dirty_evict(long n, char *p)
{
	struct vpmu_counts a, b;
	struct delta d;

	snap(&a);
	__asm__ volatile("1: mov (%1),%%rax; mov %%rax,(%1); mov %%rax,8(%1);"
			 " mov 4096(%1),%%rcx; mov 8192(%1),%%rdx; mov 12288(%1),%%rsi;"
			 " mov 16384(%1),%%rdi; mov 20480(%1),%%r8; mov 24576(%1),%%r9;"
			 " mov 28672(%1),%%r10; mov 32768(%1),%%r11; dec %0; jnz 1b"
			 : "+r"(n) : "r"(p)
			 : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "cc", "memory");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

static char buf[1 << 20] __attribute__((aligned(4096)));

static void t_loop(void)
{
	struct delta d1, d2;

	vp_program(0, EVT(0xc0, 0x01), 0, 0);
	vp_program(4, VPMU_FIXED_USR, 0, 0);
	vp_program(5, VPMU_FIXED_USR, 0, 0);
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	d1 = loop(1000);
	d2 = loop(3000);
	sub(&d2, &d1);
	CHECK(d2.v[0] == 8000, "INST_RETIRED.ANY_P: 2000 iterations x 4 = 8000, got %lu", d2.v[0]);
	CHECK(d2.v[4] == 8000, "fixed INST_RETIRED.ANY: 8000, got %lu", d2.v[4]);
	d2 = loop(3000);
	CHECK(d2.v[5] >= d2.v[4], "cycles %lu >= instructions %lu", d2.v[5], d2.v[4]);
	d1 = loop(0);
	CHECK(d1.v[0] > 0 && d1.v[0] < 64, "empty region costs a few instructions, got %lu", d1.v[0]);
	d2 = loop(1000);
	sub(&d2, &d1);
	CHECK(d2.v[0] == 4000, "1000 iterations = 4000 over the empty region, got %lu", d2.v[0]);
	/* Stopped counters do not count the loop. */
	vp_req(VPMU_REQ_STOP, 1, 0, 0, 0);
	d2 = loop(5000);
	CHECK(d2.v[0] == 0, "stopped counter moved by %lu", d2.v[0]);
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

static void t_loadstore(void)
{
	struct delta d1, d2;

	vp_program(0, EVT(0x0b, 0x01), 0, 0);
	vp_program(1, EVT(0x0b, 0x02), 0, 0);
	vp_program(2, EVT(VPMU_EV_MISALIGN, 0x01), 0, 0);
	vp_program(3, EVT(VPMU_EV_MISALIGN, 0x04), 0, 0);
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	d1 = loadstore(100, buf);
	d2 = loadstore(1100, buf);
	sub(&d2, &d1);
	CHECK(d2.v[0] == 3000, "loads: 3 x 1000, got %lu", d2.v[0]);
	CHECK(d2.v[1] == 1000, "stores: 1000, got %lu", d2.v[1]);
	CHECK(d2.v[2] == 2000, "misaligned loads: 2 x 1000, got %lu", d2.v[2]);
	CHECK(d2.v[3] == 1000, "split loads: 1000, got %lu", d2.v[3]);
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

	snap(&a);
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

static long (*volatile targets[2])(long) = { callee, callee2 };

/* n indirect calls through a table and their returns: always to one target (alternate 0), or
 * to the two in turn (alternate 1), so that the BTB always holds the other one. */
static __attribute__((noinline)) struct delta indirect_calls(long n, long alternate)
{
	struct vpmu_counts a, b;
	struct delta d;
	long x = 0;

	snap(&a);
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

	snap(&a);
	for (long i = 0; i < n; i++) {
		switch (i & mask) {
		case 0: x += 3; break;
		case 1: x ^= 5; break;
		case 2: x *= 7; break;
		case 3: x -= 11; break;
		case 4: x <<= 1; break;
		case 5: x |= 13; break;
		case 6: x >>= 2; break;
		default: x = ~x; break;
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

/* The inline conditional branch (vpmu-branch-ir.c) and the helper must agree. */
/* Indirect calls and their returns, and indirect jumps, predicted in IR with the LBR off
 * (vpmu-branch-ir.c) and by vp_h_jump with it on: the same counts either way, every return
 * predicted by the return stack, and an indirect transfer mispredicted exactly when its target
 * is not the one the BTB holds. */
static void t_predictor_indirect(void)
{
	struct delta d[2][2], d1;

	vp_program(0, EVT(0x89, 0x20), 0, 0); /* BR_MISP_EXEC.INDIRECT_NEAR_CALL */
	vp_program(1, EVT(0x89, 0x08), 0, 0); /* BR_MISP_EXEC.RETURN_NEAR */
	vp_program(2, EVT(0x88, 0x20), 0, 0); /* BR_INST_EXEC.INDIRECT_NEAR_CALL */
	vp_program(3, EVT(VPMU_EV_STALLS, 0x08), 0, 0); /* VPMU_STALLS.BRANCH */
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	for (unsigned long lbr = 0; lbr < 2; lbr++) {
		vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, lbr, 0, 0);
		for (long alt = 0; alt < 2; alt++) {
			struct delta *e = &d[lbr][alt];

			indirect_calls(3000, alt);
			/* A first call of 1000 after one of 3000 mispredicts a dozen more conditional
			 * branches (the loop's exit comes at another point of the history); the
			 * delta below then compares two calls that follow alike. */
			indirect_calls(1000, alt);
			d1 = indirect_calls(1000, alt);
			*e = indirect_calls(2000, alt);
			sub(e, &d1);
			printf("lbr %lu alternate %ld: %lu of %lu indirect calls and %lu returns "
			       "mispredicted, %lu stall cycles\n", lbr, alt, e->v[0], e->v[2], e->v[1],
			       e->v[3]);
			CHECK(e->v[2] == 1000, "indirect calls: %lu", e->v[2]);
			CHECK(e->v[1] == 0, "mispredicted returns: %lu", e->v[1]);
			CHECK(e->v[0] == (alt ? 1000 : 0), "mispredicted indirect calls: %lu", e->v[0]);
		}
	}
	vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, 0, 0, 0);
	for (long alt = 0; alt < 2; alt++)
		CHECK(d[0][alt].v[3] == d[1][alt].v[3], "stall cycles: inline %lu, helper %lu",
		      d[0][alt].v[3], d[1][alt].v[3]);

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
			printf("lbr %lu mask %ld: %lu of %lu indirect jumps mispredicted, %lu stall "
			       "cycles\n", lbr, mask, e->v[0], e->v[2], e->v[3]);
			/* The compiler may test one case before the table (gcc: 7 of 8 jump). */
			CHECK(e->v[2] >= 875 && e->v[2] <= 1000,
			      "indirect jumps: %lu (is the switch a jump table?)", e->v[2]);
			CHECK(e->v[0] == (alt ? e->v[2] : 0), "mispredicted indirect jumps: %lu of %lu",
			      e->v[0], e->v[2]);
		}
	}
	vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, 0, 0, 0);
	for (long alt = 0; alt < 2; alt++)
		CHECK(d[0][alt].v[3] == d[1][alt].v[3] && d[0][alt].v[2] == d[1][alt].v[2],
		      "stall cycles: inline %lu, helper %lu; jumps %lu, %lu", d[0][alt].v[3],
		      d[1][alt].v[3], d[0][alt].v[2], d[1][alt].v[2]);
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

/* The same accesses with the L1D modelled: the inline most-recently-used check answers the
 * repeated hits, and must count what the model would (vpmu-fastpath.c). */
static void t_fastpath(void)
{
	struct delta d1, d2;

	vp_program(0, EVT(0x40, 0x0f), 0, 0); /* L1D_CACHE_LD.MESI */
	vp_program(1, EVT(0x41, 0x0f), 0, 0); /* L1D_CACHE_ST.MESI */
	vp_program(2, EVT(VPMU_EV_MISALIGN, 0x01), 0, 0);
	vp_program(3, EVT(0x28, 0x0f), 0, 0); /* L1D_WB_L2.MESI */
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	d1 = loadstore(100, buf);
	d2 = loadstore(1100, buf);
	sub(&d2, &d1);
	CHECK(d2.v[0] == 4000, "L1D loads: 4 lines x 1000, got %lu", d2.v[0]);
	CHECK(d2.v[1] == 1000, "L1D stores: 1000, got %lu", d2.v[1]);
	CHECK(d2.v[2] == 2000, "misaligned loads: 2 x 1000, got %lu", d2.v[2]);
	CHECK(d2.v[3] == 0, "no write-backs, got %lu", d2.v[3]);
	vp_program(2, EVT(0xcb, 0x01), 0, 0); /* MEM_LOAD_RETIRED.L1D_HIT */
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	/*
	 * A warm-up call first: the two measured calls then start from the same state of the
	 * set, whatever else (the stack, whose place moves with the environment's size) maps
	 * to it — otherwise one dirty stack line evicted in one call and not the other shows
	 * up as a write-back more or less.
	 */
	dirty_evict(100, buf + 65536 + 128); /* a set loadstore left alone */
	d1 = dirty_evict(100, buf + 65536 + 128);
	d2 = dirty_evict(1100, buf + 65536 + 128);
	sub(&d2, &d1);
	CHECK(d2.v[0] == 9000, "L1D loads: 9 x 1000, got %lu", d2.v[0]);
	CHECK(d2.v[1] == 2000, "L1D stores: 2 x 1000, got %lu", d2.v[1]);
	CHECK(d2.v[2] == 0, "every load misses, got %lu hits", d2.v[2]);
	CHECK(d2.v[3] == 1000, "write-backs: 1000, got %lu", d2.v[3]);
}

static void t_stride(void)
{
	struct delta e, d;

	vp_program(0, EVT(0x40, 0x01), 0, 0); /* L1D load misses */
	vp_program(1, EVT(0x24, 0x01), 0, 0); /* L2 load hits */
	vp_program(2, EVT(0xcb, 0x10), 0, 0); /* LLC load misses */
	vp_program(3, EVT(0x0b, 0x01), 0, 0);
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	e = stride(0, buf);
	e = stride(0, buf);
	d = stride(1024, buf); /* 64 KiB, cold */
	sub(&d, &e);
	CHECK(d.v[0] == 1024 && d.v[2] == 1024, "cold 64 KiB: 1024 L1D and LLC misses, got %lu/%lu",
	      d.v[0], d.v[2]);
	d = stride(1024, buf); /* 64 KiB > 32 KiB L1D, LRU: every line misses, all hit L2 */
	sub(&d, &e);
	CHECK(d.v[0] == 1024, "warm 64 KiB: 1024 L1D misses, got %lu", d.v[0]);
	CHECK(d.v[1] == 1024, "warm 64 KiB: 1024 L2 hits, got %lu", d.v[1]);
	CHECK(d.v[3] == 1024, "1024 loads, got %lu", d.v[3]);
	d = stride(256, buf + 65536); /* 16 KiB, cold */
	d = stride(256, buf + 65536); /* fits L1D */
	sub(&d, &e);
	CHECK(d.v[0] == 0, "warm 16 KiB: no L1D miss, got %lu", d.v[0]);
}

static void t_rep(void)
{
	struct delta d1, d2;

	vp_program(0, EVT(0xc0, 0x01), 0, 0);
	vp_program(1, EVT(0x0b, 0x02), 0, 0);
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	d1 = rep(10, buf);
	d2 = rep(1000, buf);
	CHECK(d1.v[0] == d2.v[0], "rep stosb counts once: %lu vs %lu", d1.v[0], d2.v[0]);
	CHECK(d2.v[1] - d1.v[1] == 990, "rep stosb stores per byte: %lu", d2.v[1] - d1.v[1]);
}

/* Cycle accounting identities of the guide: active + stall cycles = cycles. */
static void t_cmask(void)
{
	struct delta d;

	vp_program(0, EVTQ(0xc2, 0x01, 1, 0, 0), 0, 0); /* UOPS_RETIRED.ACTIVE_CYCLES */
	vp_program(1, EVTQ(0xc2, 0x01, 1, 1, 0), 0, 0); /* UOPS_RETIRED.STALL_CYCLES */
	vp_program(2, EVT(VPMU_EV_STALLS, 0x1f), 0, 0);
	vp_program(3, EVTQ(0xb1, 0x3f, 1, 1, 1), 0, 0); /* UOPS_EXECUTED.CORE_STALL_COUNT */
	vp_program(4, VPMU_FIXED_USR, 0, 0);
	vp_program(5, VPMU_FIXED_USR, 0, 0);
	vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
	d = stride(0, buf);
	d = stride(1024, buf);
	CHECK(d.v[0] == d.v[4], "active cycles %lu == instructions %lu", d.v[0], d.v[4]);
	CHECK(d.v[0] + d.v[1] == d.v[5], "active %lu + stall %lu == cycles %lu", d.v[0], d.v[1], d.v[5]);
	CHECK(d.v[1] == d.v[2], "stall cycles %lu == sum of penalties %lu", d.v[1], d.v[2]);
	CHECK(d.v[3] >= 1024 && d.v[3] < d.v[1], "stall count %lu: one per miss at least", d.v[3]);
}

static void t_unsupported(void)
{
	char why[160] = "";
	long r = vp_req(VPMU_REQ_PROGRAM, 0, EVT(0xcb, 0x40), 0, 0);

	vp_req(VPMU_REQ_STRERROR, (unsigned long)why, sizeof(why), 0, 0);
	CHECK(r == -95, "HIT_LFB rejected with -EOPNOTSUPP, got %ld", r);
	CHECK(strstr(why, "fill buffer") != NULL, "reason names the missing model: '%s'", why);
	r = vp_req(VPMU_REQ_PROGRAM, 0, EVT(0xee, 0x01), 0, 0);
	CHECK(r == -2, "unknown event rejected with -ENOENT, got %ld", r);
	r = vp_req(VPMU_REQ_PROGRAM, 9, EVT(0xc0, 0x01), 0, 0);
	CHECK(r == -22, "counter 9 does not exist, got %ld", r);
	printf("rejected: %s\n", why);
}

static void t_present(void)
{
	struct vpmu_info in = { .hdr.size = sizeof(in) };

	CHECK(vp_req(VPMU_REQ_QUERY, (unsigned long)&in, sizeof(in), 0, 0) == 0, "QUERY");
	CHECK(in.hdr.magic == VPMU_MAGIC_INFO && in.model == VPMU_MODEL_COREI7, "model %u", in.model);
	CHECK(in.nr_counters == 7 && in.nr_fixed == 3 && in.width_bits == 48, "counters %u",
	      in.nr_counters);
	CHECK(vp_req(VPMU_REQ_QUERY, (unsigned long)&in, 8, 0, 0) == -22, "short buffer refused");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = { { "present", t_present }, { "loop", t_loop }, { "branches", t_branches },
		      { "loadstore", t_loadstore }, { "fastpath", t_fastpath },
		      { "predictor", t_predictor },
		      { "stride", t_stride }, { "rep", t_rep },
		      { "cmask", t_cmask }, { "unsupported", t_unsupported } };

	vp_require_vpmu();
	for (unsigned i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (argc < 2 || !strcmp(argv[1], tests[i].name))
			tests[i].fn();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
