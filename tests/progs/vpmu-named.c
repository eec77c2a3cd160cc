// SPDX-License-Identifier: MIT
/*
 * Workload for the named markers under vpmu, built as a usual program is: libpmc.so bound
 * lazily. Region "first" is entered once, first (a process's first entry, which pays the
 * dynamic linker's binding of the markers and is charged to the region registered first: its
 * cost depends on the libraries the program links, so it is kept apart); region "empty" is
 * entered E times with nothing inside, "a_region_whose_name_is_long" E times around N
 * iterations of {nop; add; dec; jnz} (4 instructions each). Run as vpmu-named E N; with the
 * calibration of the named markers subtracted, "empty" counts 0 and the other 4 N + 5 an
 * entry (the loop's argument, call, test, branch and return), whatever the length of the names.
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

	/* registration and the thread's counters before measuring, as pmc-calibrate-regions */
	pmc_region_register("first");
	pmc_region_register("empty");
	pmc_region_register("a_region_whose_name_is_long");
	pmc_region_begin("first");
	pmc_region_end("first");
	for (long e = 0; e < entries; e++) {
		pmc_region_begin("empty");
		pmc_region_end("empty");
	}
	for (long e = 0; e < entries; e++) {
		pmc_region_begin("a_region_whose_name_is_long");
		loop(n);
		pmc_region_end("a_region_whose_name_is_long");
	}
	return 0;
}
