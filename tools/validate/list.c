// SPDX-License-Identifier: MIT
/* pmc-kernels --list: the line each prediction is printed as, for kernels.c and array.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "kernels.h"

void kernels_print(const char *kernel, const char *event, double per_size, const char *startup,
		   const char *sizes, const char *quick, const char *backend)
{
	const char *bp = strstr(event, "%BP%");

	printf("%s\t", kernel);
	if (bp)
		printf("%.*s%p%s", (int)(bp - event), event, (void *)&pmc_kernels_watched, bp + 4);
	else
		fputs(event, stdout);
	if (isnan(per_size))
		printf("\t-");
	else
		printf("\t%.17g", per_size);
	printf("\t%s\t%s\t%s\t%s\n", startup, sizes, quick, backend);
}
