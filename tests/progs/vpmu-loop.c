// SPDX-License-Identifier: MIT
/*
 * Workload with counts known per iteration, for the vpmu backend's exact-count tests:
 *   vpmu-loop loop N      N x {nop; add; dec; jnz}: 4 instructions, 1 conditional branch
 *   vpmu-loop branches N  N x {test; jz; [nop]; inc; dec; jnz}: 2 conditional branches,
 *                         5.5 instructions on average (the nop runs on odd i)
 * Runs of different N with the same number of digits take the same path everywhere else,
 * so differences between two runs are exact multiples of the per-iteration counts.
 */
#include <stdlib.h>
#include <string.h>

static __attribute__((noinline)) void loop(long n)
{
	__asm__ volatile("test %0,%0; jz 2f; 1: nop; add $1,%%rax; dec %0; jnz 1b; 2:"
			 : "+r"(n)
			 :
			 : "rax", "cc");
}

static __attribute__((noinline)) void branches(long n)
{
	long i = 0;

	__asm__ volatile(
		"test %0,%0; jz 3f; 1: test $1,%1; jz 2f; nop; 2: inc %1; dec %0; jnz 1b; 3:"
		: "+r"(n), "+r"(i)
		:
		: "cc");
}

int main(int argc, char **argv)
{
	long n;

	if (argc != 3)
		return 2;
	n = strtol(argv[2], NULL, 10);
	if (!strcmp(argv[1], "loop"))
		loop(n);
	else if (!strcmp(argv[1], "branches"))
		branches(n);
	else
		return 2;
	return 0;
}
