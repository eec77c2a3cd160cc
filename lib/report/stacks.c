// SPDX-License-Identifier: MIT
/* pmc report: distinct call chains with their samples per event, and the folded-stacks output. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/bytes.h>
#include "core/grow.h"
#include "report/report.h"

static uint64_t stack_hash(const char *comm, const struct rframe *frames, size_t n)
{
	uint64_t h = 1469598103934665603ull ^ (uintptr_t)comm;

	for (size_t i = 0; i < n; i++) {
		h = (h ^ (uintptr_t)frames[i].res) * 1099511628211ull;
		h = (h ^ frames[i].kernel) * 1099511628211ull;
	}
	return h;
}

static bool same_stack(const struct rstack *s, const char *comm, const struct rframe *frames,
		       size_t n)
{
	if (s->comm != comm || s->nr != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s->frames[i].res != frames[i].res || s->frames[i].kernel != frames[i].kernel)
			return false;
	return true;
}

static struct rstack *new_stack(struct pmc_report *r, uint64_t h, const char *comm,
				const struct rframe *frames, size_t n)
{
	size_t fsz = n * sizeof(struct rframe), vsz = 2 * r->nr_attrs * sizeof(uint64_t);
	struct rstack *s;

	if (PMC_ENSURE(r->stack_list, r->alloc_stacks, r->nr_stacks + 1))
		return NULL;
	s = calloc(1, sizeof(*s) + fsz + vsz);
	if (!s)
		return NULL;
	s->hash = h;
	s->comm = comm;
	s->nr = n;
	memcpy(s->frames, frames, fsz);
	s->samples = (uint64_t *)((char *)s->frames + fsz);
	s->period = s->samples + r->nr_attrs;
	s->next = pmc__addrmap_get(&r->stacks, h);
	if (pmc__addrmap_put(&r->stacks, h, s)) {
		free(s);
		return NULL;
	}
	r->stack_list[r->nr_stacks++] = s;
	return s;
}

int pmc__report_add_stack(struct pmc_report *r, size_t attr_idx, const struct rctx *c,
			  const struct rframe *frames, size_t n, uint64_t period)
{
	uint64_t h = stack_hash(c->comm, frames, n);
	struct rstack *s;

	for (s = pmc__addrmap_get(&r->stacks, h); s; s = s->next)
		if (s->hash == h && same_stack(s, c->comm, frames, n))
			break;
	if (!s && !(s = new_stack(r, h, c->comm, frames, n)))
		return -ENOMEM;
	s->samples[attr_idx]++;
	s->period[attr_idx] += period;
	return 0;
}

void pmc__report_stacks_free(struct pmc_report *r)
{
	for (size_t i = 0; i < r->nr_stacks; i++)
		free(r->stack_list[i]);
	free(r->stack_list);
	r->stack_list = NULL;
	r->nr_stacks = r->alloc_stacks = 0;
	pmc__addrmap_free(&r->stacks);
}

const char *pmc__report_frame_func(const struct rframe *f)
{
	return f->res->inlined ? f->res->inlined : f->res->sym->name;
}

/*
 * A symbol's name without its ELF symbol version ("memcpy@@GLIBC_2.14" is memcpy): the
 * length up to an '@' or "@@" followed by a version name (letters, digits, '_' and '.',
 * starting with a letter or '_') and nothing else.
 */
static size_t unversioned_len(const char *s)
{
	const char *at = strchr(s, '@'), *v;

	if (!at || at == s)
		return strlen(s);
	v = at[1] == '@' ? at + 2 : at + 1;
	if (!(*v == '_' || (*v >= 'A' && *v <= 'Z') || (*v >= 'a' && *v <= 'z')))
		return strlen(s);
	for (const char *p = v; *p; p++)
		if (!(*p == '_' || *p == '.' || (*p >= '0' && *p <= '9') ||
		      (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
			return strlen(s);
	return (size_t)(at - s);
}

/* One frame's text in folded output: the sort keys that describe a frame, space-separated. */
static size_t frame_text(const struct pmc_report *r, const struct rframe *f, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t k = 0; k < r->nr_keys && n < len; k++) {
		const struct pmc__symres *res = f->res;
		const char *sep = n ? " " : "";
		const char *fn = pmc__report_frame_func(f);
		int fl = (int)unversioned_len(fn);
		switch (r->keys[k]) {
		case K_SYM:
		case K_INLINE:
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", sep, fl, fn);
			break;
		case K_DSO:
			n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, f->dso->short_name);
			break;
		case K_SRCLINE:
			if (res->srcline)
				n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, res->srcline);
			else
				n += (size_t)snprintf(buf + n, len - n, "%s%.*s", sep, fl, fn);
			break;
		case K_IP:
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s+0x%" PRIx64, sep, fl, fn,
					      res->addr - res->sym->start);
			break;
		default: /* thread and data keys do not describe a frame */
			break;
		}
	}
	if (!n) /* only non-frame keys: the function names the frame */
		n = (size_t)snprintf(buf, len, "%.*s",
				     (int)unversioned_len(pmc__report_frame_func(f)),
				     pmc__report_frame_func(f));
	return n < len ? n : len - 1;
}

/*
 * Appends s to the line as one folded-stack frame: printable (control bytes and non-UTF-8
 * as \xHH, as pmc_printable does), and ';', the frame separator, as \x3b, so that a name
 * never splits a frame or a line. Returns the new length, or SIZE_MAX when out of memory.
 */
static size_t put_frame(char *line, size_t n, size_t len, const char *s)
{
	char *p = pmc_printable(s);

	if (!p)
		return SIZE_MAX;
	for (const char *c = p; *c && n + 5 < len; c++) {
		if (*c == ';') {
			memcpy(line + n, "\\x3b", 4);
			n += 4;
		} else {
			line[n++] = *c;
		}
	}
	line[n] = 0;
	free(p);
	return n;
}

/* One distinct line of folded output: stacks that differ only in addresses share it. */
struct fline {
	struct fline *next;
	uint64_t count;
	char s[];
};

/* Adds count to the line's entry (made on first use, kept in first-seen order in v). */
static int count_line(struct pmc__addrmap *m, struct fline ***v, size_t *nr, const char *line,
		      size_t len, uint64_t count)
{
	uint64_t h = 1469598103934665603ull;
	struct fline *head, *f, **nv;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)line[i]) * 1099511628211ull;
	head = pmc__addrmap_get(m, h);
	for (f = head; f; f = f->next)
		if (!strcmp(f->s, line)) {
			f->count += count;
			return 0;
		}
	nv = realloc(*v, (*nr + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	f = malloc(sizeof(*f) + len + 1);
	if (!f)
		return -ENOMEM;
	memcpy(f->s, line, len + 1);
	f->count = count;
	f->next = head;
	if (pmc__addrmap_put(m, h, f)) {
		free(f);
		return -ENOMEM;
	}
	nv[(*nr)++] = f;
	return 0;
}

static size_t fold_stack(const struct pmc_report *r, const struct rstack *s, char *line, size_t len)
{
	char buf[2048];
	size_t n = put_frame(line, 0, len, s->comm);

	for (size_t f = s->nr; f-- > 0 && n != SIZE_MAX;) {
		frame_text(r, &s->frames[f], buf, sizeof(buf));
		if (n + 1 < len)
			line[n++] = ';';
		n = put_frame(line, n, len, buf);
	}
	return n;
}

int pmc__report_write_folded(struct pmc_report *r, FILE *out)
{
	const size_t len = 65536;
	char *line = malloc(len);
	struct pmc__addrmap m = {0};
	struct fline **v = NULL;
	size_t nr = 0;
	int err = line ? 0 : -ENOMEM;

	for (size_t i = 0; i < r->nr_stacks && !err; i++) {
		const struct rstack *s = r->stack_list[i];
		uint64_t count = 0;
		size_t n = fold_stack(r, s, line, len);
		for (size_t a = 0; a < r->nr_attrs; a++)
			count += s->samples[a];
		err = n == SIZE_MAX ? -ENOMEM : count_line(&m, &v, &nr, line, n, count);
	}
	for (size_t i = 0; i < nr; i++) {
		if (!err)
			fprintf(out, "%s %" PRIu64 "\n", v[i]->s, v[i]->count);
		free(v[i]);
	}
	free(v);
	free(line);
	pmc__addrmap_free(&m);
	return err;
}
