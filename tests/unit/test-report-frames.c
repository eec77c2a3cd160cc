// SPDX-License-Identifier: MIT
/* pmc report's per-process frame cache: an address resolves anew when its process's maps change. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pmc/report.h>
#include "perfdata/perfdata.h"
#include "symbol/symbol.h"
#include "elf-fixture.h"
#include "perfdata-fixture.h"

#define PROG PMC_PROGS_DIR "/sample-split"
#define BASE 0x10000000ull
#define PID 42

static uint64_t hot_ip;

/* The address hot() has in a process that maps PROG at BASE with offset 0. */
static void find_hot(void)
{
	hot_ip = BASE + fixture_symbol_offset(PROG, "hot") + 2;
}

static struct pmc__perfdata_writer *w;
static char path[64];

static void begin(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN,
		.sample_id_all = 1,
		.mmap = 1,
		.comm = 1,
		.task = 1,
	};

	find_hot();
	snprintf(path, sizeof(path), "/tmp/pmc-frames-%d.data", (int)getpid());
	cr_assert_eq(pmc__perfdata_writer_new(path, &w), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(w, &a, "cpu-clock", NULL, 0), 0);
	cr_assert_eq(pmc__perfdata_writer_begin(w), 0);
}

/* An MMAP2 of name over [BASE, BASE + 16 MiB) at time, with its sample_id trailer. */
static void mmap_rec(const char *name, uint64_t time)
{
	fixture_mmap2(w, PID, BASE, 1 << 24, name, time);
}

/* A user sample in hot() whose chain repeats the ip, as a frame-pointer chain's leaf does. */
static void sample(uint64_t time)
{
	uint64_t chain[] = {PERF_CONTEXT_USER, hot_ip};
	struct pmc__sample s = {.misc = PERF_RECORD_MISC_USER,
				.ip = hot_ip,
				.pid = PID,
				.tid = PID,
				.time = time,
				.period = 1000,
				.nr_callchain = 2,
				.callchain = chain};

	cr_assert_eq(pmc__perfdata_writer_write_sample(w, 0, &s), 0);
}

static void round_rec(void)
{
	fixture_round(w);
}

/* The samples of the entry whose key is key, or 0. */
static uint64_t samples_of(struct pmc_report *r, const char *key)
{
	struct pmc_report_entry e;

	for (size_t i = 0; pmc_report__entry(r, i, &e) == 0; i++)
		if (!strcmp(e.key, key))
			return e.samples;
	return 0;
}

static struct pmc_report *load(void)
{
	struct pmc_report_opts o = {.sz = sizeof(o), .sort = "dso,symbol"};
	struct pmc_report *r;
	struct pmc_file_error err;

	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	pmc__perfdata_writer_delete(w);
	cr_assert_eq(pmc_report__new(&o, &r), 0);
	cr_assert_eq(pmc_report__load(r, path, &err), 0, "%s", err.msg);
	unlink(path);
	return r;
}

/*
 * The program's code is replaced by an anonymous map mid-file, then mapped again: the same
 * address names hot() before, something in the anonymous map between, hot() after. A
 * cache that outlived the change would put every sample under hot().
 */
Test(report_frames, anonymous_map_change_mid_file)
{
	struct pmc_report *r;

	begin();
	mmap_rec(PROG, 100);
	sample(200);
	sample(210);
	round_rec();
	mmap_rec("//anon", 300);
	sample(400);
	sample(410);
	round_rec();
	mmap_rec(PROG, 500);
	sample(600);
	round_rec();
	r = load();
	cr_assert_eq(pmc_report__nr_entries(r), 2);
	cr_assert_eq(samples_of(r, "sample-split  [.] hot"), 3);
	cr_assert_eq(pmc_report__nr_samples(r), 5);
	pmc_report__delete(r);
}

/*
 * A sample replayed late (older than the map change already replayed) resolves as of its
 * own time: the cached answer for the same address holds only for the times it was
 * computed for.
 */
Test(report_frames, late_sample_resolves_at_its_time)
{
	struct pmc_report *r;

	begin();
	mmap_rec(PROG, 100);
	sample(200);
	mmap_rec("//anon", 300);
	sample(400);
	round_rec();
	round_rec();
	sample(250); /* older than everything replayed: the program's map still held then */
	sample(410);
	round_rec();
	r = load();
	cr_assert_eq(samples_of(r, "sample-split  [.] hot"), 2);
	cr_assert_eq(pmc_report__nr_entries(r), 2);
	pmc_report__delete(r);
}

/* A user sample in hot() whose frame-pointer chain goes on with callers (leaf first). */
static void sample_chain(uint64_t ip, const uint64_t *callers, size_t nr, uint64_t time)
{
	uint64_t chain[16] = {PERF_CONTEXT_USER, ip};
	struct pmc__sample s = {.misc = PERF_RECORD_MISC_USER,
				.ip = ip,
				.pid = PID,
				.tid = PID,
				.time = time,
				.period = 1000,
				.nr_callchain = 2 + nr,
				.callchain = chain};

	cr_assert_leq(nr, 14);
	memcpy(chain + 2, callers, nr * sizeof(*callers));
	cr_assert_eq(pmc__perfdata_writer_write_sample(w, 0, &s), 0);
}

/* The report's folded stacks (comm;outermost;...;leaf count), and its number of samples. */
static char *folded(bool hide_unresolved, uint64_t *nr_samples)
{
	struct pmc_report_opts o = {
		.sz = sizeof(o), .folded = true, .hide_unresolved = hide_unresolved};
	struct pmc_report *r;
	struct pmc_file_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert_not_null(out);
	cr_assert_eq(pmc_report__new(&o, &r), 0);
	cr_assert_eq(pmc_report__load(r, path, &err), 0, "%s", err.msg);
	cr_assert_eq(pmc_report__write(r, PMC_REPORT_FOLDED, out), 0);
	*nr_samples = 0;
	for (size_t i = 0; i < pmc_report__nr_entries(r); i++) {
		struct pmc_report_entry e;
		cr_assert_eq(pmc_report__entry(r, i, &e), 0);
		*nr_samples += e.samples;
	}
	pmc_report__delete(r);
	fclose(out);
	return text;
}

static void write_broken_chains(void)
{
	uint64_t main_ret = BASE + fixture_symbol_offset(PROG, "main") + 5;
	/* Code bytes read as a return address (push %rbp; mov %rsp,%rbp; ...), then a
	 * mapped address that must not be reached. */
	uint64_t bytes[] = {main_ret, 0x8348e5894854ffffull, main_ret};
	/* Three callers outside every map, then main. */
	uint64_t unmapped[] = {0x1000, 0x2000, 0x3000, main_ret};

	begin();
	mmap_rec(PROG, 100);
	sample_chain(hot_ip, bytes, 3, 200);
	sample_chain(hot_ip, unmapped, 4, 210);
	sample_chain(0x5000, unmapped + 3, 1, 220); /* the sampled address itself unmapped */
	round_rec();
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	pmc__perfdata_writer_delete(w);
}

/*
 * A chain ends at its first non-canonical address; a run of callers outside every map is
 * one "[unknown]"; the sampled address keeps its own (unmapped) name.
 */
Test(report_frames, broken_frame_pointer_chains)
{
	uint64_t nr;
	char *text;

	write_broken_chains();
	text = folded(false, &nr);
	unlink(path);
	cr_expect_eq(nr, 3);
	cr_expect(strstr(text, ";main;hot 1\n"), "the chain stops at 0x8348e5894854ffff:\n%s",
		  text);
	cr_expect(strstr(text, ";main;[unknown];hot 1\n"), "one [unknown] for three:\n%s", text);
	cr_expect(strstr(text, ";main;0x0000000000005000 1\n"), "unmapped leaf:\n%s", text);
	cr_expect(!strstr(text, "0x8348e5894854ffff") && !strstr(text, "[unknown];[unknown]"), "%s",
		  text);
	free(text);
}

/* perf report --hide-unresolved: no unnamed caller, and no sample whose address is unnamed. */
Test(report_frames, hide_unresolved)
{
	uint64_t nr;
	char *text;

	write_broken_chains();
	text = folded(true, &nr);
	unlink(path);
	cr_expect_eq(nr, 2);
	cr_expect(strstr(text, ";main;hot 2\n"), "%s", text);
	cr_expect(!strstr(text, "unknown") && !strstr(text, "0x"), "%s", text);
	free(text);
}
