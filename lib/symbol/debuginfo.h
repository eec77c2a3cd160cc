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

#endif /* PMC_LIB_SYMBOL_DEBUGINFO_H */
