/* SPDX-License-Identifier: MIT */
/*
 * The CFI rows of a sampled process's pcs, asked of libdw once per pc and kept in a compact
 * form (cfirow.c): the fast path of DWARF unwinding (unwind.c) steps through a sample's
 * copied stack with them and leaves to libdwfl every frame whose rule they cannot say.
 */
#ifndef PMC_LIB_SYMBOL_CFIROW_H
#define PMC_LIB_SYMBOL_CFIROW_H

#include <stddef.h>
#include <stdint.h>
#include "symbol/dw-api.h"

/* x86-64's DWARF registers that libdwfl unwinds: rax..r15 (0-15) and the return address (16). */
#define PMC__CFI_NR_REGS 17
#define PMC__CFI_RA 16

/*
 * One pc's row, when it is of the simple form: CFA = register + offset, and the caller's
 * value of each register either unchanged by this frame (same), the word at CFA + off[i]
 * (at_cfa), CFA + off[i] itself (cfa), or else undefined (not recoverable: call-clobbered,
 * or the outermost frame's return address). Bit i of a mask is DWARF register i.
 */
struct pmc__cfirow {
	const void *file; /* NULL: pc is a run-time address; else the file (struct pmc__dso) */
	uint64_t pc;	  /* the address looked up (a return address less one, past frame 0) */
	int64_t cfa_off;
	int32_t off[PMC__CFI_NR_REGS];
	uint32_t same, at_cfa, cfa;
	uint8_t cfa_reg;
	uint8_t state; /* 0: slot empty; PMC__CFIROW_FAST or PMC__CFIROW_SLOW */
};
#define PMC__CFIROW_FAST 1
/* No module or CFI there, a signal frame, a DWARF expression: only libdwfl can unwind it. */
#define PMC__CFIROW_SLOW 2

/* Rows by file and address: of one Dwfl by run-time pc, or of every file by file address. */
struct pmc__cfirows {
	struct pmc__cfirow *slot;
	size_t nr, mask; /* used slots; number of slots less one (a power of two), or 0 */
};

/*
 * The row at run-time address pc in dwfl's modules (rows: this Dwfl's), looked up in libdw on
 * the first ask of its file and file address (files: every Dwfl's, by the struct pmc__dso
 * that unwind.c keeps as each module's userdata): a process whose maps changed, or another
 * process of the same programs, does not load a file's CFI again. libdw is asked as libdwfl's
 * unwinder asks it: the CFI of .eh_frame, then of .debug_frame. NULL only when out of memory.
 */
const struct pmc__cfirow *pmc__cfirows_find(struct pmc__cfirows *rows, struct pmc__cfirows *files,
					    const struct pmc__dw_api *dw, Dwfl *dwfl, uint64_t pc);
/* Frees the rows (not rows itself) and empties them. */
void pmc__cfirows_clear(struct pmc__cfirows *rows);

#endif /* PMC_LIB_SYMBOL_CFIROW_H */
