// SPDX-License-Identifier: MIT
/*
 * Workload: writes each of six globals exactly N times (N = argv[1], default 1000).
 * Built without PIE so the globals' addresses are fixed and known before the run
 * (nm gives them); a breakpoint on g0..g5 then counts N plus the start-up's writes (0).
 */
#include <stdlib.h>

volatile long g0, g1, g2, g3, g4, g5;

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;

	for (long i = 0; i < n; i++) {
		g0 = i;
		g1 = i;
		g2 = i;
		g3 = i;
		g4 = i;
		g5 = i;
	}
	return 0;
}
