// SPDX-License-Identifier: MIT
/* Kernel symbols from /proc/kallsyms (when kptr_restrict allows reading real addresses). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symtab.h"

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void load(struct pmc__symtab *st)
{
	FILE *f = fopen(st->opts.kallsyms ? st->opts.kallsyms : "/proc/kallsyms", "r");
	char line[512], name[256], type;
	uint64_t addr;
	size_t cap = 0;

	st->ksyms_tried = true;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3 || !addr)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (st->nr_ksyms == cap) {
			struct ksym *v = realloc(st->ksyms, (cap = cap * 2 + 4096) * sizeof(*v));
			if (!v)
				break;
			st->ksyms = v;
		}
		st->ksyms[st->nr_ksyms++] = (struct ksym){addr, pmc__symtab_intern(st, name), NULL};
	}
	fclose(f);
	if (st->nr_ksyms)
		qsort(st->ksyms, st->nr_ksyms, sizeof(*st->ksyms), cmp_ksym);
}

struct pmc__sym *pmc__kallsyms_find(struct pmc__symtab *st, struct pmc__dso *kdso, uint64_t addr)
{
	size_t lo = 0, hi;
	char buf[32];

	if (!st->ksyms_tried)
		load(st);
	hi = st->nr_ksyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st->ksyms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || !st->ksyms[lo - 1].name) {
		snprintf(buf, sizeof(buf), "0x%016" PRIx64, addr);
		return pmc__dso_kernel_sym(kdso, buf, addr);
	}
	struct ksym *k = &st->ksyms[lo - 1];
	if (!k->sym)
		k->sym = pmc__dso_kernel_sym(kdso, k->name, k->addr);
	return k->sym;
}

void pmc__kallsyms_free(struct pmc__symtab *st)
{
	free(st->ksyms);
	st->ksyms = NULL;
	st->nr_ksyms = 0;
}
