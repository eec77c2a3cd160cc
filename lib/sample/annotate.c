// SPDX-License-Identifier: MIT
/* pmc annotate: a function's disassembly (capstone) with samples per instruction and source lines. */
#include <errno.h>
#include "sample/report.h"

int pmc_report__annotate(struct pmc_report *r, const char *symbol, const char *dso, FILE *out)
{
	return -ENOENT;
}
