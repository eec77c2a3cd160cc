/* SPDX-License-Identifier: MIT */
/* Test helpers over ELF files: where a function's code lies in its file. */
#ifndef PMC_TESTS_UNIT_ELF_FIXTURE_H
#define PMC_TESTS_UNIT_ELF_FIXTURE_H

#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include "symbol/symbol.h"

/* The file offset of the code at vaddr in path, from its PT_LOAD program headers. */
static inline uint64_t fixture_file_offset(const char *path, uint64_t vaddr)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0;
	uint64_t off = 0;
	Elf *e;

	cr_assert_geq(fd, 0, "cannot open %s", path);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	cr_assert(e, "%s is not an ELF file", path);
	elf_getphdrnum(e, &n);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
		    vaddr < ph.p_vaddr + ph.p_filesz)
			off = vaddr - ph.p_vaddr + ph.p_offset;
	}
	elf_end(e);
	close(fd);
	return off;
}

/* The file offset of function fn in path, through pmc's own symbol tables. */
static inline uint64_t fixture_symbol_offset(const char *path, const char *fn)
{
	struct pmc__symtab *st;
	uint64_t vaddr, size;

	cr_assert_eq(pmc__symtab_new(NULL, &st), 0);
	cr_assert_eq(pmc__dso_find_symbol(pmc__symtab_dso(st, path), fn, &vaddr, &size), 0,
		     "no %s in %s", fn, path);
	pmc__symtab_delete(st);
	return fixture_file_offset(path, vaddr);
}

#endif /* PMC_TESTS_UNIT_ELF_FIXTURE_H */
