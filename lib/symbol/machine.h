/* SPDX-License-Identifier: MIT */
/* The processes, threads and memory maps a sample file describes, replayed in file order. */
#ifndef PMC_LIB_SYMBOL_MACHINE_H
#define PMC_LIB_SYMBOL_MACHINE_H

#include "symbol/addrmap.h"
#include "symbol/symbol.h"

struct pmc__map {
	uint64_t start, end, pgoff;
	struct pmc__dso *dso;
	uint64_t born, died; /* valid for sample times in [born, died) */
};

struct pmc__proc {
	uint32_t pid;
	struct pmc__map *maps; /* sorted by start when !dirty */
	size_t nr, alloc;
	bool dirty;
	unsigned gen;	  /* bumped when a file map appears or maps die (unwind.c rebuilds) */
	uint64_t version; /* bumped on every change to maps, anonymous ones included */
};

struct pmc__thread {
	uint32_t pid, tid;
	const char *comm; /* interned; "pid:N" style until a COMM record names it */
};

struct pmc__machine {
	struct pmc__symtab *st;
	struct pmc__addrmap procs;   /* pid → struct pmc__proc */
	struct pmc__addrmap threads; /* tid | pid << 32 → struct pmc__thread */
};

int pmc__machine_new(struct pmc__symtab *st, struct pmc__machine **out);
void pmc__machine_delete(struct pmc__machine *m);
int pmc__machine_mmap(struct pmc__machine *m, uint32_t pid, uint64_t start, uint64_t len,
		      uint64_t pgoff, const char *path, uint64_t time);
int pmc__machine_comm(struct pmc__machine *m, uint32_t pid, uint32_t tid, const char *comm,
		      bool exec, uint64_t time);
int pmc__machine_fork(struct pmc__machine *m, uint32_t pid, uint32_t ppid, uint32_t tid,
		      uint32_t ptid);
/* The thread (created with a placeholder name when unknown). NULL on ENOMEM. */
struct pmc__thread *pmc__machine_thread(struct pmc__machine *m, uint32_t pid, uint32_t tid);
/* The map of pid holding addr at time, or NULL. */
const struct pmc__map *pmc__machine_find(struct pmc__machine *m, uint32_t pid, uint64_t addr,
					 uint64_t time);
/*
 * The same, and the times [*lo, *hi) around time for which the answer stays the same while
 * pid's maps do (pmc__proc.version unchanged): callers cache the answer for that span.
 */
const struct pmc__map *pmc__machine_find_span(struct pmc__machine *m, uint32_t pid, uint64_t addr,
					      uint64_t time, uint64_t *lo, uint64_t *hi);
/* The live maps of pid (for the DWARF unwinder), or NULL. */
struct pmc__proc *pmc__machine_proc(struct pmc__machine *m, uint32_t pid);

#endif /* PMC_LIB_SYMBOL_MACHINE_H */
