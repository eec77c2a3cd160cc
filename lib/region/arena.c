// SPDX-License-Identifier: MIT
/*
 * The arena (docs/regions.md, "The arena"): the process's side keeps its chunks there (its
 * tables, event and region names, problem counts); the reader's side builds the record of
 * a process that left without writing one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <pmc/error.h>
#include "region/arena.h"
#include "region/region.h"

/* The process's side. */
static struct {
	char *base;    /* the mapping, or NULL */
	uint64_t size; /* its bytes */
	uint64_t proc; /* the offset of this process's chunk, 0 before its first table */
} arena;

int pmc__region_arena_init(int fd, uint64_t off, uint64_t size)
{
	struct pmc__arena_head h = {.version = PMC_ARENA_VERSION, .size = size};
	ssize_t n;

	memcpy(h.magic, PMC_ARENA_MAGIC, sizeof(h.magic));
	h.next = (sizeof(h) + 7) & ~7ull;
	do
		n = pwrite(fd, &h, sizeof(h), (off_t)off);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(h) ? 0 : n < 0 ? -errno : -EIO;
}

int pmc__region_arena_map(int fd, uint64_t off, uint64_t size)
{
	struct pmc__arena_head *h;
	void *p;

	if (off % PMC_ARENA_ALIGN || size < sizeof(*h) || size > PMC_ARENA_SIZE)
		return -PMC_E_FORMAT;
	p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
	if (p == MAP_FAILED)
		return -errno;
	h = p;
	if (memcmp(h->magic, PMC_ARENA_MAGIC, sizeof(h->magic)) ||
	    h->version != PMC_ARENA_VERSION || h->size != size) {
		munmap(p, (size_t)size);
		return -PMC_E_FORMAT;
	}
	arena.base = p;
	arena.size = size;
	return 0;
}

/* A chunk of len bytes (rounded up to 8), its header written; NULL when the arena is full. */
static struct pmc__arena_chunk *reserve(uint32_t kind, uint32_t id, uint64_t len)
{
	struct pmc__arena_head *h = (struct pmc__arena_head *)arena.base;
	uint64_t at = __atomic_load_n(&h->next, __ATOMIC_RELAXED);
	struct pmc__arena_chunk *c;

	len = (len + 7) & ~7ull;
	do {
		if (len > arena.size || at > arena.size - len)
			return NULL;
	} while (!__atomic_compare_exchange_n(&h->next, &at, at + len, true, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	c = (struct pmc__arena_chunk *)(arena.base + at);
	*c = (struct pmc__arena_chunk){.kind = kind,
				       .id = id,
				       .owner = kind == PMC_ARENA_PROC ? at : arena.proc,
				       .len = len};
	__atomic_store_n(&c->magic, PMC_ARENA_CHUNK_MAGIC, __ATOMIC_RELEASE);
	return c;
}

static struct pmc__arena_chunk *proc_chunk(void)
{
	return arena.proc ? (struct pmc__arena_chunk *)(arena.base + arena.proc) : NULL;
}

/* Called by the registry, under its lock, for every name of the process. */
static void put_name(unsigned id, const char *name)
{
	size_t n = strlen(name) + 1;
	struct pmc__arena_chunk *c;

	if (!arena.proc) /* a forked child before its first table: it dumps them all then */
		return;
	c = reserve(PMC_ARENA_NAME, id, sizeof(*c) + n);
	if (c)
		memcpy(c + 1, name, n);
	else /* a region without its name could not be recovered */
		__atomic_store_n(&proc_chunk()->state, PMC_ARENA_INCOMPLETE, __ATOMIC_RELAXED);
}

/* This process's chunk: its event names, and from now on its problem counts. */
static int attach(size_t nr_events, const char *const *events)
{
	struct region_session *s = &pmc__region_session;
	size_t len = sizeof(struct pmc__arena_chunk) + PMC_ARENA_PROC_WORDS * sizeof(uint64_t);
	struct pmc__arena_chunk *c;
	uint64_t *w;
	char *p;

	for (size_t e = 0; e < nr_events; e++)
		len += strlen(events[e]) + 1;
	c = reserve(PMC_ARENA_PROC, (uint32_t)getpid(), len);
	if (!c)
		return -ENOSPC;
	w = (uint64_t *)(c + 1);
	w[PMC_ARENA_NR_EVENTS] = nr_events;
	w[PMC_ARENA_BAD_IDS] = __atomic_load_n(&s->problems[REGION_BAD_IDS], __ATOMIC_RELAXED);
	w[PMC_ARENA_FAILED_READS] =
		__atomic_load_n(&s->problems[REGION_FAILED_READS], __ATOMIC_RELAXED);
	p = (char *)(w + PMC_ARENA_PROC_WORDS);
	for (size_t e = 0; e < nr_events; e++)
		p = stpcpy(p, events[e]) + 1;
	__atomic_store_n(&s->problems, &w[PMC_ARENA_BAD_IDS], __ATOMIC_RELEASE);
	arena.proc = (uint64_t)((char *)c - arena.base);
	pmc__region_names_follow(put_name);
	return 0;
}

uint64_t *pmc__region_arena_table(pid_t tid, size_t words, size_t nr_events,
				  const char *const *events)
{
	struct pmc__arena_chunk *c;

	if (!arena.base || (!arena.proc && attach(nr_events, events)))
		return NULL;
	c = reserve(PMC_ARENA_THREAD, (uint32_t)tid, sizeof(*c) + words * sizeof(uint64_t));
	if (!c) {
		__atomic_store_n(&proc_chunk()->state, PMC_ARENA_INCOMPLETE, __ATOMIC_RELAXED);
		return NULL;
	}
	/* Every page written: the reader takes a hole for the arena's end. */
	memset(c + 1, 0, words * sizeof(uint64_t));
	return (uint64_t *)(c + 1);
}

void pmc__region_arena_written(void)
{
	struct pmc__arena_chunk *c = proc_chunk();

	if (c)
		__atomic_store_n(&c->state, PMC_ARENA_WRITTEN, __ATOMIC_RELEASE);
}

void pmc__region_arena_forked(void)
{
	struct region_session *s = &pmc__region_session;

	if (arena.proc) {
		s->own_problems[REGION_BAD_IDS] = s->problems[REGION_BAD_IDS];
		s->own_problems[REGION_FAILED_READS] = s->problems[REGION_FAILED_READS];
		s->problems = s->own_problems;
	}
	arena.proc = 0;
}

bool pmc__region_arena_holds(const void *table)
{
	const char *p = table;

	return arena.base && p >= arena.base && p < arena.base + arena.size;
}
