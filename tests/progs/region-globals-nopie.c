// SPDX-License-Identifier: MIT
/*
 * Workload: region "w" entered 10 times, each entry writing each of four globals 5 times.
 * Without PIE, so the globals' addresses are known before the run: breakpoints on them
 * count 50 for the whole program and 5 per entry of the region — and the runner must leave
 * the command debug registers of its own for the region's counters.
 */
#include <pmc/region.h>

volatile long g0, g1, g2, g3;

int main(void)
{
	for (int e = 0; e < 10; e++) {
		pmc_region_begin("w");
		for (int i = 0; i < 5; i++) {
			g0 = i;
			g1 = i;
			g2 = i;
			g3 = i;
		}
		pmc_region_end("w");
	}
	return 0;
}
