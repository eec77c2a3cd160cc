// SPDX-License-Identifier: MIT
/* The symbol table: its DSOs by path; its strings (intern.c) and kernel symbols (kallsyms.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symtab.h"

int pmc__symtab_new(const struct pmc__symtab_opts *opts, struct pmc__symtab **out)
{
	struct pmc__symtab *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	if (opts)
		st->opts = *opts;
	if (st->opts.kallsyms)
		st->opts.kallsyms = strdup(st->opts.kallsyms);
	*out = st;
	return 0;
}

/* "/tmp/perf-PID.map", the name of a JIT's symbol file (perf's jit-interface.txt). */
static bool is_perfmap_path(const char *p)
{
	size_t n = strspn(p + (strncmp(p, "/tmp/perf-", 10) ? 0 : 10), "0123456789");

	return !strncmp(p, "/tmp/perf-", 10) && n && !strcmp(p + 10 + n, ".map");
}

struct pmc__dso *pmc__symtab_dso(struct pmc__symtab *st, const char *path)
{
	const char *p = pmc__symtab_intern(st, path), *slash;
	struct pmc__dso *d = p ? pmc__addrmap_get(&st->dsos, (uintptr_t)p) : NULL;

	if (d || !p)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->st = st;
	d->path = p;
	slash = strrchr(p, '/');
	d->short_name = slash ? pmc__symtab_intern(st, slash + 1) : p;
	d->kernel = !strncmp(p, "[kernel.kallsyms]", 17);
	d->jitmap = is_perfmap_path(p);
	if (pmc__addrmap_put(&st->dsos, (uintptr_t)p, d)) {
		free(d);
		return NULL;
	}
	return d;
}

struct pmc__dso *pmc__symtab_kernel(struct pmc__symtab *st)
{
	return pmc__symtab_dso(st, "[kernel.kallsyms]");
}

void pmc__symtab_delete(struct pmc__symtab *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->dsos.cap; i++)
		if (st->dsos.vals[i])
			pmc__dso_free(st->dsos.vals[i]);
	pmc__addrmap_free(&st->dsos);
	pmc__symtab_strings_free(st);
	pmc__kallsyms_free(st);
	free((char *)st->opts.kallsyms);
	free(st);
}
