// SPDX-License-Identifier: MIT
/* Symbol names as their language wrote them: C++ and Rust demangled with libiberty. */
#include <stdlib.h>
#include <libiberty/demangle.h>
#include "symbol/symtab.h"

/*
 * libiberty's cplus_demangle() with DMGL_AUTO tries Rust's schemes (legacy _ZN...17h<hash>E
 * and v0 _R...) and then the Itanium C++ ABI (_Z...); a name it does not know stays as it
 * is. No DMGL_PARAMS, as perf report shows names by default: "ns::Class::method", not its
 * parameter list (perf's symbol-elf.c, demangle_sym, without -v).
 */
const char *pmc__symtab_demangle(struct pmc__symtab *st, const char *name)
{
	char *d;
	const char *ret;

	if (st->opts.no_demangle || (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R')))
		return pmc__symtab_intern(st, name);
	d = cplus_demangle(name, DMGL_AUTO);
	if (!d)
		return pmc__symtab_intern(st, name);
	ret = pmc__symtab_intern(st, d);
	free(d);
	return ret;
}
