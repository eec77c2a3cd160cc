/* SPDX-License-Identifier: MIT */
/* The symbol table's state, shared by symtab.c and dso.c. */
#ifndef PMC_LIB_SYMBOL_SYMTAB_H
#define PMC_LIB_SYMBOL_SYMTAB_H

#include "symbol/addrmap.h"
#include "symbol/symbol.h"

struct ksym {
	uint64_t addr;
	const char *name;     /* interned */
	struct pmc__sym *sym; /* created on first hit */
};

struct pmc__symtab {
	struct pmc__symtab_opts opts;
	struct pmc__addrmap strings; /* string hash → chain of interned strings */
	struct pmc__addrmap dsos;    /* interned path → struct pmc__dso */
	struct ksym *ksyms;	     /* sorted by address; loaded on the first kernel address */
	size_t nr_ksyms;
	bool ksyms_tried;
	uint64_t nr_lookups;
};

void pmc__dso_free(struct pmc__dso *dso);
/* Resolves a kernel address with /proc/kallsyms (symtab.c). */
struct pmc__sym *pmc__kallsyms_find(struct pmc__symtab *st, struct pmc__dso *kdso, uint64_t addr);
/* The interned symbol object of the kernel pseudo-DSO at start (dso.c). */
struct pmc__sym *pmc__dso_kernel_sym(struct pmc__dso *d, const char *name, uint64_t start);

#endif /* PMC_LIB_SYMBOL_SYMTAB_H */
