// SPDX-License-Identifier: MIT
/*
 * Workload for regions under vpmu: region "loop" entered E times around N iterations of
 * {nop; add; dec; jnz} (4 instructions, 1 branch each), so that the instructions and
 * branches per entry are N x (4, 1) plus the constant cost of the markers. Run as
 * vpmu-region E N; built without sanitizers (it runs under Valgrind) and linked with a
 * libpmc built without them.
 */
#include <stdlib.h>
#include <pmc/region.h>

static __attribute__((noinline)) void loop(long n)
{
	__asm__ volatile("test %0,%0; jz 2f; 1: nop; add $1,%%rax; dec %0; jnz 1b; 2:"
			 : "+r"(n)
			 :
			 : "rax", "cc");
}

int main(int argc, char **argv)
{
	long entries = argc > 1 ? strtol(argv[1], NULL, 10) : 10;
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;

	pmc_region_register("loop"); /* registration and the thread's counters, before measuring */
	for (long e = 0; e < entries; e++) {
		pmc_region_begin("loop");
		loop(n);
		pmc_region_end("loop");
	}
	return 0;
}
