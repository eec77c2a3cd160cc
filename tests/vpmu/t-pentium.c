/* SPDX-License-Identifier: MIT */
/* The thesis's synthetic programs (Figures 5.10, 5.11) under the Pentium model, measured in
 * one region with the empty region subtracted (Tables 5.3, 5.4); see docs/vpmu.md. */
#include <string.h>
#include "vpmu-guest.h"

#define P5(es) ((es) | (VPMU_P5_CC_USR << 6))

static char stack[4096] __attribute__((aligned(64)));

/* Figure 5.10 in x86-64 (the .align directive is dropped: modern gas pads with NOPs). */
#define PROG1                                                                          \
	"push %%rbp; mov %%rsp,%%rbp; mov $99,%%eax; 1: inc %%edx; dec %%eax; jns 1b;" \
	"xor %%eax,%%eax; leave;"
/* Figure 5.11 on a private stack whose rbp-511 is 1 mod 4 and inside one 32-byte line. */
#define PROG2                                                            \
	"push %%rbp; mov %%rsp,%%rbp; sub $1024,%%rsp; xor %%edx,%%edx;" \
	"1: incl -511(%%rbp,%%rdx,4); inc %%edx; cmp $2,%%edx; jle 1b; leave;"
#define SWITCH_IN "mov %%rsp,%%r12; mov %4,%%rsp;"
#define SWITCH_OUT "mov %%r12,%%rsp;"

/* Both regions are one asm statement each, identical but for the program, with the READ
 * requests written out (the <valgrind.h> amd64 sequence), so the difference is exact. */
static unsigned long rq0[6] __attribute__((used)) = {VPMU_REQ_READ, 0};
static unsigned long rq1[6] __attribute__((used)) = {VPMU_REQ_READ, 1};

/* Results go to r8..r11, not memory: a store would disturb the Pentium's no-write-allocate
 * L1D between the two regions. */
#define RQ(args, reg)                                                        \
	"lea " #args "(%%rip),%%rax; xor %%edx,%%edx; rolq $3,%%rdi;"        \
	"rolq $13,%%rdi; rolq $61,%%rdi; rolq $51,%%rdi; xchgq %%rbx,%%rbx;" \
	"mov %%rdx,%%" #reg ";"
#define REGION(PROG) RQ(rq0, r8) RQ(rq1, r9) SWITCH_IN PROG SWITCH_OUT RQ(rq0, r10) RQ(rq1, r11)

static void warm_stack(const char *top)
{
	for (int i = -48; i < 16; i += 8)
		(void)*(volatile const char *)(top + i); /* Pentium L1D allocates on reads only */
}

#define RUN(PROG, v)                                                            \
	do {                                                                    \
		register unsigned long r8 __asm__("r8"), r9 __asm__("r9");      \
		register unsigned long r10 __asm__("r10"), r11 __asm__("r11");  \
		__asm__ volatile(REGION(PROG)                                   \
				 : "=&r"(r8), "=&r"(r9), "=&r"(r10), "=&r"(r11) \
				 : "r"(top)                                     \
				 : "rax", "rdx", "r12", "cc", "memory");        \
		v[0] = r8;                                                      \
		v[1] = r9;                                                      \
		v[2] = r10;                                                     \
		v[3] = r11;                                                     \
	} while (0)

#define MEASURE(fn, PROG)                               \
	static void fn(unsigned long out[2])            \
	{                                               \
		char *top = stack + sizeof(stack) - 16; \
		unsigned long e[4], m[4];               \
                                                        \
		warm_stack(top);                        \
		RUN("", e);                             \
		warm_stack(top);                        \
		RUN(PROG, m);                           \
		out[0] = (m[2] - m[0]) - (e[2] - e[0]); \
		out[1] = (m[3] - m[1]) - (e[3] - e[1]); \
	}

MEASURE(measure1, PROG1)
MEASURE(measure2, PROG2)

struct pair {
	const char *name;
	int prog;
	unsigned es[2];
	unsigned long expect[2];
};

/* The model's values; they equal the theoretical values of Tables 5.3/5.4 except where
 * docs/vpmu.md explains otherwise (BTB hits 99 vs 98, branches 3 vs 4). */
static const struct pair pairs[] = {
	{"prog1-a", 1, {0x16, 0x12}, {305, 100}},  /* instructions, branches */
	{"prog1-b", 1, {0x13, 0x14}, {99, 100}},   /* BTB hits, taken or BTB hit */
	{"prog1-c", 1, {0x15, 0x16}, {2, 305}},	   /* pipeline flushes */
	{"prog2-a", 2, {0x00, 0x01}, {4, 4}},	   /* data read, data write */
	{"prog2-b", 2, {0x03, 0x04}, {1, 0}},	   /* read miss, write miss */
	{"prog2-c", 2, {0x06, 0x0b}, {0, 6}},	   /* written back, misaligned */
	{"prog2-d", 2, {0x12, 0x28}, {3, 8}},	   /* branches, read or write */
	{"prog2-errata", 2, {0x00, 0x01}, {7, 7}}, /* with --p5-errata=yes */
};

int main(int argc, char **argv)
{
	unsigned long v[2];

	vp_require_vpmu();
	if (argc > 1 && !strcmp(argv[1], "unsupported")) {
		char why[160] = "";
		long r = vp_req(VPMU_REQ_PROGRAM, 0, P5(0x17), 0, 0);

		vp_req(VPMU_REQ_STRERROR, (unsigned long)why, sizeof(why), 0, 0);
		CHECK(r == -95 && strstr(why, "pairing"), "v-pipe rejected: %ld '%s'", r, why);
		printf("%s\n", why);
		return failures != 0;
	}
	for (unsigned i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const struct pair *p = &pairs[i];

		if (argc < 2 || strcmp(argv[1], p->name))
			continue;
		vp_program(0, P5(p->es[0]), 0, 0);
		vp_program(1, P5(p->es[1]), 0, 0);
		vp_req(VPMU_REQ_START, VPMU_ALL_COUNTERS, 0, 0, 0);
		if (p->prog == 1)
			measure1(v);
		else
			measure2(v);
		printf("%s: event 0x%02x = %lu, event 0x%02x = %lu\n", p->name, p->es[0], v[0],
		       p->es[1], v[1]);
		CHECK(v[0] == p->expect[0], "event 0x%02x: expected %lu", p->es[0], p->expect[0]);
		CHECK(v[1] == p->expect[1], "event 0x%02x: expected %lu", p->es[1], p->expect[1]);
	}
	return failures != 0;
}
