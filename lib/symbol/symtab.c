// SPDX-License-Identifier: MIT
/* The symbol table: interned strings, the DSOs by path, and the kernel symbols (kallsyms). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include "core/log.h"
#include "core/readall.h"
#include "symbol/symtab.h"

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* Strings are chained per hash so that equal hashes of different strings coexist. */
struct str_node {
	struct str_node *next;
	char s[];
};

const char *pmc__symtab_intern(struct pmc__symtab *st, const char *s)
{
	uint64_t h = str_hash(s);
	struct str_node *head = pmc__addrmap_get(&st->strings, h), *n;
	size_t len = strlen(s);

	for (n = head; n; n = n->next)
		if (!strcmp(n->s, s))
			return n->s;
	n = malloc(sizeof(*n) + len + 1);
	if (!n)
		return NULL;
	memcpy(n->s, s, len + 1);
	n->next = head;
	if (pmc__addrmap_put(&st->strings, h, n)) {
		free(n);
		return NULL;
	}
	return n->s;
}

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

uint64_t pmc__symtab_nr_lookups(const struct pmc__symtab *st)
{
	return st->nr_lookups;
}

/* Kernel symbols from /proc/kallsyms (when kptr_restrict allows reading real addresses). */

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * One line of kallsyms, "ADDR TYPE NAME[\t[MODULE]]": a text symbol (t, T, w, W) with a
 * non-zero address is stored, its name NUL-terminated in place. Returns the next line.
 */
static char *parse_line(char *p, char *end, struct ksym *k, bool *ok)
{
	uint64_t addr = 0;
	int d, nd = 0;
	char type, *name;

	*ok = false;
	while (p < end && (d = hex_digit(*p)) >= 0 && nd++ < 16) {
		addr = addr << 4 | (uint64_t)d;
		p++;
	}
	if (end - p < 3 || p[0] != ' ' || p[2] != ' ') {
		p = memchr(p, '\n', (size_t)(end - p));
		return p ? p + 1 : end;
	}
	type = p[1];
	name = p + 3;
	for (p = name; p < end && *p != '\n' && *p != ' ' && *p != '\t'; p++)
		;
	*ok = addr && p > name && (type == 't' || type == 'T' || type == 'w' || type == 'W');
	if (*ok)
		*k = (struct ksym){addr, name, NULL};
	if (p < end && *p != '\n')
		p = memchr(p, '\n', (size_t)(end - p));
	if (p && p < end)
		*p++ = 0;
	return p ? p : end;
}

/*
 * Kernel symbols, read on the first kernel address that needs a name: the file whole in
 * one buffer that the names point into (nothing is interned until a symbol is hit), parsed
 * by hand, and sorted only if the file was not (/proc/kallsyms is, by address).
 */
static void kallsyms_load(struct pmc__symtab *st)
{
	const char *path = st->opts.kallsyms ? st->opts.kallsyms : "/proc/kallsyms";
	size_t len = 0, cap = 0;
	bool sorted = true, ok;
	char *p, *end, cache[4096] = "";
	int cfd = st->opts.kallsyms ? -ENOENT : pmc__kcache_open(cache, sizeof(cache));
	int fd = cfd >= 0 ? cfd : pmc_open_input(path);

	st->ksyms_tried = true;
	if (fd < 0 && st->opts.kallsyms) /* the user named it: say why it was not read */
		pr_warn("cannot read kernel symbols from %s: %s\n", path, pmc_strerror(fd));
	if (fd < 0)
		return;
	st->kbuf = pmc__read_all(fd, &len);
	close(fd);
	if (!st->kbuf)
		return;
	for (p = st->kbuf, end = p + len; p < end;) {
		struct ksym k;
		p = parse_line(p, end, &k, &ok);
		if (!ok)
			continue;
		if (st->nr_ksyms == cap) {
			struct ksym *v = realloc(st->ksyms, (cap = cap * 2 + 4096) * sizeof(*v));
			if (!v)
				break;
			st->ksyms = v;
		}
		sorted &= !st->nr_ksyms || st->ksyms[st->nr_ksyms - 1].addr <= k.addr;
		st->ksyms[st->nr_ksyms++] = k;
	}
	if (st->nr_ksyms && !sorted)
		qsort(st->ksyms, st->nr_ksyms, sizeof(*st->ksyms), cmp_ksym);
	/* /proc/kallsyms read whole (its addresses visible to this user): cached for this boot. */
	if (cfd == -ENOENT && !st->opts.kallsyms && st->nr_ksyms && cache[0])
		pmc__kcache_write(st, cache);
}

struct pmc__sym *pmc__kallsyms_find(struct pmc__symtab *st, struct pmc__dso *kdso, uint64_t addr)
{
	size_t lo = 0, hi;
	char buf[32];

	if (!st->ksyms_tried)
		kallsyms_load(st);
	hi = st->nr_ksyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st->ksyms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || !st->ksyms[lo - 1].name) {
		struct pmc__sym *sym;
		snprintf(buf, sizeof(buf), "0x%016" PRIx64, addr);
		sym = pmc__dso_kernel_sym(kdso, buf, addr);
		if (sym)
			sym->unnamed = true;
		return sym;
	}
	struct ksym *k = &st->ksyms[lo - 1];
	if (!k->sym)
		k->sym = pmc__dso_kernel_sym(kdso, k->name, k->addr);
	return k->sym;
}

static void kallsyms_free(struct pmc__symtab *st)
{
	free(st->ksyms);
	free(st->kbuf);
	st->kbuf = NULL;
	st->ksyms = NULL;
	st->nr_ksyms = 0;
}

void pmc__symtab_delete(struct pmc__symtab *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->dsos.cap; i++)
		if (st->dsos.vals[i])
			pmc__dso_free(st->dsos.vals[i]);
	for (size_t i = 0; i < st->strings.cap; i++) {
		struct str_node *n = st->strings.vals[i];
		while (n) {
			struct str_node *next = n->next;
			free(n);
			n = next;
		}
	}
	pmc__addrmap_free(&st->dsos);
	pmc__addrmap_free(&st->strings);
	kallsyms_free(st);
	free((char *)st->opts.kallsyms);
	free(st);
}
