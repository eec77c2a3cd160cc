/* SPDX-License-Identifier: MIT */
/* The symbol table's state, shared by symtab.c, intern.c, kallsyms.c and dso.c. */
#ifndef PMC_LIB_SYMBOL_SYMTAB_H
#define PMC_LIB_SYMBOL_SYMTAB_H

#include "symbol/addrmap.h"
#include "symbol/symbol.h"

struct ksym {
	uint64_t addr;
	const char *name;     /* in kbuf */
	struct pmc__sym *sym; /* created on first hit (dso.c) */
};

struct pmc__symtab {
	struct pmc__symtab_opts opts;
	struct pmc__addrmap strings; /* string hash → chain of interned strings */
	struct pmc__addrmap dsos;    /* interned path → struct pmc__dso */
	struct ksym *ksyms;	     /* sorted by address; loaded on the first kernel address */
	size_t nr_ksyms;
	char *kbuf; /* the kernel symbol file, names NUL-terminated in place */
	bool ksyms_tried;
};

void pmc__dso_free(struct pmc__dso *dso);
/*
 * kcache.c: the kernel symbol cache of this boot. pmc__kcache_open() fills path with its
 * name and returns a descriptor of the cache, or a negative errno when there is none (yet);
 * pmc__kcache_write() writes the table's symbols there (failures are only logged).
 */
int pmc__kcache_open(char *path, size_t len);
void pmc__kcache_write(const struct pmc__symtab *st, const char *path);
/*
 * kallsyms.c: the kernel symbol at or below addr, from the kernel symbol file (read on the first
 * call), or NULL when none is known there; pmc__kallsyms_free() frees what the table read.
 */
struct ksym *pmc__kallsyms_find(struct pmc__symtab *st, uint64_t addr);
void pmc__kallsyms_free(struct pmc__symtab *st);
/* intern.c: frees the interned strings. */
void pmc__symtab_strings_free(struct pmc__symtab *st);

#endif /* PMC_LIB_SYMBOL_SYMTAB_H */
