// SPDX-License-Identifier: MIT
/*
 * Technique 3 of the thesis (section 5.4.3, Figure 5.8): non-overlapping regions before,
 * around and after a loop, instead of a whole-program region that would also contain the
 * loop's marker overhead. Their sum is the whole program. Calls: 2 before, 3 per iteration
 * for 5 iterations, 4 after, so the regions read 2, 15 and 4 and add up to 21.
 */
#define _GNU_SOURCE /* syscall() */
#include <unistd.h>
#include <sys/syscall.h>
#include <pmc/region.h>

static void calls(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
}

int main(void)
{
	pmc_region_begin_n(0);
	calls(2);
	pmc_region_end_n(0);
	pmc_region_begin_n(1);
	for (int i = 0; i < 5; i++)
		calls(3);
	pmc_region_end_n(1);
	pmc_region_begin_n(2);
	calls(4);
	pmc_region_end_n(2);
	return 0;
}
