/* SPDX-License-Identifier: MIT */
/*
 * Side-band records for unit tests' perf.data files, encoded by the library's record codec
 * (lib/perfdata/records.h) with the sample_id trailer the writer's first event implies, and
 * written with the library's writer: no test lays out a record by hand.
 */
#ifndef PMC_TESTS_PERFDATA_FIXTURE_H
#define PMC_TESTS_PERFDATA_FIXTURE_H

#include <criterion/criterion.h>
#include <string.h>
#include "perfdata/records.h"
#include "perfdata/writer.h"

/* Writes r for w's first event; its trailer's pid/tid are the record's, its time is time. */
static inline void fixture_record(struct pmc__perfdata_writer *w, struct pmc__record r,
				  uint64_t time)
{
	uint64_t buf[(8 + 128 + PMC_RECORD_STR_MAX + 1 + 64) / 8];
	int len;

	cr_assert_gt(w->nr_attrs, 0, "add the events before writing records");
	r.sid.pid = r.sid.pid ? r.sid.pid : r.pid;
	r.sid.tid = r.sid.tid ? r.sid.tid : r.tid;
	r.sid.time = time;
	len = pmc__record_encode(&w->attrs[0].attr, &r, buf, sizeof(buf));
	cr_assert_gt(len, 0, "record of type %u: %d", r.type, len);
	cr_assert_eq(pmc__perfdata_writer_write(w, buf, (size_t)len), 0);
}

static inline void fixture_comm(struct pmc__perfdata_writer *w, uint32_t pid, uint32_t tid,
				const char *comm, uint64_t time)
{
	fixture_record(
		w,
		(struct pmc__record){.type = PERF_RECORD_COMM, .pid = pid, .tid = tid, .str = comm},
		time);
}

/* An executable private MMAP2 of path over [start, start + len), file offset 0. */
static inline void fixture_mmap2(struct pmc__perfdata_writer *w, uint32_t pid, uint64_t start,
				 uint64_t len, const char *path, uint64_t time)
{
	fixture_record(w,
		       (struct pmc__record){.type = PERF_RECORD_MMAP2,
					    .misc = PERF_RECORD_MISC_USER,
					    .pid = pid,
					    .tid = pid,
					    .start = start,
					    .len = len,
					    .prot = 5 /* PROT_READ | PROT_EXEC */,
					    .flags = 2 /* MAP_PRIVATE */,
					    .str = path},
		       time);
}

static inline void fixture_fork(struct pmc__perfdata_writer *w, uint32_t pid, uint32_t ppid,
				uint32_t tid, uint32_t ptid, uint64_t time)
{
	fixture_record(w,
		       (struct pmc__record){.type = PERF_RECORD_FORK,
					    .pid = pid,
					    .ppid = ppid,
					    .tid = tid,
					    .ptid = ptid,
					    .time = time},
		       time);
}

/* The end of a round of records (FINISHED_ROUND). */
static inline void fixture_round(struct pmc__perfdata_writer *w)
{
	struct perf_event_header h = {PERFDATA_RECORD_FINISHED_ROUND, 0, sizeof(h)};

	cr_assert_eq(pmc__perfdata_writer_write(w, &h, sizeof(h)), 0);
}

#endif /* PMC_TESTS_PERFDATA_FIXTURE_H */
