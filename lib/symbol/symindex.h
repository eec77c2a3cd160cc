/* SPDX-License-Identifier: MIT */
/* A module's ELF symbols indexed by address, answering as dwfl_module_addrinfo (symindex.c). */
#ifndef PMC_LIB_SYMBOL_SYMINDEX_H
#define PMC_LIB_SYMBOL_SYMINDEX_H

#include <stdint.h>
#include "symbol/dw-api.h"

struct pmc__symindex;

/*
 * Reads the global symbols of mod once (dwfl_module_getsym_info), the local ones on the
 * first search that needs them. *out is NULL
 * when the module's table cannot be indexed (no table, or a MiniDebugInfo table beside the
 * main one, whose search order libdwfl keeps to itself): callers then ask libdwfl. 0 or
 * -ENOMEM.
 */
int pmc__symindex_new(const struct pmc__dw_api *dw, Dwfl_Module *mod, Elf *elf,
		      struct pmc__symindex **out);
/*
 * The symbol dwfl_module_addrinfo(mod, addr, ...) names, when a symbol with a size holds
 * addr (addr and *value as libdwfl's, bias included): 0 with its name (owned by libdwfl),
 * value and size. -ENOENT when none does: libdwfl may still name addr by a symbol without a
 * size (a label in assembly), so the caller asks it; so too when very many symbols hold addr,
 * or the local symbols could not be read (-ENOMEM).
 */
int pmc__symindex_find(struct pmc__symindex *ix, uint64_t addr, const char **name, uint64_t *value,
		       uint64_t *size);
void pmc__symindex_delete(struct pmc__symindex *ix);

#endif /* PMC_LIB_SYMBOL_SYMINDEX_H */
