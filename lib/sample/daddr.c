// SPDX-License-Identifier: MIT
/* Data-address reconstruction: decode the sampled instruction, evaluate its memory operand. */
#include "sample/report.h"

bool pmc__daddr_reconstruct(struct pmc__dso *dso, uint64_t vaddr, const struct pmc__sample *s,
			    uint64_t *daddr)
{
	return false;
}
