// SPDX-License-Identifier: MIT
/* Workload for vDSO symbols: nearly all time in clock_gettime(), which runs in the vDSO. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	struct timespec ts;
	unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		acc += (unsigned long)ts.tv_nsec;
	}
	printf("%lu\n", acc & 1);
	return 0;
}
