/* SPDX-License-Identifier: MIT */
/* Finding a stripped object's separate debug file, as untrusted input, for libdwfl's callbacks
 * (debuginfo.c). */
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

/*
 * The same for a Dwfl that only unwinds (unwind.c's): libdwfl asks for a module's debug file
 * there only for its .debug_frame (a pc without .eh_frame CFI, such as the loader's _start),
 * and dwarf_begin_elf inflates every compressed .debug_* section of the file it is given
 * (27 M instructions for the loader's from libc6-dbg). A debug file without .debug_frame is
 * declined when the module's own file has none either: libdwfl then finds no .debug_frame,
 * as it would have found none in the debug file.
 */
int pmc__find_debuginfo_cfi(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			    const char *file_name, const char *debuglink_file,
			    GElf_Word debuglink_crc, char **debuginfo_file_name);

/*
 * dwfl_begin()'s callbacks, which name libdw's own functions and so are filled once it is
 * loaded. offline: a DSO opened from its file (dso.c); proc: a sampled process's modules,
 * reported with their files (unwind.c), nothing looked up in /proc, debug files only for
 * their .debug_frame (pmc__find_debuginfo_cfi()). Both last as long as the process.
 */
struct pmc__dwfl_callbacks {
	Dwfl_Callbacks offline;
	Dwfl_Callbacks proc;
};
/* The callbacks, filled on the first call (thread-safe); NULL when libdw cannot be loaded. */
const struct pmc__dwfl_callbacks *pmc__dwfl_callbacks(void);

#endif /* PMC_LIB_SYMBOL_DEBUGINFO_H */
