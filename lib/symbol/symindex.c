// SPDX-License-Identifier: MIT
/*
 * A module's ELF symbols indexed by address, for pmc report's symbol lookups.
 *
 * dwfl_module_addrinfo reads the symbol table from the start for every address it is asked
 * (elfutils 0.188: a section header lookup for each symbol, ~270 instructions): the 21
 * addresses of a 1,479-sample report cost 72 % of its instructions (bench/RESULTS.md). This
 * index reads the table once and answers the same question, with libdwfl's rules for which
 * of the symbols around an address names it (docs/symbols.md, "Which symbol names an
 * address"): the global and weak symbols are searched first, the local ones only when no
 * global or weak symbol with a size holds the address; among the symbols with a size that
 * hold it,
 * taken in table order, a later one replaces the one kept when it starts higher, or binds
 * more strongly (global over weak over local), or starts at the same address and is smaller
 * without binding less strongly; and the locals are not searched when a global symbol without
 * a size starts at the address. Symbols without a size (assembly labels) are left to
 * libdwfl: pmc__symindex_find says -ENOENT and the caller asks it (so too when more than
 * MAX_HOLDERS symbols hold the address). tests/unit/test-symbol-index.c checks the answers
 * against dwfl_module_addrinfo's at the edges and middles of the symbols of libc, the loader
 * and test programs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symindex.h"

/* 16 bytes: a table of more than 2^24 symbols, or a symbol of 4 GiB or more, is not indexed. */
struct isym {
	uint64_t value;
	uint32_t size;
	uint32_t order : 24; /* the symbol's place in the search (table order) */
	uint32_t bind : 8;   /* libdwfl's preference: global 3, weak 2, local 1, other 0 */
};

#define ISYM_MAX_ORDER ((1u << 24) - 1)

/* One search's symbols (globals, or locals), sorted by value. */
struct ipass {
	struct isym *v;
	uint64_t *max_end; /* [i]: the highest end among v[0..i] */
	size_t nr;
	/* The values of the symbols without a size, sorted (see pmc__symindex_find) */
	uint64_t *sizeless;
	size_t nr_sizeless;
};

/*
 * Each pass costs 16 bytes of a symbol kept plus 16 of max_end (the radix sort's buffer,
 * reused): a page fault per 128 symbols, which counts in a small report; the name is asked
 * of libdwfl again for the symbol found.
 */
struct pmc__symindex {
	const struct pmc__dw_api *dw;
	Dwfl_Module *mod;
	int first_global;
	struct ipass pass[2]; /* searched in this order; the locals read on their first search */
	bool locals_read, locals_failed; /* failed: out of memory, or a symbol of 4 GiB */
};

static uint8_t bind_rank(unsigned char info)
{
	switch (GELF_ST_BIND(info)) {
	case STB_GLOBAL:
		return 3;
	case STB_WEAK:
		return 2;
	case STB_LOCAL:
		return 1;
	default:
		return 0;
	}
}

/*
 * Sorts v by value, keeping table order among equal values: a least-significant-digit radix
 * sort, a byte at a time, skipping the bytes all values share (a module's addresses differ
 * in their low three or four). qsort's merge sort of these entries was 48 % of a small
 * report's instructions. Returns the sort's buffer, whose pages are already touched, for the
 * caller to reuse; NULL when it cannot be had.
 */
static void *sort_by_value(struct isym *v, size_t nr)
{
	struct isym *tmp = malloc((nr ? nr : 1) * sizeof(*tmp)), *from = v, *to = tmp;
	uint64_t all_or = 0, all_and = UINT64_MAX;

	if (!tmp)
		return NULL;
	for (size_t i = 0; i < nr; i++) {
		all_or |= v[i].value;
		all_and &= v[i].value;
	}
	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t count[256] = {0}, at = 0;
		if (!(((all_or ^ all_and) >> shift) & 0xff))
			continue; /* every value has the same byte here */
		for (size_t i = 0; i < nr; i++)
			count[(from[i].value >> shift) & 0xff]++;
		for (size_t b = 0; b < 256; b++) {
			size_t c = count[b];
			count[b] = at;
			at += c;
		}
		for (size_t i = 0; i < nr; i++)
			to[count[(from[i].value >> shift) & 0xff]++] = from[i];
		from = to;
		to = from == v ? tmp : v;
	}
	if (from != v)
		memcpy(v, from, nr * sizeof(*v));
	return tmp;
}

/* Whether libdwfl would consider symbol i for an address at all (and it has a size). */
static bool usable(const char *name, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return name && name[0] && sym->st_shndx != SHN_UNDEF && type != STT_SECTION &&
	       type != STT_FILE && type != STT_TLS;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool has_sizeless_at(const struct ipass *p, uint64_t addr)
{
	return p->nr_sizeless &&
	       bsearch(&addr, p->sizeless, p->nr_sizeless, sizeof(addr), by_u64) != NULL;
}

static int fill_pass(const struct pmc__dw_api *dw, Dwfl_Module *mod, int from, int to,
		     struct ipass *p)
{
	size_t cap = to > from ? (size_t)(to - from) : 1;
	void *buf;

	p->v = malloc(cap * sizeof(*p->v));
	p->sizeless = malloc(cap * sizeof(*p->sizeless));
	if (!p->v || !p->sizeless)
		return -ENOMEM;
	for (int i = from; i < to; i++) {
		GElf_Sym sym;
		GElf_Addr value;
		const char *name =
			dw->dwfl_module_getsym_info(mod, i, &sym, &value, NULL, NULL, NULL);
		if (!usable(name, &sym))
			continue;
		if (!sym.st_size) {
			p->sizeless[p->nr_sizeless++] = value;
			continue;
		}
		if (sym.st_size > UINT32_MAX)
			return -E2BIG;
		p->v[p->nr++] = (struct isym){.value = value,
					      .size = sym.st_size,
					      .order = (uint32_t)i,
					      .bind = bind_rank(sym.st_info)};
	}
	buf = sort_by_value(p->v, p->nr);
	if (!buf)
		return -ENOMEM;
	qsort(p->sizeless, p->nr_sizeless, sizeof(*p->sizeless), by_u64);
	/* max_end is the sort's buffer (16 bytes an entry for 8): its pages are faulted in. */
	p->max_end = buf;
	for (size_t i = 0; i < p->nr; i++) {
		const struct isym *v = &p->v[i];
		uint64_t end = v->value + v->size < v->value ? UINT64_MAX : v->value + v->size;
		p->max_end[i] = i && p->max_end[i - 1] > end ? p->max_end[i - 1] : end;
	}
	return 0;
}

/* A MiniDebugInfo section: libdwfl then searches a second table, in an order of its own. */
static bool has_aux_table(const struct pmc__dw_api *dw, Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (!elf || dw->elf_getshdrstrndx(elf, &shstrndx))
		return true;
	while ((scn = dw->elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!dw->gelf_getshdr(scn, &sh))
			continue;
		name = dw->elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".gnu_debugdata"))
			return true;
	}
	return false;
}

int pmc__symindex_new(const struct pmc__dw_api *dw, Dwfl_Module *mod, Elf *elf,
		      struct pmc__symindex **out)
{
	struct pmc__symindex *ix;
	int ret, n = dw->dwfl_module_getsymtab(mod);
	int first_global = dw->dwfl_module_getsymtab_first_global(mod);

	*out = NULL;
	if (n <= 0 || first_global < 0 || first_global > n || (unsigned)n > ISYM_MAX_ORDER ||
	    has_aux_table(dw, elf))
		return 0;
	ix = calloc(1, sizeof(*ix));
	if (!ix)
		return -ENOMEM;
	*ix = (struct pmc__symindex){.dw = dw, .mod = mod, .first_global = first_global};
	ret = fill_pass(dw, mod, first_global, n, &ix->pass[0]);
	if (ret) {
		pmc__symindex_delete(ix);
		return ret == -E2BIG ? 0 : ret; /* a symbol of 4 GiB: no index */
	}
	*out = ix;
	return 0;
}

/* Is c a better name for the address than the one kept, k (libdwfl's rule, in table order)? */
static bool better(const struct isym *k, const struct isym *c)
{
	if (k->value < c->value || k->bind < c->bind)
		return true;
	return k->value == c->value && ((k->size > c->size && k->bind <= c->bind) ||
					(k->size >= c->size && k->bind < c->bind));
}

/* At most this many symbols may hold one address (a function and its aliases); more: libdwfl. */
#define MAX_HOLDERS 32

/*
 * The symbol of p that names addr: NULL when none holds it, or too many do (*over). Holders
 * are found by walking down from the last symbol starting at or below addr while some symbol
 * at or below the position still ends above addr (max_end), then judged in table order.
 */
static const struct isym *find_in(const struct ipass *p, uint64_t addr, bool *over)
{
	const struct isym *h[MAX_HOLDERS], *kept = NULL;
	size_t lo = 0, hi = p->nr, nr = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->v[mid].value <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && p->max_end[i] > addr;) {
		if (addr - p->v[i].value >= p->v[i].size)
			continue;
		if (nr == MAX_HOLDERS) {
			*over = true;
			return NULL;
		}
		h[nr++] = &p->v[i];
	}
	/* Insertion sort into table order: nr is small. */
	for (size_t i = 1; i < nr; i++) {
		const struct isym *x = h[i];
		size_t j = i;
		for (; j && h[j - 1]->order > x->order; j--)
			h[j] = h[j - 1];
		h[j] = x;
	}
	for (size_t i = 0; i < nr; i++) {
		if (!kept || better(kept, h[i]))
			kept = h[i];
	}
	return kept;
}

/* The locals' pass, read on its first use; false when it cannot be had. */
static bool locals(struct pmc__symindex *ix)
{
	if (!ix->locals_read) {
		ix->locals_read = true;
		ix->locals_failed =
			fill_pass(ix->dw, ix->mod, 1, ix->first_global, &ix->pass[1]) != 0;
	}
	return !ix->locals_failed;
}

int pmc__symindex_find(struct pmc__symindex *ix, uint64_t addr, const char **name, uint64_t *value,
		       uint64_t *size)
{
	const struct isym *s = NULL;
	bool over = false;
	GElf_Sym sym;
	GElf_Addr v;

	s = find_in(&ix->pass[0], addr, &over);
	/*
	 * Most addresses are named by global symbols: a table's locals are read when needed.
	 * libdwfl does not search the locals when a global symbol without a size starts at addr,
	 * and may name addr by it: such addresses are left to libdwfl.
	 */
	if (!s && !over && !has_sizeless_at(&ix->pass[0], addr) && locals(ix))
		s = find_in(&ix->pass[1], addr, &over);
	if (!s)
		return -ENOENT;
	/* The name is libdwfl's own string for the symbol (not kept, to keep the index small). */
	*name = ix->dw->dwfl_module_getsym_info(ix->mod, (int)s->order, &sym, &v, NULL, NULL, NULL);
	*value = s->value;
	*size = s->size;
	return *name ? 0 : -ENOENT;
}

void pmc__symindex_delete(struct pmc__symindex *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < 2; i++) {
		free(ix->pass[i].v);
		free(ix->pass[i].max_end);
		free(ix->pass[i].sizeless);
	}
	free(ix);
}
