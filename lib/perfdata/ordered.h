/* SPDX-License-Identifier: MIT */
/*
 * The ordered-events queue (ordered.c, as perf keeps util/ordered-events.c): records read from
 * a file wait here until no record still to be read can be older than they are, then are
 * handed to the reader's callback in time order (docs/sample-file.md, "Record order").
 */
#ifndef PMC_LIB_PERFDATA_ORDERED_H
#define PMC_LIB_PERFDATA_ORDERED_H

#include "perfdata/perfdata.h"

/* Takes one record in time order; a non-zero return stops the replay and is returned. */
typedef int (*pmc__ordered_fn)(void *arg, const struct pmc__perfdata_event *ev,
			       struct pmc_file_error *err);

struct pmc__ordered_ent {
	uint64_t time, offset;
	size_t attr_idx;
};

struct pmc__ordered {
	struct pmc__perfdata *f; /* the records' reader, asked for them again at replay */
	pmc__ordered_fn fn;
	void *arg;
	/*
	 * Without FINISHED_ROUND records the queue would hold the whole file: past max records
	 * the older half is replayed (perf's OE_FLUSH__HALF), bounding memory at the cost of
	 * exact order for records delayed by more than half a window. 4M by default.
	 */
	size_t max;
	struct pmc__ordered_ent *v, *tmp; /* [alloc]; tmp is the merge sort's other buffer */
	size_t nr, alloc;
	bool sorted;	     /* v[0, nr) is already in (time, offset) order */
	uint64_t last_time;  /* of the last record read: given to records with no time */
	uint64_t round_max;  /* newest time read so far */
	uint64_t next_flush; /* at the next FINISHED_ROUND, replay up to this time */
	uint64_t flushed;    /* newest time replayed */
	uint64_t nr_late;    /* records older than one already replayed */
	uint64_t keep;	     /* the lowest offset queued, when nr (pmc__perfdata_keep) */
};

/* An empty queue over the reader f, replaying into fn(arg, ...). Owns nothing yet. */
void pmc__ordered_init(struct pmc__ordered *q, struct pmc__perfdata *f, pmc__ordered_fn fn,
		       void *arg);
/*
 * Takes a record read by pmc__perfdata_next(): queues it by its time (a record with none goes
 * right after the record before it in the file), replays what a FINISHED_ROUND frees, and
 * hands perf's own record types (attrs, build ids, ...), which carry no time, straight on.
 * Returns 0, -ENOMEM, or what the callback returned.
 */
int pmc__ordered_queue(struct pmc__ordered *q, const struct pmc__perfdata_event *ev,
		       struct pmc_file_error *err);
/* Replays every record still queued. 0 or what the callback returned. */
int pmc__ordered_drain(struct pmc__ordered *q, struct pmc_file_error *err);
/* Frees the queue's memory; q is empty (and may be initialised again). */
void pmc__ordered_free(struct pmc__ordered *q);

#endif /* PMC_LIB_PERFDATA_ORDERED_H */
