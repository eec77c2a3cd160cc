/* SPDX-License-Identifier: MIT */
/* The parsed results of region records: one run's regions, threads and events. */
#ifndef PMC_LIB_REGION_DATA_H
#define PMC_LIB_REGION_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pmc/region.h>

/*
 * A cell: entered, exited, open at exit, unmatched ends, the entries made with the named
 * marker (a record's "named" line), then one value per event.
 */
enum { RD_ENTERED, RD_EXITED, RD_OPEN, RD_UNMATCHED, RD_NAMED, RD_HDR };

/* One "region" line of a record. */
struct rd_line {
	size_t thread; /* index in the record's tids */
	char *name;
	long number;	/* numbered regions, -1 for named */
	uint64_t *cell; /* [RD_HDR + nr_events] */
};

/* One record (one process), parsed but not yet merged. */
struct rd_record {
	int pid;
	bool started; /* the "started" record of a process (docs/regions.md) */
	size_t nr_events, nr_names;
	char **events;
	uint64_t bad_ids, failed_reads, unopened;
	size_t nr_threads, cap_tids;
	int *tids;
	size_t nr_lines, cap_lines;
	struct rd_line *lines;
};

struct rd_region {
	char *name;
	long number;
	uint64_t *cells; /* [cap_threads * cell words] */
	uint64_t *total; /* [cell words] */
};

struct rd_thread {
	int pid, tid;
};

struct pmc_region_data {
	size_t nr_events;
	char **events;
	bool have_events;
	uint64_t bad_ids, failed_reads, unopened;
	uint64_t nr_lost; /* records that could not be read (malformed, cut short, other events) */
	uint64_t nr_recovered; /* records built from the arena: their processes wrote none */
	/* pids of the "started" records, and of the records with results (or unreadable) */
	int *started, *reported;
	size_t nr_started, cap_started, nr_reported, cap_reported;
	size_t nr_regions, cap_regions;
	struct rd_region *regions;
	size_t nr_threads, cap_threads;
	struct rd_thread *threads;
	size_t *region_order; /* [nr_regions]: output order */
	size_t *thread_order; /* [nr_threads]: by pid, then tid */
};

/*
 * Parses the record at buf (header and body); *used is its length. Returns 0 or a
 * negative code; r must be freed with pmc__rd_record_free() either way.
 */
int pmc__rd_record_parse(struct rd_record *r, const char *buf, size_t len, size_t *used);
void pmc__rd_record_free(struct rd_record *r);

/* Where a buffer's parts lie: the records, and the arena when the pass header names one. */
struct pmc__rd_parts {
	const char *rec, *arena;
	size_t rec_len, arena_len;
};

/*
 * data.c: adds the records of parts to d, then those built from its arena (when it has
 * one). Returns the number of records, or the first error met (pmc_region_data__parse()).
 */
int pmc__rd_parse_parts(struct pmc_region_data *d, const struct pmc__rd_parts *parts);

#endif /* PMC_LIB_REGION_DATA_H */
