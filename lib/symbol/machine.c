// SPDX-License-Identifier: MIT
/* Replaying mmap, comm and fork records into per-process maps and named threads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "symbol/machine.h"

int pmc__machine_new(struct pmc__symtab *st, struct pmc__machine **out)
{
	struct pmc__machine *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->st = st;
	*out = m;
	return 0;
}

void pmc__machine_delete(struct pmc__machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->procs.cap; i++) {
		struct pmc__proc *p = m->procs.vals[i];
		if (p)
			free(p->maps);
		free(p);
	}
	for (size_t i = 0; i < m->threads.cap; i++)
		free(m->threads.vals[i]);
	pmc__addrmap_free(&m->procs);
	pmc__addrmap_free(&m->threads);
	free(m);
}

struct pmc__proc *pmc__machine_proc(struct pmc__machine *m, uint32_t pid)
{
	return pmc__addrmap_get(&m->procs, pid);
}

static struct pmc__proc *get_proc(struct pmc__machine *m, uint32_t pid)
{
	struct pmc__proc *p = pmc__addrmap_get(&m->procs, pid);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (pmc__addrmap_put(&m->procs, pid, p)) {
		free(p);
		return NULL;
	}
	return p;
}

static int add_map(struct pmc__proc *p, const struct pmc__map *map)
{
	if (PMC_ENSURE(p->maps, p->alloc, p->nr + 1))
		return -ENOMEM;
	p->maps[p->nr++] = *map;
	p->dirty = true;
	p->version++;
	return 0;
}

int pmc__machine_mmap(struct pmc__machine *m, uint32_t pid, uint64_t start, uint64_t len,
		      uint64_t pgoff, const char *path, uint64_t time)
{
	struct pmc__proc *p = get_proc(m, pid);
	struct pmc__map map = {start, start + len, pgoff, NULL, time, UINT64_MAX};

	if (!p || !(map.dso = pmc__symtab_dso(m->st, path)))
		return -ENOMEM;
	/*
	 * An earlier map of the same range is replaced from now on; what it held outside the
	 * new range lives on as maps of its own (perf splits them too): an mprotect of a
	 * data segment's first page (RELRO) leaves the rest of the segment mapped.
	 */
	size_t nr = p->nr;
	for (size_t i = 0; i < nr; i++) {
		struct pmc__map old = p->maps[i];
		if (old.died != UINT64_MAX || old.start >= map.end || map.start >= old.end ||
		    old.born > time)
			continue;
		p->maps[i].died = time;
		p->gen += old.dso->path[0] == '/';
		p->version++;
		if (old.start < map.start &&
		    add_map(p, &(struct pmc__map){old.start, map.start, old.pgoff, old.dso, time,
						  UINT64_MAX}))
			return -ENOMEM;
		if (map.end < old.end &&
		    add_map(p,
			    &(struct pmc__map){map.end, old.end, old.pgoff + (map.end - old.start),
					       old.dso, time, UINT64_MAX}))
			return -ENOMEM;
	}
	/* Anonymous maps (mmap_data) come by the thousand and hold no code to unwind through. */
	p->gen += path[0] == '/';
	return add_map(p, &map);
}

struct pmc__thread *pmc__machine_thread(struct pmc__machine *m, uint32_t pid, uint32_t tid)
{
	uint64_t key = (uint64_t)tid | (uint64_t)pid << 32;
	struct pmc__thread *t = pmc__addrmap_get(&m->threads, key);
	char buf[32];

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	snprintf(buf, sizeof(buf), ":%u", tid);
	*t = (struct pmc__thread){pid, tid, pmc__symtab_intern(m->st, buf)};
	if (!t->comm || pmc__addrmap_put(&m->threads, key, t)) {
		free(t);
		return NULL;
	}
	return t;
}

int pmc__machine_comm(struct pmc__machine *m, uint32_t pid, uint32_t tid, const char *comm,
		      bool exec, uint64_t time)
{
	struct pmc__thread *t = pmc__machine_thread(m, pid, tid);
	struct pmc__proc *p;

	if (!t || !(t->comm = pmc__symtab_intern(m->st, comm)))
		return -ENOMEM;
	/* exec replaced the address space: older maps end here. */
	if (exec && (p = pmc__addrmap_get(&m->procs, pid))) {
		for (size_t i = 0; i < p->nr; i++)
			if (p->maps[i].died > time)
				p->maps[i].died = time;
		p->gen++;
		p->version++;
	}
	return 0;
}

int pmc__machine_fork(struct pmc__machine *m, uint32_t pid, uint32_t ppid, uint32_t tid,
		      uint32_t ptid)
{
	struct pmc__thread *parent = pmc__machine_thread(m, ppid, ptid);
	struct pmc__thread *t = pmc__machine_thread(m, pid, tid);
	struct pmc__proc *pp, *p;

	if (!parent || !t)
		return -ENOMEM;
	t->comm = parent->comm;
	if (pid == ppid || !(pp = pmc__addrmap_get(&m->procs, ppid)))
		return 0;
	if (!(p = get_proc(m, pid)))
		return -ENOMEM;
	for (size_t i = 0; i < pp->nr; i++)
		if (pp->maps[i].died == UINT64_MAX && add_map(p, &pp->maps[i]))
			return -ENOMEM;
	p->gen++;
	return 0;
}

static int cmp_map(const void *a, const void *b)
{
	const struct pmc__map *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->born < y->born ? -1 : x->born > y->born;
}

/* Narrows [*lo, *hi) to the side of boundary b that time is on. */
static void clip(uint64_t b, uint64_t time, uint64_t *lo, uint64_t *hi)
{
	if (b <= time && b > *lo)
		*lo = b;
	else if (b > time && b < *hi)
		*hi = b;
}

const struct pmc__map *pmc__machine_find_span(struct pmc__machine *m, uint32_t pid, uint64_t addr,
					      uint64_t time, uint64_t *lo, uint64_t *hi)
{
	struct pmc__proc *p = pmc__addrmap_get(&m->procs, pid);
	const struct pmc__map *best = NULL;
	size_t lo_idx = 0, hi_idx;

	*lo = 0;
	*hi = UINT64_MAX;
	if (!p || !p->nr)
		return NULL;
	if (p->dirty) {
		qsort(p->maps, p->nr, sizeof(*p->maps), cmp_map);
		p->dirty = false;
	}
	hi_idx = p->nr;
	while (lo_idx < hi_idx) {
		size_t mid = lo_idx + (hi_idx - lo_idx) / 2;
		if (p->maps[mid].start <= addr)
			lo_idx = mid + 1;
		else
			hi_idx = mid;
	}
	/*
	 * Maps barely overlap, so the candidates sit just left of the insertion point. The
	 * newest map born by time wins; a sample older than every live map (its MMAP came
	 * late) takes the oldest of them. The answer depends on time only through each
	 * candidate's born and died: between the nearest of those around time it cannot change.
	 */
	for (size_t i = lo_idx, seen = 0; i > 0 && seen < 32; i--, seen++) {
		const struct pmc__map *c = &p->maps[i - 1];
		if (addr >= c->end)
			continue;
		clip(c->born, time, lo, hi);
		clip(c->died, time, lo, hi);
		if (time >= c->died)
			continue;
		if (c->born <= time ? !best || best->born > time || c->born > best->born
				    : !best || (best->born > time && c->born < best->born))
			best = c;
	}
	return best;
}

const struct pmc__map *pmc__machine_find(struct pmc__machine *m, uint32_t pid, uint64_t addr,
					 uint64_t time)
{
	uint64_t lo, hi;

	return pmc__machine_find_span(m, pid, addr, time, &lo, &hi);
}
