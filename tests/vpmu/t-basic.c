/* SPDX-License-Identifier: MIT */
/* Exact-count guest tests for the Core i7 model: instruction loop, loads and stores,
 * misalignment, the inline L1D check, cache strides, REP, cmask/inv/edge identities,
 * unsupported events.  Branches and the predictor are in t-branch.c. */
#include <string.h>
#include "vpmu-guest.h"

/* 4 instructions per iteration: nop, add, dec, jnz. */
static __attribute__((noinline)) struct delta loop(long n)
{
	struct vpmu_counts a, b;
	struct delta d;

	snap_begin(&a, &b);
	__asm__ volatile("test %0,%0; jz 2f; 1: nop; add $1,%%rax; dec %0; jnz 1b; 2:"
			 : "+r"(n)
			 :
			 : "rax", "cc");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

/* Per iteration: 3 loads (aligned, misaligned, line-split) and 1 store. */
static __attribute__((noinline)) struct delta loadstore(long n, char *p)
{
	struct vpmu_counts a, b;
	struct delta d;

	snap_begin(&a, &b);
	__asm__ volatile("1: mov (%1),%%rax; mov %%rax,8(%1); movl 1(%1),%%ecx; movl 62(%1),%%edx;"
			 " dec %0; jnz 1b"
			 : "+r"(n)
			 : "r"(p)
			 : "rax", "rcx", "rdx", "cc", "memory");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

/* One load per 64-byte line of p[0 .. lines*64). */
static __attribute__((noinline)) struct delta stride(long lines, char *p)
{
	struct vpmu_counts a, b;
	struct delta d;

	snap_begin(&a, &b);
	__asm__ volatile("test %0,%0; jz 2f; 1: movzbl (%1),%%eax; add $64,%1; dec %0; jnz 1b; 2:"
			 : "+r"(lines), "+r"(p)
			 :
			 : "rax", "cc", "memory");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

static __attribute__((noinline)) struct delta rep(long n, char *p)
{
	struct vpmu_counts a, b;
	struct delta d;

	snap_begin(&a, &b);
	__asm__ volatile("rep stosb" : "+c"(n), "+D"(p) : "a"(0) : "memory");
	snap(&b);
	diff(&d, &a, &b);
	return d;
}

/* Per iteration: a load and two stores to line p (the first store dirties a clean line, the
 * second finds it dirty), then loads of the 8 lines 4 KiB apart that share its L1D set: with
 * 9 lines cycling through 8 ways every load misses, and p leaves L1D dirty once.  Each load
 * goes to its own register: VEX drops a load whose result is overwritten unread. */
static long prime_sink;

static __attribute__((noinline)) struct delta dirty_evict(long n, char *p)
{
	struct vpmu_counts a, b;
	struct delta d;

	/* Fill the set with 8 clean lines first, so that whatever the caller left dirty in it
	 * (its stack, whose lines move with the environment's size) is written back before the
	 * first snapshot, and every call starts from the same state of the set.  The loads'
	 * sum is stored: VEX drops loads whose results are never used. */
	__asm__ volatile("mov 36864(%1),%%rax; add 40960(%1),%%rax; add 45056(%1),%%rax;"
			 " add 49152(%1),%%rax; add 53248(%1),%%rax; add 57344(%1),%%rax;"
			 " add 61440(%1),%%rax; add 65536(%1),%%rax; mov %%rax,%0"
			 : "=m"(prime_sink)
			 : "r"(p)
			 : "rax", "cc", "memory");
	snap_begin(&a, &b);
	__asm__ volatile("1: mov (%1),%%rax; mov %%rax,(%1); mov %%rax,8(%1);"
			 " mov 4096(%1),%%rcx; mov 8192(%1),%%rdx; mov 12288(%1),%%rsi;"
			 " mov 16384(%1),%%rdi; mov 20480(%1),%%r8; mov 24576(%1),%%r9;"
			 " mov 28672(%1),%%r10; mov 32768(%1),%%r11; dec %0; jnz 1b"
			 : "+r"(n)
			 : "r"(p)
			 : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "cc",
			   "memory");
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
	CHECK(d1.v[0] > 0 && d1.v[0] < 64, "empty region costs a few instructions, got %lu",
	      d1.v[0]);
	d2 = loop(1000);
	sub(&d2, &d1);
	CHECK(d2.v[0] == 4000, "1000 iterations = 4000 over the empty region, got %lu", d2.v[0]);
	/* Stopped counters do not count the loop. */
	vp_req(VPMU_REQ_STOP, 1, 0, 0, 0);
	d2 = loop(5000);
	CHECK(d2.v[0] == 0, "stopped counter moved by %lu", d2.v[0]);
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
	/* dirty_evict() fills the set with clean lines before it starts counting, so the two
	 * calls start from the same state whatever the stack (whose place moves with the
	 * environment's size) left in the set between them. */
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
	CHECK(d.v[0] + d.v[1] == d.v[5], "active %lu + stall %lu == cycles %lu", d.v[0], d.v[1],
	      d.v[5]);
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
	struct vpmu_info in = {.hdr.size = sizeof(in)};

	CHECK(vp_req(VPMU_REQ_QUERY, (unsigned long)&in, sizeof(in), 0, 0) == 0, "QUERY");
	CHECK(in.hdr.magic == VPMU_MAGIC_INFO && in.model == VPMU_MODEL_COREI7, "model %u",
	      in.model);
	CHECK(in.nr_counters == 7 && in.nr_fixed == 3 && in.width_bits == 48, "counters %u",
	      in.nr_counters);
	CHECK(vp_req(VPMU_REQ_QUERY, (unsigned long)&in, 8, 0, 0) == -22, "short buffer refused");
}

int main(int argc, char **argv)
{
	static const struct vp_test tests[] = {
		{"present", t_present},	    {"loop", t_loop},
		{"loadstore", t_loadstore}, {"fastpath", t_fastpath},
		{"stride", t_stride},	    {"rep", t_rep},
		{"cmask", t_cmask},	    {"unsupported", t_unsupported},
	};

	return vp_run_tests(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
