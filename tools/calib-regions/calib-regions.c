// SPDX-License-Identifier: MIT
/*
 * pmc-calibrate-regions N [named]: the program pmc calibrate runs under the library's runner
 * to measure empty regions where it cannot measure them in its own process (under vpmu the
 * counted process must run under Valgrind). It enters the empty region "first" once, the
 * first region entry of the process, then the empty region "next" N times: with the markers
 * by id (pmc_region_begin_n()), or with "named" the named markers (pmc_region_begin(name)),
 * whose cost differs. Its symbols are bound lazily, as in most programs: the first entry pays
 * the dynamic linker's resolution of what the markers call, the later ones do not
 * (docs/accuracy.md); each form runs in its own process, so each pays its own.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/region.h>

int main(int argc, char **argv)
{
	char *end = NULL;
	long n = argc == 2 || argc == 3 ? strtol(argv[1], &end, 10) : -1;
	bool named = argc == 3 && !strcmp(argv[2], "named");
	int first, next;

	if (n < 1 || *end || (argc == 3 && !named)) {
		fprintf(stderr,
			"usage: %s N [named] (empty regions after the first, N >= 1; named: "
			"with the named markers)\n",
			argv[0]);
		return 2;
	}
	/* Registered before any entry, so that neither entry includes a registration. */
	first = pmc_region_register("first");
	next = pmc_region_register("next");
	if (first < 0 || next < 0)
		return 1; /* the runner reports the missing regions */
	if (named) {
		pmc_region_begin("first");
		pmc_region_end("first");
		for (long i = 0; i < n; i++) {
			pmc_region_begin("next");
			pmc_region_end("next");
		}
		return 0;
	}
	pmc_region_begin_n((unsigned)first);
	pmc_region_end_n((unsigned)first);
	for (long i = 0; i < n; i++) {
		pmc_region_begin_n((unsigned)next);
		pmc_region_end_n((unsigned)next);
	}
	return 0;
}
