// SPDX-License-Identifier: MIT
/*
 * Workload for pmc annotate's source lines (cli.test-annotate-source): two loops of 4
 * instructions each, on two source lines of one function; the first runs 3N times, the
 * second N times, so under vpmu's exact instruction counts the first line holds 75 % of
 * the function's instructions and the second 25 % (a few set-up instructions aside).
 *   annotate-lines N
 */
#include <stdlib.h>

/* 4 instructions a pass, n passes; the instructions belong to the line that uses the macro. */
#define LOOP4(n) __asm__ volatile("1: nop; add $1,%%rax; dec %0; jnz 1b" : "+r"(n) : : "rax", "cc")

static __attribute__((noinline)) void work(long n)
{
	long hot = 3 * n, cold = n;

	LOOP4(hot);  /* HOT */
	LOOP4(cold); /* COLD */
}

int main(int argc, char **argv)
{
	long n = argc == 2 ? strtol(argv[1], NULL, 10) : 0;

	if (n <= 0)
		return 2;
	work(n);
	return 0;
}
