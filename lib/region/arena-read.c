// SPDX-License-Identifier: MIT
/*
 * Reading the arena (docs/regions.md, "The arena"): the record of every process that left
 * without writing its own, built from its chunks with the writer's own code (proto.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/grow.h"
#include "region/arena.h"
#include "region/region.h"

struct walk {
	const char *base;
	size_t nr;	    /* chunks */
	uint64_t *offs;	    /* [nr]: their offsets */
	uint64_t proc;	    /* the process being recovered */
	size_t cursor;	    /* next_thread's place in offs */
	size_t table_bytes; /* a thread chunk's payload for this process */
	const char *names[PMC_REGION_MAX];
};

static const struct pmc__arena_chunk *chunk(const struct walk *w, size_t i)
{
	return (const struct pmc__arena_chunk *)(w->base + w->offs[i]);
}

/* Every chunk from the head to next, each whole; -PMC_E_FORMAT when one is not. */
static int walk_chunks(struct walk *w, const char *base, size_t len)
{
	struct pmc__arena_head h;
	uint64_t off = (sizeof(h) + 7) & ~7ull;
	size_t cap = 0;

	if (len < sizeof(h))
		return -PMC_E_FORMAT;
	memcpy(&h, base, sizeof(h));
	if (memcmp(h.magic, PMC_ARENA_MAGIC, sizeof(h.magic)) || h.version != PMC_ARENA_VERSION)
		return -PMC_E_FORMAT;
	if (h.next > len || h.next < off)
		return -PMC_E_FORMAT;
	w->base = base;
	while (off < h.next) {
		const struct pmc__arena_chunk *c = (const void *)(base + off);

		/* A chunk taken but never written (its process died in between) ends the walk. */
		if (h.next - off < sizeof(*c) || c->magic != PMC_ARENA_CHUNK_MAGIC ||
		    c->len < sizeof(*c) || c->len % 8 || c->len > h.next - off)
			return -PMC_E_FORMAT;
		if (PMC_ENSURE(w->offs, cap, w->nr + 1))
			return -ENOMEM;
		w->offs[w->nr++] = off;
		off += c->len;
	}
	return 0;
}

static const char *arena_name(void *ctx, unsigned id, char *buf, size_t len)
{
	struct walk *w = ctx;

	if (id < PMC_REGION_NUMBERED) {
		snprintf(buf, len, "%u", id);
		return buf;
	}
	return id < PMC_REGION_MAX ? w->names[id] : NULL;
}

static bool arena_thread(void *ctx, unsigned *tid, const uint64_t **table)
{
	struct walk *w = ctx;

	for (; w->cursor < w->nr; w->cursor++) {
		const struct pmc__arena_chunk *c = chunk(w, w->cursor);

		if (c->kind != PMC_ARENA_THREAD || c->owner != w->proc)
			continue;
		*tid = c->id;
		*table = (const uint64_t *)(c + 1);
		w->cursor++;
		return true;
	}
	return false;
}

/* The process's event names (NUL-terminated, all inside its chunk) into ev[nr]. */
static int proc_events(const struct pmc__arena_chunk *c, const uint64_t *words, size_t nr,
		       const char **ev)
{
	const char *p = (const char *)(words + PMC_ARENA_PROC_WORDS),
		   *end = (const char *)c + c->len;

	for (size_t e = 0; e < nr; e++) {
		const char *z = memchr(p, '\0', (size_t)(end - p));

		if (!z)
			return -PMC_E_FORMAT;
		ev[e] = p;
		p = z + 1;
	}
	return 0;
}

/* Its names, and whether every one of its chunks is as the process's chunk says. */
static int proc_parts(struct walk *w)
{
	memset(w->names, 0, sizeof(w->names));
	for (size_t i = 0; i < w->nr; i++) {
		const struct pmc__arena_chunk *c = chunk(w, i);
		const char *name = (const char *)(c + 1);
		size_t n = c->len - sizeof(*c);

		if (c->owner != w->proc || c->kind == PMC_ARENA_PROC)
			continue;
		if (c->kind == PMC_ARENA_THREAD && n != w->table_bytes)
			return -PMC_E_FORMAT;
		if (c->kind != PMC_ARENA_NAME)
			continue;
		if (c->id < PMC_REGION_NUMBERED || c->id >= PMC_REGION_MAX || !memchr(name, 0, n))
			return -PMC_E_FORMAT;
		w->names[c->id] = name;
	}
	return 0;
}

/* The record of the process whose chunk is w->offs[i], to fn; 0 when it is not for us. */
static int recover_one(struct walk *w, size_t i, bool (*gone)(int, void *),
		       int (*fn)(const char *, size_t, void *), void *ctx)
{
	const struct pmc__arena_chunk *c = chunk(w, i);
	const uint64_t *words = (const uint64_t *)(c + 1);
	struct pmc__region_src src = {
		.pid = c->id, .name = arena_name, .next_thread = arena_thread, .ctx = w};
	const char **ev = NULL;
	char *rec = NULL;
	size_t len = 0;
	int err;

	if (c->kind != PMC_ARENA_PROC || c->state != PMC_ARENA_COUNTING ||
	    c->len < sizeof(*c) + PMC_ARENA_PROC_WORDS * sizeof(uint64_t) ||
	    words[PMC_ARENA_NR_EVENTS] > c->len || !gone((int)c->id, ctx))
		return 0;
	src.nr_events = (size_t)words[PMC_ARENA_NR_EVENTS];
	src.bad_ids = words[PMC_ARENA_BAD_IDS];
	src.failed_reads = words[PMC_ARENA_FAILED_READS];
	src.unopened = words[PMC_ARENA_UNOPENED];
	w->proc = w->offs[i];
	w->cursor = 0;
	w->table_bytes = (size_t)PMC_REGION_MAX * (SLOT_HDR + 2 * src.nr_events) * sizeof(uint64_t);
	ev = calloc(src.nr_events + 1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	err = proc_events(c, words, src.nr_events, ev);
	if (!err)
		err = proc_parts(w);
	src.events = (char *const *)ev;
	if (!err)
		err = pmc__region_record_of(&src, &rec, &len);
	if (!err)
		err = fn(rec, len, ctx);
	free(rec);
	free(ev);
	/* A process whose chunks do not fit stays what it was: started, with no record. */
	return err == -PMC_E_FORMAT ? 0 : err < 0 ? err : 1;
}

int pmc__region_arena_recover(const void *arena, size_t len, bool (*gone)(int pid, void *ctx),
			      int (*fn)(const char *rec, size_t len, void *ctx), void *ctx)
{
	struct walk *w = calloc(1, sizeof(*w));
	void *copy = NULL;
	int err = 0, nr = 0;

	if (!w)
		return -ENOMEM;
	if ((uintptr_t)arena % 8) { /* the tables are read as words */
		if (!(copy = malloc(len ? len : 1)))
			err = -ENOMEM;
		else
			arena = memcpy(copy, arena, len);
	}
	if (!err)
		err = walk_chunks(w, arena, len);
	for (size_t i = 0; !err && i < w->nr; i++) {
		int r = recover_one(w, i, gone, fn, ctx);

		if (r < 0)
			err = r;
		nr += r > 0;
	}
	free(w->offs);
	free(w);
	free(copy);
	return err ? err : nr;
}
