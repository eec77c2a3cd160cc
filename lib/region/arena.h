/* SPDX-License-Identifier: MIT */
/*
 * The arena: under the runner, every process keeps its region tables in a part of the
 * results file that it maps shared, so that the runner reads them when the process left
 * without writing its record (_exit(), a crash, SIGKILL). Layout: docs/regions.md, "The
 * arena".
 */
#ifndef PMC_LIB_REGION_ARENA_H
#define PMC_LIB_REGION_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PMC_ARENA_MAGIC "PMCARENA"
#define PMC_ARENA_VERSION 1
/* The arena's offset in the results file is a multiple of this (any page size divides it). */
#define PMC_ARENA_ALIGN 65536u
/* Its size: sparse, a page costs memory once a process touches it. */
#define PMC_ARENA_SIZE (1ull << 30)
#define PMC_ARENA_CHUNK_MAGIC 0x4b434d50u /* "PMCK", little-endian */

/* At the arena's offset; chunks follow it. */
struct pmc__arena_head {
	char magic[8];	  /* PMC_ARENA_MAGIC */
	uint32_t version; /* PMC_ARENA_VERSION */
	uint32_t pad;
	uint64_t size; /* the arena's bytes, this head included */
	uint64_t next; /* offset of the first free byte, from the head; taken atomically */
	uint64_t reserved[4];
};

enum pmc__arena_kind {
	PMC_ARENA_PROC = 1, /* a process: id is its pid; payload below */
	PMC_ARENA_THREAD,   /* a thread's table: id is its tid */
	PMC_ARENA_NAME,	    /* a region name: id is the region's id; payload the name, NUL */
};

/* A process's state (its chunk's state field). */
enum pmc__arena_state {
	PMC_ARENA_COUNTING = 0, /* no record written: the runner reads the arena */
	PMC_ARENA_WRITTEN,	/* the process writes or wrote its record */
	PMC_ARENA_INCOMPLETE,	/* a table of it is not in the arena: nothing to recover */
};

/* Every chunk starts with this; len counts it too and is a multiple of 8. */
struct pmc__arena_chunk {
	uint32_t magic; /* PMC_ARENA_CHUNK_MAGIC */
	uint32_t kind;	/* enum pmc__arena_kind */
	uint32_t id;
	uint32_t state; /* PROC: enum pmc__arena_state; 0 for the others */
	uint64_t owner; /* the offset of the process's chunk (a PROC chunk's own) */
	uint64_t len;
};

/* A PROC chunk's payload: these words, then nr_events event names, each NUL-terminated. */
enum { PMC_ARENA_NR_EVENTS, PMC_ARENA_BAD_IDS, PMC_ARENA_FAILED_READS, PMC_ARENA_PROC_WORDS };

/*
 * The runner's side: writes an empty arena's head at off of fd (the file must already be
 * off + size bytes long). 0 or -errno.
 */
int pmc__region_arena_init(int fd, uint64_t off, uint64_t size);

/*
 * The process's side (the caller holds what serializes thread set-up). Maps the arena that
 * the pass header names; 0, or a negative code (regions then count without one).
 */
int pmc__region_arena_map(int fd, uint64_t off, uint64_t size);
/*
 * A table of words zeroed words (every page written, so none is a hole and no marker takes
 * a page fault on it) for thread tid in the arena, the process's chunk written
 * first (with its nr_events event names) when this is its first. NULL when there is no
 * arena or it is full: the caller allocates the table itself, and the process's chunk says
 * that the arena does not hold all of it.
 */
uint64_t *pmc__region_arena_table(pid_t tid, size_t words, size_t nr_events,
				  const char *const *events);
/* The process writes its record now: the runner is to read the record, not the arena. */
void pmc__region_arena_written(void);
/* In a forked child: the parent's chunk is not the child's; its first table makes its own. */
void pmc__region_arena_forked(void);
/* Whether table is in the arena (and so not to be freed). */
bool pmc__region_arena_holds(const void *table);

/*
 * The reader's side: for every process in arena[0..len) that wrote no record and is gone
 * (gone(pid, ctx) true), its record built from the arena (docs/regions.md's record format),
 * passed to fn. Returns the number of records passed, or a negative code: -PMC_E_FORMAT when
 * the arena cannot be walked to its end (then nothing is passed), or fn's error.
 */
int pmc__region_arena_recover(const void *arena, size_t len, bool (*gone)(int pid, void *ctx),
			      int (*fn)(const char *rec, size_t len, void *ctx), void *ctx);

#endif /* PMC_LIB_REGION_ARENA_H */
