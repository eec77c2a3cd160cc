// SPDX-License-Identifier: MIT
/*
 * pmc-kernels: the validation kernels of pmc validate (docs/accuracy.md), each with a size
 * parameter and the counts it predicts as functions of that size.
 *
 *   pmc-kernels KERNEL N   runs KERNEL at size N and exits 0
 *   pmc-kernels --list     prints each prediction, one a line, tab-separated:
 *                          kernel, event (or a quantity of pmc's
 *                          data/validate/events.tsv: loads, stores, ...),
 *                          per-size count (or '-': reported, not
 *                          predicted), start-up (a count, or '-' when the program's own
 *                          start-up and exit add an unknown constant), the default sizes
 *                          and the quick sizes (comma-separated), and the backend the row
 *                          is for (any, perf or vpmu)
 *
 * This file is the one source of the predictions: each kernel's code and what it predicts
 * sit side by side. Counts are per unit of N; the program's start-up and exit are the same at
 * every size (the kernel runs after the same start-up whatever N is), so pmc validate fits
 * reported = factor x predicted + overhead over several sizes and a constant start-up shows
 * as the overhead. Where the start-up provably adds nothing (no getppid call, no write to the
 * watched variable before main), the start-up column is 0 and an overhead is a bias.
 *
 * The memory kernels (array-*, chase-*) are in array.c; the --list line they all print in
 * list.c.
 *
 * Built static and without PIE, so that the watched variable's address is fixed and known before
 * the run
 * ("%BP%" in an event names it).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "kernels.h"

/* The variable the breakpoint kernel writes; its address is fixed (no PIE). */
volatile long pmc_kernels_watched;

static char src_buf[1 << 16], dst_buf[1 << 16];
static long cell_a = 1, cell_b;

/* N x {load; store; dec; jnz}: 4 instructions, 1 conditional branch (taken N-1 times). */
static void k_loop(long n)
{
	__asm__ volatile("test %0,%0; jz 2f\n"
			 "1: mov (%1),%%rax; mov %%rax,(%2); dec %0; jnz 1b\n"
			 "2:"
			 : "+r"(n)
			 : "r"(&cell_a), "r"(&cell_b)
			 : "rax", "cc", "memory");
}

/*
 * K straight-line one-byte nops: a jump into a sled of 65536 of them, K before its end, so
 * that the instructions executed grow by exactly one per unit of K and nothing else does.
 */
static void k_inline(long k)
{
	if (k < 0 || k > 65536)
		exit(2);
	__asm__ volatile("lea 2f(%%rip),%%rax; sub %0,%%rax; jmp *%%rax\n"
			 "1: .fill 65536,1,0x90\n"
			 "2:"
			 :
			 : "r"(k)
			 : "rax", "cc");
}

/* One rep movsb of N bytes: one instruction, N loads and N stores. */
static void k_rep(long n)
{
	void *d = dst_buf, *s = src_buf;

	if (n < 0 || n > (long)sizeof(dst_buf))
		exit(2);
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/* N x {addsd; addpd; dec; jnz}: one scalar and one packed double-precision operation. */
static void k_fp(long n)
{
	__asm__ volatile("test %0,%0; jz 2f\n"
			 "1: addsd %%xmm1,%%xmm0; addpd %%xmm1,%%xmm2; dec %0; jnz 1b\n"
			 "2:"
			 : "+r"(n)
			 :
			 : "xmm0", "xmm2", "cc");
}

/* N getppid system calls, through syscall() so that nothing in libc can cache one. */
static void k_syscall(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* N writes to the watched variable. */
static void k_breakpoint(long n)
{
	for (long i = 0; i < n; i++)
		pmc_kernels_watched = i;
}

struct prediction {
	/*
	 * An event, or a quantity of data/validate/events.tsv (loads, stores, branches-cond,
	 * ...), which pmc validate counts with the event the table names for the CPU; "%BP%"
	 * stands for the watched variable's address.
	 */
	const char *event;
	double per_size;
	const char *startup; /* a count, or "-": unknown */
};

struct kernel {
	const char *name;
	void (*run)(long n);
	const char *sizes, *quick;
	struct prediction p[8];
};

static const struct kernel kernels[] = {
	{"loop",
	 k_loop,
	 "100000,200000,300000,400000",
	 "100000,200000,300000",
	 {{"instructions", 4, "-"},
	  {"branches", 1, "-"},
	  {"branches-cond", 1, "-"},
	  {"branches-taken", 1, "-"},
	  {"loads", 1, "-"},
	  {"stores", 1, "-"}}},
	{"inline",
	 k_inline,
	 "10000,20000,30000,40000",
	 "20000,30000,40000",
	 {{"instructions", 1, "-"},
	  {"branches", 0, "-"},
	  {"branches-cond", 0, "-"},
	  {"loads", 0, "-"},
	  {"stores", 0, "-"}}},
	{"rep",
	 k_rep,
	 "10000,20000,30000,40000",
	 "20000,30000,40000",
	 {{"instructions", 0, "-"},
	  {"branches", 0, "-"},
	  {"branches-cond", 0, "-"},
	  {"loads", 1, "-"},
	  {"stores", 1, "-"}}},
	{"fp",
	 k_fp,
	 "100000,200000,300000,400000",
	 "100000,200000,300000",
	 {{"instructions", 4, "-"}, {"fp-scalar-double", 1, "-"}, {"fp-packed-double", 1, "-"}}},
	{"syscall",
	 k_syscall,
	 "1000,2000,3000,4000",
	 "1000,2000,3000",
	 {{"syscalls:sys_enter_getppid", 1, "0"}, {"syscalls:sys_exit_getppid", 1, "0"}}},
	{"breakpoint",
	 k_breakpoint,
	 "1000,2000,3000,4000",
	 "1000,2000,3000",
	 {{"mem:%BP%:w:u", 1, "0"}, {"mem:%BP%:w", 1, "0"}}},
};

#define NR_KERNELS (sizeof(kernels) / sizeof(kernels[0]))

static int list(void)
{
	for (size_t k = 0; k < NR_KERNELS; k++)
		for (const struct prediction *p = kernels[k].p; p->event; p++)
			kernels_print(kernels[k].name, p->event, p->per_size, p->startup,
				      kernels[k].sizes, kernels[k].quick, "any");
	array_list();
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	char *end;
	long n;
	int rc;

	if (argc == 2 && !strcmp(argv[1], "--list"))
		return list();
	if (argc != 3) {
		fprintf(stderr, "usage: pmc-kernels KERNEL N | pmc-kernels --list\n");
		return 2;
	}
	n = strtol(argv[2], &end, 10);
	if (*end || n < 0) {
		fprintf(stderr, "pmc-kernels: the size is a count >= 0, not '%s'\n", argv[2]);
		return 2;
	}
	for (size_t k = 0; k < NR_KERNELS; k++)
		if (!strcmp(argv[1], kernels[k].name)) {
			kernels[k].run(n);
			return 0;
		}
	rc = array_run(argv[1], n);
	if (rc >= 0)
		return rc;
	fprintf(stderr, "pmc-kernels: no kernel '%s' (pmc-kernels --list)\n", argv[1]);
	return 2;
}
