/* SPDX-License-Identifier: MIT */
/* Sampling tests: precise samples name the missing load with its registers and data address,
 * imprecise ones land --skid instructions later, the LBR holds the loop branch, and the
 * latency threshold filters loads. */
#include <string.h>
#include "vpmu-guest.h"

#define ITERS 20000
static char hot[64] __attribute__((aligned(64)));
static char cold[ITERS * 4160UL] __attribute__((aligned(4096)));
extern const char miss_ip[], after3_ip[], loop_head[], loop_branch[];

/* Per iteration: three loads of one hot line and one load of a new line (stride 4 KiB + 64,
 * so it always misses L1D). */
static __attribute__((noinline)) void kernel(long n, long first)
{
	const char *p = cold + first * 4160;

	__asm__ volatile("loop_head: movzbl (%2),%%eax; movzbl 8(%2),%%esi; movzbl 16(%2),%%edi;\n"
			 "miss_ip: movzbl (%1),%%ecx\n"
			 " add $4160,%1; nop\n"
			 "after3_ip: nop; dec %0\n"
			 "loop_branch: jnz loop_head"
			 : "+r"(n), "+d"(p)
			 : "r"(hot)
			 : "rax", "rcx", "rsi", "rdi", "cc", "memory");
}

static struct vpmu_rec_sample samples[512];

static unsigned drain(void)
{
	long n = vp_req(VPMU_REQ_DRAIN, (unsigned long)samples, sizeof(samples), 0, 0);

	return n > 0 ? n / sizeof(samples[0]) : 0;
}

static void t_precise(int imprecise)
{
	unsigned n, at_ip = 0, addr_ok = 0, lbr_ok = 0;

	/* L1D load misses, sampled every 97. */
	vp_program(0, EVT(0x40, 0x01) | VPMU_EVTSEL_INT, 97,
		   (imprecise ? VPMU_PROG_IMPRECISE : VPMU_PROG_PRECISE) | VPMU_PROG_LBR);
	vp_req(VPMU_REQ_WRMSR, VPMU_MSR_DEBUGCTL, 1, 0, 0);
	vp_req(VPMU_REQ_START, 1, 0, 0, 0);
	kernel(ITERS, 0);
	vp_req(VPMU_REQ_STOP, 1, 0, 0, 0);
	n = drain();
	for (unsigned i = 0; i < n; i++) {
		const struct vpmu_rec_sample *s = &samples[i];
		const char *want = imprecise ? after3_ip : miss_ip;

		at_ip += s->ip == (unsigned long)want && s->event_ip == (unsigned long)miss_ip;
		addr_ok += (s->flags & VPMU_SAMPLE_HAS_ADDR) && s->addr == s->regs[VPMU_REG_RDX] &&
			   s->regs[VPMU_REG_RIP] == s->ip;
		lbr_ok += s->nr_lbr > 0 && s->lbr[0].from == (unsigned long)loop_branch &&
			  s->lbr[0].to == (unsigned long)loop_head;
	}
	if (n)
		printf("first sample: ip %#lx event_ip %#lx; miss_ip %p after3_ip %p\n",
		       (unsigned long)samples[0].ip, (unsigned long)samples[0].event_ip,
		       (void *)miss_ip, (void *)after3_ip);
	printf("%s: %u samples, %u at the expected ip, %u with address = rdx, %u with the loop "
	       "branch on top of the LBR\n",
	       imprecise ? "imprecise" : "precise", n, at_ip, addr_ok, lbr_ok);
	CHECK(n >= ITERS / 97 - 2 && n <= ITERS / 97 + 1, "about %d samples, got %u", ITERS / 97,
	      n);
	CHECK(at_ip * 100 >= n * 95, "95%% of samples at the expected ip: %u of %u", at_ip, n);
	CHECK(lbr_ok * 100 >= n * 95, "LBR top is the loop branch: %u of %u", lbr_ok, n);
	if (!imprecise)
		CHECK(addr_ok * 100 >= n * 95, "data address equals the sampled register: %u of %u",
		      addr_ok, n);
}

static void t_latency(void)
{
	unsigned long v0, v1;

	vp_program(0, EVT(0x0b, 0x10), 0, 0); /* MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD */
	vp_req(VPMU_REQ_START, 1, 0, 0, 0);
	kernel(10, 0);
	vp_req(VPMU_REQ_WRMSR, VPMU_MSR_PEBS_LD_LAT, 8, 0, 0);
	v0 = vp_read(0);
	kernel(1000, 10);
	v0 = vp_read(0) - v0;
	vp_req(VPMU_REQ_WRMSR, VPMU_MSR_PEBS_LD_LAT, 0, 0, 0);
	v1 = vp_read(0);
	kernel(1000, 1010);
	v1 = vp_read(0) - v1;
	printf("latency > 8: %lu loads, > 0: %lu loads\n", v0, v1);
	CHECK(v0 >= 1000 && v0 <= 1004, "only the 1000 missing loads are above 8 cycles: %lu", v0);
	CHECK(v1 >= 4000, "every load is above 0 cycles: %lu", v1);
}

int main(int argc, char **argv)
{
	vp_require_vpmu();
	if (argc > 1 && !strcmp(argv[1], "precise"))
		t_precise(0);
	else if (argc > 1 && !strcmp(argv[1], "imprecise"))
		t_precise(1);
	else if (argc > 1 && !strcmp(argv[1], "latency"))
		t_latency();
	else
		kernel(ITERS, 0); /* plain workload for determinism and stream tests */
	return failures != 0;
}
