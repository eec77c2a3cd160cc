// SPDX-License-Identifier: MIT
/* DWARF unwinding of a sample's copied user stack with libdwfl (perf's --call-graph dwarf). */
#include "sample/report.h"

size_t pmc__unwind_user(struct pmc_report *r, const struct pmc__sample *s, uint64_t *pcs,
			size_t max)
{
	return 0;
}

void pmc__unwind_free(struct pmc_report *r)
{
}
