// SPDX-License-Identifier: MIT
/*
 * JIT symbols from /tmp/perf-PID.map, the file a JIT compiler (V8's --perf-basic-prof,
 * the JVM's perf-map-agent, LuaJIT, ...) writes for perf: one line per compiled function,
 * "START SIZE NAME" in hex (perf's tools/perf/Documentation/jit-interface.txt).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/grow.h"
#include "core/readall.h"
#include "symbol/perfmap.h"

struct jitsym {
	uint64_t start, size;
	const char *name; /* interned */
	size_t line;	  /* order in the file: a later line wins where entries overlap */
};

struct pmc__perfmap {
	struct jitsym *v; /* sorted by start, then line */
	size_t nr;
};

/* A hex number at *p (an optional 0x), ended by a space; false when there is none. */
static bool hex(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int digits = 0;

	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; s < end && *s != ' '; s++, digits++) {
		int d = *s >= '0' && *s <= '9'	 ? *s - '0'
			: *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
			: *s >= 'A' && *s <= 'F' ? *s - 'A' + 10
						 : -1;
		if (d < 0 || digits == 16)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	if (!digits || s == end)
		return false;
	*p = s + 1;
	*out = v;
	return true;
}

static int cmp_jitsym(const void *a, const void *b)
{
	const struct jitsym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* One line [s, end): appended to pm when it is "START SIZE NAME". */
static int parse_line(struct pmc__symtab *st, struct pmc__perfmap *pm, size_t *cap, const char *s,
		      const char *end)
{
	struct jitsym e = {.line = pm->nr};
	char *name;

	if (!hex(&s, end, &e.start) || !hex(&s, end, &e.size) || s == end || !e.size ||
	    e.start + e.size < e.start)
		return 0;
	if (PMC_ENSURE(pm->v, *cap, pm->nr + 1))
		return -ENOMEM;
	name = strndup(s, (size_t)(end - s));
	if (!name)
		return -ENOMEM;
	e.name = pmc__symtab_intern(st, name);
	free(name);
	if (!e.name)
		return -ENOMEM;
	pm->v[pm->nr++] = e;
	return 0;
}

int pmc__perfmap_parse(struct pmc__symtab *st, const char *text, size_t len,
		       struct pmc__perfmap **out)
{
	struct pmc__perfmap *pm = calloc(1, sizeof(*pm));
	const char *p = text, *end = text + len;
	size_t cap = 0;
	int ret = pm ? 0 : -ENOMEM;

	while (!ret && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		/* A NUL ends what a name can hold. */
		const char *nul = memchr(p, 0, (size_t)(e - p));
		ret = parse_line(st, pm, &cap, p, nul ? nul : e);
		p = e + 1;
	}
	if (ret) {
		pmc__perfmap_free(pm);
		return ret;
	}
	if (pm->nr)
		qsort(pm->v, pm->nr, sizeof(*pm->v), cmp_jitsym);
	*out = pm;
	return 0;
}

int pmc__perfmap_load(struct pmc__symtab *st, const char *path, struct pmc__perfmap **out)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), ret;
	struct stat sb;
	char *text = NULL;
	size_t len = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) < 0)
		ret = -errno;
	else if (!S_ISREG(sb.st_mode))
		ret = -PMC_E_NOTREG;
	else if (sb.st_uid != geteuid() && sb.st_uid != 0)
		ret = -EPERM; /* perf's rule: another user's file in /tmp is not trusted */
	else if ((uint64_t)sb.st_size > PMC_PERFMAP_MAX_BYTES)
		ret = -EFBIG;
	else
		/* The file may be growing (the JIT still runs): what was there at fstat is read. */
		ret = pmc__read_upto(fd, (size_t)sb.st_size, &text, &len);
	close(fd);
	if (!ret)
		ret = pmc__perfmap_parse(st, text, len, out);
	free(text);
	return ret;
}

int pmc__perfmap_find(const struct pmc__perfmap *pm, uint64_t addr, const char **name,
		      uint64_t *start, uint64_t *size)
{
	size_t lo = 0, hi = pm->nr;
	const struct jitsym *best = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pm->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Entries that start at or before addr, nearest first: a few looked at, not all. */
	for (size_t i = lo, seen = 0; i > 0 && seen < 64; i--, seen++) {
		const struct jitsym *e = &pm->v[i - 1];
		if (addr - e->start < e->size && (!best || e->line > best->line))
			best = e;
	}
	if (!best)
		return -ENOENT;
	*name = best->name;
	*start = best->start;
	*size = best->size;
	return 0;
}

void pmc__perfmap_free(struct pmc__perfmap *pm)
{
	if (!pm)
		return;
	free(pm->v);
	free(pm);
}
