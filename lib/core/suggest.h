/* SPDX-License-Identifier: MIT */
/* "Did you mean": the closest known names to an unknown one, for every kind of name. */
#ifndef PMC_LIB_CORE_SUGGEST_H
#define PMC_LIB_CORE_SUGGEST_H

#include <pmc/event.h>

/*
 * Offers cand as a suggestion for the unknown name: err->suggest holds the (at most 3)
 * closest candidates seen so far, best first, with their edit distances in dist[3] (the
 * caller's, zeroed with err->nr_suggest before the first call). Case-insensitive; a "pmu::"
 * prefix of cand is also tried without it. Candidates further than a third of the name's
 * length (at least 2), equal to it, or too long for err->suggest are not kept.
 */
void pmc__suggest_add(struct pmc_parse_error *err, int *dist, const char *name, const char *cand);

#endif /* PMC_LIB_CORE_SUGGEST_H */
