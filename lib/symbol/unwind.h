/* SPDX-License-Identifier: MIT */
/* DWARF unwinding of a sample's copied user stack (unwind.c), over a machine's process maps. */
#ifndef PMC_LIB_SYMBOL_UNWIND_H
#define PMC_LIB_SYMBOL_UNWIND_H

#include <stddef.h>
#include <stdint.h>
#include "perfdata/perfdata.h"
#include "symbol/machine.h"

/* Per-process Dwfls, kept between samples; created by the first pmc__unwind_user(). */
struct pmc__unwind;

/*
 * User frames of sample s from its copied stack, resolved against m's maps, into
 * pcs[0..max). *u is the cache (NULL at first: created here, 0 frames if that fails).
 * Returns the number of pcs written.
 */
size_t pmc__unwind_user(struct pmc__unwind **u, struct pmc__machine *m, const struct pmc__sample *s,
			uint64_t *pcs, size_t max);
/* Frees the cache *u (NULL is fine) and sets *u to NULL. */
void pmc__unwind_free(struct pmc__unwind **u);

#endif /* PMC_LIB_SYMBOL_UNWIND_H */
