/* SPDX-License-Identifier: MIT */
/* Internals of regions: the session, the name registry, per-thread tables (docs/regions.md). */
#ifndef PMC_LIB_REGION_REGION_H
#define PMC_LIB_REGION_REGION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <pmc/region.h>
#include "region/reader.h"

/* The session's state, checked first by every marker. */
enum region_state {
	REGION_UNINIT = 0, /* no marker yet: the first one reads the environment */
	REGION_OFF,	   /* nothing to count: markers return at once */
	REGION_ON,
	REGION_DONE, /* results written: markers return at once */
};

enum { REGION_BAD_IDS, REGION_FAILED_READS, REGION_UNOPENED, REGION_NR_PROBLEMS };

struct region_session {
	int state;		       /* enum region_state, read with atomics */
	struct pmc__region_config cfg; /* events, backend, priv */
	enum pmc_region_sink sink;
	char *output;	 /* SINK_JSON */
	int fd;		 /* SINK_FD */
	bool per_thread; /* SINK_STDERR: a line per thread too */
	/*
	 * [REGION_BAD_IDS]: markers with an unknown id; [REGION_FAILED_READS]: counter reads
	 * that failed (values kept); [REGION_UNOPENED]: threads whose counters could not be
	 * opened (EMFILE...), whose entries are not counted. In own_problems, or in the arena once
	 * the process has a chunk there.
	 */
	uint64_t *problems;
	uint64_t own_problems[REGION_NR_PROBLEMS];
	int init_err;	    /* why regions are off when the config was bad */
	size_t nr_events;   /* set by the first thread that opened counters */
	char **event_names; /* [nr_events], the session's copies */
	int stopped_by;	    /* the signal that ends the run early, 0 (pmc_region_flush_stopped) */
};

extern struct region_session pmc__region_session;

/*
 * One slot per region id in a thread's table: SLOT_HDR words of bookkeeping, then
 * start[nr_events] (the reading at the outermost begin), then sum[nr_events]. SLOT_NAMED
 * counts the entries made with pmc_region_begin(name) (the others by id): the two forms cost
 * differently, and pmc stat subtracts each one's calibrated cost.
 */
enum { SLOT_ENTERED, SLOT_EXITED, SLOT_DEPTH, SLOT_UNMATCHED, SLOT_NAMED, SLOT_HDR };

struct region_thread {
	struct region_thread *next; /* the session's list of threads, newest first */
	pid_t pid, tid;
	bool live; /* the thread still runs; its counters are open */
	struct pmc__region_reader *reader;
	size_t nr_events;
	size_t stride;	 /* words per slot: SLOT_HDR + 2 * nr_events */
	uint64_t *now;	 /* [nr_events] scratch for the end marker's read */
	uint64_t *table; /* [PMC_REGION_MAX * stride], in the arena or malloc'ed */
};

static inline uint64_t *region_slot(struct region_thread *t, unsigned id)
{
	return t->table + (size_t)id * t->stride;
}

/* registry.c: region names and ids, shared by all threads, lock-free to look up. */
/* The id of name, registering it on first use. -ENOSPC when full, -ENOMEM. */
int pmc__region_id(const char *name);
/* The name of id; numbered regions print their number into buf. NULL when unknown. */
const char *pmc__region_name(unsigned id, char *buf, size_t len);
/* Whether id may be used with the numbered markers. */
bool pmc__region_known(unsigned id);
/*
 * Calls fn for every name registered so far, then for every later one as it is registered
 * (under the registry's lock, so none is missed between the two); NULL stops.
 */
void pmc__region_names_follow(void (*fn)(unsigned id, const char *name));

/* session.c: reading the environment, the exit and fork hooks, the flush. */
/* Makes sure the session is configured; returns the state. */
int pmc__region_session_get(void);
/* The calling thread's table, set up on first use; NULL when it cannot count. */
struct region_thread *pmc__region_thread_slow(void);
extern __thread struct region_thread *pmc__region_self __attribute__((tls_model("initial-exec")));

/* thread.c: per-thread tables. */
int pmc__region_thread_new(const struct pmc__region_config *cfg, struct region_thread **out);
/* Closes the thread's counters, keeping its results. */
void pmc__region_thread_retire(struct region_thread *t);
void pmc__region_thread_delete(struct region_thread *t);
/* For the calling thread at exit: adds what open regions counted so far. */
void pmc__region_thread_settle(struct region_thread *t);

/* What a record holds, from the live session or from the arena (proto.c). */
struct pmc__region_src {
	unsigned pid;
	size_t nr_events;
	uint64_t bad_ids, failed_reads, unopened;
	char *const *events; /* [nr_events] */
	/* The name of region id (numbered ones printed into buf), or NULL to leave it out. */
	const char *(*name)(void *ctx, unsigned id, char *buf, size_t len);
	/* The next thread's tid and table (stride SLOT_HDR + 2 * nr_events); false at the end. */
	bool (*next_thread)(void *ctx, unsigned *tid, const uint64_t **table);
	void *ctx;
};

/* proto.c: the record of docs/regions.md (header and body) that src describes. */
int pmc__region_record_of(const struct pmc__region_src *src, char **buf, size_t *len);

/*
 * proto.c: the record of docs/regions.md for session s and every thread on its list (the
 * caller holds the list's lock).
 */
int pmc__region_record(const struct region_session *s, struct region_thread *threads, char **buf,
		       size_t *len);
/*
 * proto.c: the "started" record of the calling process (docs/regions.md), written to the
 * runner's descriptor when the process starts to count, so that a process that never writes
 * its results (_exit(), a crash, SIGKILL) is counted as a lost record. Its length, or 0 when
 * len is too small (64 bytes are enough).
 */
size_t pmc__region_start_record(char *buf, size_t len);

/*
 * report.c: the standalone outputs, from parsed data. Under an MPI launcher the JSON file's
 * path takes %r, %h and %p, and a path without them is written as PATH.rank-%r
 * (docs/mpi.md); backend names the counters' backend in its provenance (NULL: perf), and a
 * stopped_by other than 0 the signal that stopped the run early.
 */
int pmc__region_report_text(FILE *f, const struct pmc_region_data *data, bool per_thread);
int pmc__region_report_json(const char *path, const char *backend, int stopped_by,
			    const struct pmc_region_data *d);

#endif /* PMC_LIB_REGION_REGION_H */
