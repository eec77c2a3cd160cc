/* SPDX-License-Identifier: MIT */
/* Function extents from an object's .eh_frame, for code that no symbol names (stripped). */
#ifndef PMC_LIB_SYMBOL_EHFRAME_H
#define PMC_LIB_SYMBOL_EHFRAME_H

#include <stdint.h>
#include "symbol/dw-api.h"

/*
 * The range [*start, *end) of the FDE (one function's call-frame information) of elf's
 * .eh_frame that holds vaddr, in file virtual addresses. The section's bytes are untrusted:
 * every field is bounds-checked by dwarf_next_cfi() and here. 0, or -ENOENT.
 */
int pmc__ehframe_range(const struct pmc__dw_api *dw, Elf *elf, uint64_t vaddr, uint64_t *start,
		       uint64_t *end);

#endif /* PMC_LIB_SYMBOL_EHFRAME_H */
