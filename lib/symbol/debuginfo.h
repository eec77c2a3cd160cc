/* SPDX-License-Identifier: MIT */
/* Finding a stripped object's separate debug file, as untrusted input (debuginfo.c). */
#ifndef PMC_LIB_SYMBOL_DEBUGINFO_H
#define PMC_LIB_SYMBOL_DEBUGINFO_H

#include "symbol/dw-api.h"

/*
 * libdwfl's find_debuginfo callback (Dwfl_Callbacks): the descriptor of the debug file
 * found, its path in *debuginfo_file_name (malloc'd; libdwfl frees it), or -1 when none.
 */
int pmc__find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name);

#endif /* PMC_LIB_SYMBOL_DEBUGINFO_H */
