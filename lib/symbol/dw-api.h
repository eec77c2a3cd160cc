/* SPDX-License-Identifier: MIT */
/*
 * libdw's and libelf's functions, loaded on first use (core/dynlib.h says why): every pmc
 * process mapped libdw, libelf, libz, liblzma and libbz2 at start-up (0.25 ms of a pmc stat
 * that never calls them); only symbol resolution and DWARF unwinding (pmc report and
 * annotate) need them.
 */
#ifndef PMC_LIB_SYMBOL_DW_API_H
#define PMC_LIB_SYMBOL_DW_API_H

#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

/* The functions used, by name: each is a field of struct pmc__dw_api of the same name. */
#define PMC__DW_FNS(X)                        \
	X(dwarf_cfi_addrframe)                \
	X(dwarf_diename)                      \
	X(dwarf_frame_cfa)                    \
	X(dwarf_frame_info)                   \
	X(dwarf_frame_register)               \
	X(dwarf_next_cfi)                     \
	X(dwarf_getscopes)                    \
	X(dwarf_tag)                          \
	X(dwelf_elf_gnu_build_id)             \
	X(dwfl_addrmodule)                    \
	X(dwfl_attach_state)                  \
	X(dwfl_begin)                         \
	X(dwfl_build_id_find_elf)             \
	X(dwfl_end)                           \
	X(dwfl_frame_pc)                      \
	X(dwfl_getthread_frames)              \
	X(dwfl_lineinfo)                      \
	X(dwfl_module_addrdie)                \
	X(dwfl_module_addrinfo)               \
	X(dwfl_module_build_id)               \
	X(dwfl_module_dwarf_cfi)              \
	X(dwfl_module_eh_cfi)                 \
	X(dwfl_module_getelf)                 \
	X(dwfl_module_getsrc)                 \
	X(dwfl_module_getsym_info)            \
	X(dwfl_module_getsymtab)              \
	X(dwfl_module_getsymtab_first_global) \
	X(dwfl_module_info)                   \
	X(dwfl_offline_section_address)       \
	X(dwfl_report_begin)                  \
	X(dwfl_report_elf)                    \
	X(dwfl_report_end)                    \
	X(dwfl_report_offline)                \
	X(dwfl_thread_state_registers)        \
	X(elf_begin)                          \
	X(elf_end)                            \
	X(elf_getdata)                        \
	X(elf_getdata_rawchunk)               \
	X(elf_getident)                       \
	X(elf_getphdrnum)                     \
	X(elf_getshdrstrndx)                  \
	X(elf_memory)                         \
	X(elf_nextscn)                        \
	X(elf_strptr)                         \
	X(elf_version)                        \
	X(gelf_getehdr)                       \
	X(gelf_getphdr)                       \
	X(gelf_getshdr)

struct pmc__dw_api {
#define PMC__DW_FIELD(name) __typeof__(name) *name;
	PMC__DW_FNS(PMC__DW_FIELD)
#undef PMC__DW_FIELD
};

/*
 * libdw, loaded on the first call (thread-safe); NULL when it cannot be loaded, said once
 * as a warning (symbols stay unnamed, DWARF call chains are not unwound).
 */
const struct pmc__dw_api *pmc__dw_api(void);

#endif /* PMC_LIB_SYMBOL_DW_API_H */
