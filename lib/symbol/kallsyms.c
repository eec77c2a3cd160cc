// SPDX-License-Identifier: MIT
/* Kernel symbols from /proc/kallsyms (when kptr_restrict allows reading real addresses). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include "core/grow.h"
#include "core/log.h"
#include "core/readall.h"
#include "symbol/symtab.h"

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
		if (PMC_ENSURE(st->ksyms, cap, st->nr_ksyms + 1))
			break;
		sorted &= !st->nr_ksyms || st->ksyms[st->nr_ksyms - 1].addr <= k.addr;
		st->ksyms[st->nr_ksyms++] = k;
	}
	if (st->nr_ksyms && !sorted)
		qsort(st->ksyms, st->nr_ksyms, sizeof(*st->ksyms), cmp_ksym);
	/* /proc/kallsyms read whole (its addresses visible to this user): cached for this boot. */
	if (cfd == -ENOENT && !st->opts.kallsyms && st->nr_ksyms && cache[0])
		pmc__kcache_write(st, cache);
}

struct ksym *pmc__kallsyms_find(struct pmc__symtab *st, uint64_t addr)
{
	size_t lo = 0, hi;

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
	return lo == 0 || !st->ksyms[lo - 1].name ? NULL : &st->ksyms[lo - 1];
}

void pmc__kallsyms_free(struct pmc__symtab *st)
{
	free(st->ksyms);
	free(st->kbuf);
	st->kbuf = NULL;
	st->ksyms = NULL;
	st->nr_ksyms = 0;
}
