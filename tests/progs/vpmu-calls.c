// SPDX-License-Identifier: MIT
/*
 * A known call tree for call chains under vpmu (cli.test-vpmu-callchain):
 *   main -> a -> b -> leaf(3 N)    main -> c -> leaf(N)
 * leaf(n) is a loop of 4 instructions n times, so with N = argv[1] three quarters of the
 * loop's 16 N instructions run under a and b, one quarter under c. Every function does work
 * after its call, so no call is a tail call.
 */
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) void leaf(long n)
{
	__asm__ volatile("test %0,%0; jz 2f; 1: nop; add $1,%%rax; dec %0; jnz 1b; 2:"
			 : "+r"(n)
			 :
			 : "rax", "cc");
}

__attribute__((noinline)) void b(long n)
{
	leaf(3 * n);
	sink++;
}

__attribute__((noinline)) void a(long n)
{
	b(n);
	sink++;
}

__attribute__((noinline)) void c(long n)
{
	leaf(n);
	sink++;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;

	a(n);
	c(n);
	return sink == 3 ? 0 : 1;
}
