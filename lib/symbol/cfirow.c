// SPDX-License-Identifier: MIT
/* The CFI rows of a process's pcs in compact form, asked of libdw once per pc (cfirow.h). */
#include <stdlib.h>
#include <string.h>
#include "symbol/cfirow.h"

/*
 * The CFA rule: libdw hands a register + offset rule out as one DW_OP_bregx (register,
 * offset) or DW_OP_bregN (offset); anything longer is a DWARF expression.
 */
static bool cfa_rule(const Dwarf_Op *ops, size_t nops, struct pmc__cfirow *r)
{
	unsigned reg;

	if (nops != 1)
		return false;
	if (ops[0].atom == DW_OP_bregx) {
		reg = (unsigned)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		r->cfa_off = (int64_t)ops[0].number;
	} else {
		return false;
	}
	if (reg >= PMC__CFI_NR_REGS)
		return false;
	r->cfa_reg = (uint8_t)reg;
	return true;
}

/*
 * A register's rule (libdw.h, dwarf_frame_register): no operation and ops_mem is undefined,
 * no operation and NULL is the same value; DW_OP_call_frame_cfa, an optional
 * DW_OP_plus_uconst and an optional DW_OP_stack_value are "at CFA + n" or, with the last,
 * "CFA + n". Any other expression is left to libdwfl.
 */
static bool reg_rule(const struct pmc__dw_api *dw, Dwarf_Frame *frame, unsigned regno,
		     struct pmc__cfirow *r)
{
	Dwarf_Op mem[3], *ops;
	size_t nops, i = 1;
	uint64_t off = 0;

	if (dw->dwarf_frame_register(frame, (int)regno, mem, &ops, &nops))
		return false;
	if (!nops) {
		if (ops && ops != mem)
			return false;
		r->same |= ops ? 0 : 1u << regno;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		off = ops[i++].number;
	if (i < nops && ops[i].atom == DW_OP_stack_value) {
		r->cfa |= 1u << regno;
		i++;
	} else {
		r->at_cfa |= 1u << regno;
	}
	/* The offset wraps as the unwinder's 64-bit arithmetic does; it must fit 32 bits. */
	if (i != nops || (int64_t)off != (int32_t)off)
		return false;
	r->off[regno] = (int32_t)off;
	return true;
}

/* Whether frame's row is of the simple form, filling r when it is. */
static bool simple_row(const struct pmc__dw_api *dw, Dwarf_Frame *frame, struct pmc__cfirow *r)
{
	Dwarf_Op *ops;
	size_t nops;
	bool signal;

	/* A signal frame's pc is exact, not a return address: libdwfl handles those. */
	if (dw->dwarf_frame_info(frame, NULL, NULL, &signal) != PMC__CFI_RA || signal)
		return false;
	if (dw->dwarf_frame_cfa(frame, &ops, &nops) || !cfa_rule(ops, nops, r))
		return false;
	for (unsigned i = 0; i < PMC__CFI_NR_REGS; i++)
		if (!reg_rule(dw, frame, i, r))
			return false;
	return true;
}

/* libdw's frame at pc: .eh_frame's first, then .debug_frame's, as libdwfl's unwinder asks. */
static Dwarf_Frame *addrframe(const struct pmc__dw_api *dw, Dwfl *dwfl, uint64_t pc)
{
	Dwfl_Module *mod = dw->dwfl_addrmodule(dwfl, pc);
	Dwarf_Frame *frame;
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;

	if (!mod)
		return NULL;
	cfi = dw->dwfl_module_eh_cfi(mod, &bias);
	if (cfi && !dw->dwarf_cfi_addrframe(cfi, pc - bias, &frame))
		return frame;
	cfi = dw->dwfl_module_dwarf_cfi(mod, &bias);
	if (cfi && !dw->dwarf_cfi_addrframe(cfi, pc - bias, &frame))
		return frame;
	return NULL;
}

static bool grow(struct pmc__cfirows *rows);

static size_t hash(const void *file, uint64_t pc, size_t mask)
{
	return (size_t)(((pc ^ (uintptr_t)file) * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

/* The slot of (file, pc): its row, or the empty slot where it goes. */
static struct pmc__cfirow *slot_of(const struct pmc__cfirows *rows, const void *file, uint64_t pc)
{
	size_t i = hash(file, pc, rows->mask);

	while (rows->slot[i].state && (rows->slot[i].pc != pc || rows->slot[i].file != file))
		i = (i + 1) & rows->mask;
	return &rows->slot[i];
}

/* The slot of (file, pc), emptied for a new row when it had none; NULL when out of memory. */
static struct pmc__cfirow *add(struct pmc__cfirows *rows, const void *file, uint64_t pc)
{
	struct pmc__cfirow *r;

	if (2 * (rows->nr + 1) > rows->mask && !grow(rows))
		return NULL;
	r = slot_of(rows, file, pc);
	if (!r->state) {
		memset(r, 0, sizeof(*r));
		r->file = file;
		r->pc = pc;
		rows->nr++;
	}
	return r;
}

/* Doubles the table (or makes its first 256 slots); false when out of memory. */
static bool grow(struct pmc__cfirows *rows)
{
	size_t nr_slots = rows->mask ? 2 * (rows->mask + 1) : 256;
	struct pmc__cfirows bigger = {.mask = nr_slots - 1, .nr = rows->nr};

	bigger.slot = calloc(nr_slots, sizeof(*bigger.slot));
	if (!bigger.slot)
		return false;
	for (size_t i = 0; rows->mask && i <= rows->mask; i++)
		if (rows->slot[i].state)
			*slot_of(&bigger, rows->slot[i].file, rows->slot[i].pc) = rows->slot[i];
	free(rows->slot);
	*rows = bigger;
	return true;
}

/* The row of a module's file at file address rel, from libdw on the first ask of any Dwfl. */
static const struct pmc__cfirow *file_row(struct pmc__cfirows *files, const struct pmc__dw_api *dw,
					  Dwfl *dwfl, const void *file, uint64_t pc, uint64_t rel)
{
	struct pmc__cfirow *r = files->mask ? slot_of(files, file, rel) : NULL;
	Dwarf_Frame *frame;

	if (r && r->state)
		return r;
	r = add(files, file, rel);
	if (!r)
		return NULL;
	frame = addrframe(dw, dwfl, pc);
	r->state = frame && simple_row(dw, frame, r) ? PMC__CFIROW_FAST : PMC__CFIROW_SLOW;
	free(frame);
	return r;
}

const struct pmc__cfirow *pmc__cfirows_find(struct pmc__cfirows *rows, struct pmc__cfirows *files,
					    const struct pmc__dw_api *dw, Dwfl *dwfl, uint64_t pc)
{
	const struct pmc__cfirow *fr = NULL;
	struct pmc__cfirow *r;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	void **file;

	if (rows->mask) {
		r = slot_of(rows, NULL, pc);
		if (r->state)
			return r;
	}
	mod = dw->dwfl_addrmodule(dwfl, pc);
	if (mod && dw->dwfl_module_info(mod, &file, NULL, NULL, NULL, NULL, NULL, NULL) && *file &&
	    dw->dwfl_module_getelf(mod, &bias))
		fr = file_row(files, dw, dwfl, *file, pc, pc - bias);
	else if (mod)
		return NULL; /* a module unwind.c did not report: not expected, left to libdwfl */
	r = add(rows, NULL, pc);
	if (!r || (mod && !fr))
		return NULL;
	if (fr)
		*r = *fr;
	r->file = NULL;
	r->pc = pc;
	r->state = fr ? fr->state : PMC__CFIROW_SLOW;
	return r;
}

void pmc__cfirows_clear(struct pmc__cfirows *rows)
{
	free(rows->slot);
	*rows = (struct pmc__cfirows){0};
}
