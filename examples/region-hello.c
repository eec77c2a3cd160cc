// SPDX-License-Identifier: MIT
/*
 * The thesis's modified hello program (Figure 5.4): region 0 around the whole program,
 * region 1 around the second printf. Run it as `pmc stat -e EVENTS ./region-hello` or
 * with PMC_EVENTS=EVENTS set.
 */
#include <stdio.h>
#include <pmc/region.h>

int main(void)
{
	int j = 0;

	pmc_region_begin_n(0);
	printf("Hello World!\n");
	for (int i = 999999; i >= 0; i--)
		j += 2;
	pmc_region_begin_n(1);
	printf("j is: %d\n", j);
	fflush(stdout); /* the write(2) belongs in region 1 */
	pmc_region_end_n(1);
	pmc_region_end_n(0);
	return 0;
}
