// SPDX-License-Identifier: MIT
/*
 * The symbol index (lib/symbol/symindex.c) names every address as dwfl_module_addrinfo does:
 * checked at the edges and middles of the symbols of libc (with its debug file, as pmc report
 * opens it), the loader, and C and C++ test programs, and at addresses between them.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "symbol/debuginfo.h"
#include "symbol/dw-api.h"
#include "symbol/symindex.h"

struct opened {
	const struct pmc__dw_api *dw;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;
};

static void open_module(const char *path, struct opened *o)
{
	GElf_Addr bias;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	o->dw = pmc__dw_api();
	cr_assert_not_null(o->dw);
	cr_assert_geq(fd, 0, "%s: %m", path);
	o->dwfl = o->dw->dwfl_begin(&pmc__dwfl_callbacks()->offline);
	cr_assert_not_null(o->dwfl);
	o->mod = o->dw->dwfl_report_offline(o->dwfl, "test", path, fd);
	cr_assert_not_null(o->mod, "libdwfl cannot open %s", path);
	o->dw->dwfl_report_end(o->dwfl, NULL, NULL);
	o->elf = o->dw->dwfl_module_getelf(o->mod, &bias);
	cr_assert_not_null(o->elf);
}

/* Compares the index with libdwfl at addr; counts the addresses the index answered. */
static void check_at(struct opened *o, struct pmc__symindex *ix, uint64_t addr, size_t *nr_answered)
{
	const char *name, *want;
	uint64_t value, size;
	GElf_Off off = 0;
	GElf_Sym sym;

	if (pmc__symindex_find(ix, addr, &name, &value, &size))
		return; /* left to libdwfl, which then answers itself */
	want = o->dw->dwfl_module_addrinfo(o->mod, addr, &off, &sym, NULL, NULL, NULL);
	cr_assert_not_null(want, "index names 0x%lx %s, libdwfl names nothing", (unsigned long)addr,
			   name);
	cr_assert_str_eq(name, want, "at 0x%lx: index %s, libdwfl %s", (unsigned long)addr, name,
			 want);
	cr_assert_eq(value, addr - off, "%s at 0x%lx", name, (unsigned long)addr);
	cr_assert_eq(size, sym.st_size, "%s at 0x%lx", name, (unsigned long)addr);
	(*nr_answered)++;
}

/*
 * Up to about 600 symbols of path, spread over the table, each asked at its first byte, its
 * middle, its last byte, one past and one before it; returns how many the index answered.
 */
static size_t compare_module(const char *path)
{
	struct opened o;
	struct pmc__symindex *ix;
	size_t answered = 0;
	int n;

	open_module(path, &o);
	cr_assert_eq(pmc__symindex_new(o.dw, o.mod, o.elf, &ix), 0);
	cr_assert_not_null(ix, "%s has a symbol table the index should read", path);
	n = o.dw->dwfl_module_getsymtab(o.mod);
	for (int i = 1; i < n; i += n / 600 + 1) {
		GElf_Sym sym;
		GElf_Addr v;
		if (!o.dw->dwfl_module_getsym_info(o.mod, i, &sym, &v, NULL, NULL, NULL) ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		uint64_t at[] = {v, v + sym.st_size / 2, v + sym.st_size - 1, v + sym.st_size,
				 v - 1};
		for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++)
			check_at(&o, ix, at[k], &answered);
	}
	pmc__symindex_delete(ix);
	o.dw->dwfl_end(o.dwfl);
	return answered;
}

static void path_of(void *fn, char *buf, size_t len)
{
	Dl_info info;

	cr_assert(dladdr(fn, &info) && info.dli_fname);
	cr_assert(realpath(info.dli_fname, buf) && strlen(buf) < len);
}

Test(symindex, names_libc_as_libdwfl, .timeout = 240)
{
	char path[4096];

	path_of((void *)printf, path, sizeof(path));
	cr_expect_gt(compare_module(path), 500, "the index answered too few addresses of %s", path);
}

Test(symindex, names_the_loader_as_libdwfl, .timeout = 240)
{
	char path[4096];

	path_of(dlsym(RTLD_DEFAULT, "_dl_find_object"), path, sizeof(path));
	cr_expect_gt(compare_module(path), 100, "the index answered too few addresses of %s", path);
}

Test(symindex, names_test_programs_as_libdwfl, .timeout = 240)
{
	cr_expect_gt(compare_module(PMC_PROGS_DIR "/sample-split"), 10);
	cr_expect_gt(compare_module(PMC_PROGS_DIR "/sample-cxx"), 10);
	cr_expect_gt(compare_module(PMC_PROGS_DIR "/sample-inline"), 10);
}
