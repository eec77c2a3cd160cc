// SPDX-License-Identifier: MIT
/*
 * Technique 2 of the thesis (section 5.4.2, Figure 5.7): a region around a loop body with one
 * entry and two exits. Every exit path needs its own end; equal entered and exited counts
 * show that none was missed. Each iteration makes one getppid(2) call; the loop leaves
 * early on the 7th iteration, so the region is entered 7 times with 1 call per entry.
 */
#define _GNU_SOURCE /* syscall() */
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <pmc/region.h>

int main(void)
{
	int i;

	for (i = 0; i < 10; i++) {
		pmc_region_begin("loop");
		syscall(SYS_getppid);
		if (i == 6) {
			pmc_region_end("loop"); /* the early exit */
			break;
		}
		pmc_region_end("loop"); /* before the loop-back edge */
	}
	printf("left the loop at %d\n", i);
	return 0;
}
