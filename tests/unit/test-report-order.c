// SPDX-License-Identifier: MIT
/* pmc report replays records in time order: samples written before their MMAP, FORK and COMM. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include <pmc/report.h>
#include "perfdata/perfdata.h"
#include "symbol/symbol.h"
#include "elf-fixture.h"
#include "perfdata-fixture.h"

#define PROG PMC_PROGS_DIR "/sample-split"
#define BASE 0x10000000ull
#define NO_TIME UINT64_MAX

static uint64_t hot_ip;

/* The address hot() has in a process that maps PROG at BASE with offset 0. */
static void find_hot(void)
{
	hot_ip = BASE + fixture_symbol_offset(PROG, "hot") + 2;
}

struct file {
	struct pmc__perfdata_writer *w;
	bool id_all; /* side-band records carry a sample_id trailer with their time */
	char path[64];
};

static void begin(struct file *f, bool id_all)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000,
		.sample_type =
			PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
		.sample_id_all = id_all,
		.mmap = 1,
		.comm = 1,
		.task = 1,
	};

	f->id_all = id_all;
	snprintf(f->path, sizeof(f->path), "/tmp/pmc-order-%d.data", (int)getpid());
	cr_assert_eq(pmc__perfdata_writer_new(f->path, &f->w), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(f->w, &a, "cpu-clock", NULL, 0), 0);
	cr_assert_eq(pmc__perfdata_writer_begin(f->w), 0);
}

static void mmap_rec(struct file *f, uint32_t pid, uint64_t time)
{
	fixture_mmap2(f->w, pid, BASE, 1 << 24, PROG, time);
}

static void comm_rec(struct file *f, uint32_t pid, uint32_t tid, const char *name, uint64_t time)
{
	fixture_comm(f->w, pid, tid, name, time);
}

static void fork_rec(struct file *f, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
		     uint64_t time)
{
	fixture_fork(f->w, pid, ppid, tid, ptid, time);
}

static void sample(struct file *f, uint32_t pid, uint32_t tid, uint64_t time)
{
	struct pmc__sample s = {.misc = PERF_RECORD_MISC_USER,
				.ip = hot_ip,
				.pid = pid,
				.tid = tid,
				.time = time,
				.period = 1000};

	cr_assert_eq(pmc__perfdata_writer_write_sample(f->w, 0, &s), 0);
}

static void round_rec(struct file *f)
{
	fixture_round(f->w);
}

/* Finishes the file, reports it by comm and symbol, and checks its only entry. */
static void expect_one(struct file *f, const char *key, uint64_t samples)
{
	struct pmc_report_opts o = {.sz = sizeof(o), .sort = "comm,symbol"};
	struct pmc_report *r;
	struct pmc_file_error err;
	struct pmc_report_entry e;

	cr_assert_eq(pmc__perfdata_writer_finish(f->w), 0);
	pmc__perfdata_writer_delete(f->w);
	cr_assert_eq(pmc_report__new(&o, &r), 0);
	cr_assert_eq(pmc_report__load(r, f->path, &err), 0, "%s", err.msg);
	cr_assert_eq(pmc_report__entry(r, 0, &e), 0);
	cr_assert_str_eq(e.key, key);
	cr_assert_eq(e.samples, samples);
	cr_assert_eq(pmc_report__nr_entries(r), 1, "a second entry: samples resolved apart");
	pmc_report__delete(r);
	unlink(f->path);
}

/*
 * The multi-CPU pattern: the thread's samples sit in a buffer drained before the one that
 * holds its process's MMAP, the FORK of the thread and the thread's COMM.
 */
static void thread_born_late_in_file(struct file *f)
{
	sample(f, 42, 43, 300);
	sample(f, 42, 43, 310);
	mmap_rec(f, 42, 100);
	comm_rec(f, 42, 42, "prog", 110);
	fork_rec(f, 42, 42, 43, 42, 200);
	comm_rec(f, 42, 43, "worker", 250);
}

Test(report_order, samples_before_side_band_within_rounds)
{
	struct file f;

	find_hot();
	begin(&f, true);
	thread_born_late_in_file(&f);
	round_rec(&f);
	/* A rename written before an older sample applies after it. */
	comm_rec(&f, 42, 43, "renamed", 600);
	sample(&f, 42, 43, 500);
	round_rec(&f);
	expect_one(&f, "worker  [.] hot", 3);
}

Test(report_order, file_without_rounds_is_sorted_whole)
{
	struct file f;

	find_hot();
	begin(&f, true);
	thread_born_late_in_file(&f);
	expect_one(&f, "worker  [.] hot", 2);
}

/* A later COMM renames the thread for later samples only. */
Test(report_order, comm_applies_from_its_time)
{
	struct file f;
	struct pmc_report_opts o = {.sz = sizeof(o), .sort = "comm"};
	struct pmc_report *r;
	struct pmc_file_error err;
	struct pmc_report_entry e;

	find_hot();
	begin(&f, true);
	comm_rec(&f, 42, 42, "late", 700); /* in the file first, in time last */
	sample(&f, 42, 42, 600);
	mmap_rec(&f, 42, 100);
	comm_rec(&f, 42, 42, "early", 110);
	sample(&f, 42, 42, 800);
	round_rec(&f);
	cr_assert_eq(pmc__perfdata_writer_finish(f.w), 0);
	pmc__perfdata_writer_delete(f.w);
	cr_assert_eq(pmc_report__new(&o, &r), 0);
	cr_assert_eq(pmc_report__load(r, f.path, &err), 0, "%s", err.msg);
	cr_assert_eq(pmc_report__nr_entries(r), 2);
	int seen = 0;
	for (size_t i = 0; i < 2; i++) {
		cr_assert_eq(pmc_report__entry(r, i, &e), 0);
		seen |= (strcmp(e.key, "early") ? 0 : 1) | (strcmp(e.key, "late") ? 0 : 2);
		cr_assert_eq(e.samples, 1);
	}
	cr_assert_eq(seen, 3, "expected one sample under each name");
	pmc_report__delete(r);
	unlink(f.path);
}

/* Side-band without sample_id_all has no time: it keeps its place among its neighbours. */
Test(report_order, records_without_time_keep_file_order)
{
	struct file f;

	find_hot();
	begin(&f, false);
	sample(&f, 42, 42, 300);
	mmap_rec(&f, 42, NO_TIME);
	comm_rec(&f, 42, 42, "prog", NO_TIME);
	sample(&f, 42, 42, 400);
	sample(&f, 42, 42, 500);
	round_rec(&f);
	/* The first sample precedes its map in time too: it stays unresolved, as in the file. */
	struct pmc_report_opts o = {.sz = sizeof(o), .sort = "comm,symbol"};
	struct pmc_report *r;
	struct pmc_file_error err;
	struct pmc_report_entry e;
	cr_assert_eq(pmc__perfdata_writer_finish(f.w), 0);
	pmc__perfdata_writer_delete(f.w);
	cr_assert_eq(pmc_report__new(&o, &r), 0);
	cr_assert_eq(pmc_report__load(r, f.path, &err), 0, "%s", err.msg);
	cr_assert_eq(pmc_report__nr_entries(r), 2);
	cr_assert_eq(pmc_report__entry(r, 0, &e), 0);
	cr_assert_str_eq(e.key, "prog  [.] hot");
	cr_assert_eq(e.samples, 2);
	pmc_report__delete(r);
	unlink(f.path);
}

/*
 * A side-band record too short for its fields (a damaged or fuzzed file) is refused with the
 * field it ends in and its offset, where it was skipped without a word before.
 */
Test(report_order, short_side_band_record_is_an_error)
{
	struct file f;
	struct pmc_report *r;
	struct pmc_file_error err = {0};
	/* An MMAP2 cut inside its inode: header, pid/tid, start, len, pgoff, maj/min, then a
	 * trailer (pid/tid, time) that the reader takes from its last 16 bytes. */
	uint64_t rec[8] = {0, 42, 0x10000000, 1 << 24, 0, 0, 42, 100};
	struct perf_event_header h = {PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, sizeof(rec)};

	find_hot();
	begin(&f, true);
	sample(&f, 42, 42, 200);
	memcpy(rec, &h, sizeof(h));
	cr_assert_eq(pmc__perfdata_writer_write(f.w, rec, sizeof(rec)), 0);
	cr_assert_eq(pmc__perfdata_writer_finish(f.w), 0);
	pmc__perfdata_writer_delete(f.w);
	cr_assert_eq(pmc_report__new(NULL, &r), 0);
	cr_assert_eq(pmc_report__load(r, f.path, &err), -PMC_E_FORMAT);
	cr_assert(strstr(err.msg, "MMAP2 record of 64 bytes ends inside its ino"), "%s", err.msg);
	cr_assert_gt(err.offset, 0);
	pmc_report__delete(r);
	unlink(f.path);
}
