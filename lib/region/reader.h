/* SPDX-License-Identifier: MIT */
/* How a thread reads its own counters for regions: one small interface, one file per way. */
#ifndef PMC_LIB_REGION_READER_H
#define PMC_LIB_REGION_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a reader counts: the events as a string, the backend, the default privilege. */
struct pmc__region_config {
	char *events;
	char *backend; /* NULL: perf */
	unsigned priv; /* PMC_PRIV_*, 0: user */
	bool quiet;    /* under a runner, which reports problems itself: log at debug level */
};

struct pmc__region_reader;

/*
 * A way to read counters from inside the measured thread. open() runs in the thread that
 * will read (it may allocate and make system calls); read() is the markers' fast path:
 * no allocation, no system call but the read itself. A vpmu reader (client requests)
 * plugs in here as a second ops table.
 */
struct pmc__region_reader_ops {
	const char *name;
	int (*open)(const struct pmc__region_config *cfg, struct pmc__region_reader **out);
	/* Stores the current value of every event in values[0..nr_events). 0 or -errno. */
	int (*read)(struct pmc__region_reader *r, uint64_t *values);
	void (*close)(struct pmc__region_reader *r);
};

/* Each reader embeds this first. */
struct pmc__region_reader {
	const struct pmc__region_reader_ops *ops;
	size_t nr_events;
	const char **names; /* [nr_events], owned by the reader */
};

/* reader-evlist.c: counters opened with libpmc's counting API on the calling thread. */
extern const struct pmc__region_reader_ops pmc__region_reader_evlist;

/* The reader for cfg (today always the event-list reader; vpmu will choose its own). */
int pmc__region_reader_open(const struct pmc__region_config *cfg, struct pmc__region_reader **out);

#endif /* PMC_LIB_REGION_READER_H */
