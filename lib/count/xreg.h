/* SPDX-License-Identifier: MIT */
/*
 * The shared registers of a pass (core/backend.h, enum pmc_xreg): the values the events of a
 * pass program into each kind, one register each, no more distinct values than registers.
 */
#ifndef PMC_LIB_COUNT_XREG_H
#define PMC_LIB_COUNT_XREG_H

#include <stdbool.h>
#include <stdint.h>
#include "core/backend.h"

struct pmc_evlist;
struct pmc_evsel;

struct pmc__xregs {
	uint64_t val[PMC_XREG_NR][PMC_XREG_MAX]; /* the distinct values held */
	int nr[PMC_XREG_NR];			 /* how many */
	int cap[PMC_XREG_NR];			 /* registers of each kind a core has */
};

/*
 * The values the group led by leader programs into *out (zeroed first). -PMC_E_TOOMANY, with
 * a warning that says why, when the group needs more of one kind than a core has: it can
 * never be counted whole.
 */
int pmc__xregs_of_group(const struct pmc_evlist *evlist, const struct pmc_evsel *leader,
			struct pmc__xregs *out);
/* Whether a pass holding pass can also hold need. */
bool pmc__xregs_fit(const struct pmc__xregs *pass, const struct pmc__xregs *need);
/* Adds need's values to pass (they fit). */
void pmc__xregs_add(struct pmc__xregs *pass, const struct pmc__xregs *need);

#endif /* PMC_LIB_COUNT_XREG_H */
