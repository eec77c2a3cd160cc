// SPDX-License-Identifier: MIT
/* perf.data reader and writer: round trips of every sample field, and rejection of bad files. */
#include <glob.h>
#include <errno.h>
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/error.h>
#include "perfdata/perfdata.h"
#include "perfdata-fixture.h"

#define NR_SAMPLES 5

static struct perf_event_attr full_attr(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
			       PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			       PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
			       PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX,
		.sample_regs_user = 0x1ff,
		.sample_regs_intr = 0x3,
		.sample_stack_user = 64,
		.sample_id_all = 1,
		.mmap = 1,
		.comm = 1,
	};
	return a;
}

static uint64_t chain[3] = {0x401000, 0x402000, 0x403000};
static struct perf_branch_entry br[2] = {{.from = 1, .to = 2}, {.from = 3, .to = 4}};
static uint64_t uregs[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
static uint64_t iregs[2] = {10, 11};
static uint8_t stack[64] = {0xaa, 0xbb};
static const char raw[5] = "raw!";

static struct pmc__sample full_sample(int i)
{
	struct pmc__sample s = {
		.misc = PERF_RECORD_MISC_USER,
		.id = 77,
		.ip = 0x401234 + (uint64_t)i,
		.pid = 10,
		.tid = 11,
		.time = 1000 + (uint64_t)i,
		.addr = 0xdead0000,
		.cpu = 1,
		.period = 1000,
		.nr_callchain = 3,
		.callchain = chain,
		.raw_size = 5,
		.raw = raw,
		.nr_branch = 2,
		.branch_hw_idx = 9,
		.branch = br,
		.user_regs_abi = PERF_SAMPLE_REGS_ABI_64,
		.user_regs = uregs,
		.user_stack_size = 64,
		.user_stack = stack,
		.user_stack_dyn_size = 40,
		.weight = 123,
		.data_src = 0x1234,
		.intr_regs_abi = PERF_SAMPLE_REGS_ABI_64,
		.intr_regs = iregs,
		.phys_addr = 0xabc000,
	};
	return s;
}

/* Writes a file with one comm record and NR_SAMPLES full samples; returns its path. */
static char *write_file(void)
{
	static char path[64];
	struct pmc__perfdata_writer *w;
	struct perf_event_attr a = full_attr();
	uint64_t id = 77;
	char *argv[] = {"pmc", "record", "x"};

	snprintf(path, sizeof(path), "/tmp/pmc-test-%d.data", (int)getpid());
	cr_assert_eq(pmc__perfdata_writer_new(path, &w), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(w, &a, "cpu-clock", &id, 1), 0);
	cr_assert_eq(pmc__perfdata_writer_set_cmdline(w, 3, argv), 0);
	cr_assert_eq(pmc__perfdata_writer_begin(w), 0);
	fixture_record(w,
		       (struct pmc__record){.type = PERF_RECORD_COMM,
					    .pid = 10,
					    .tid = 11,
					    .str = "prog",
					    .sid = {.cpu = 1, .id = 77}},
		       5);
	for (int i = 0; i < NR_SAMPLES; i++) {
		struct pmc__sample s = full_sample(i);
		cr_assert_eq(pmc__perfdata_writer_write_sample(w, 0, &s), 0);
	}
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	pmc__perfdata_writer_delete(w);
	return path;
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	void *p = malloc(*len + 1);
	cr_assert_eq(fread(p, 1, *len, f), *len);
	fclose(f);
	return p;
}

Test(perfdata, round_trip_every_field)
{
	char *path = write_file();
	struct pmc__perfdata *f;
	struct pmc__perfdata_event ev;
	struct pmc_file_error err;
	int n = 0, comms = 0;

	cr_assert_eq(pmc__perfdata_open(path, &f, &err), 0, "%s", err.msg);
	cr_assert_eq(pmc__perfdata_nr_attrs(f), 1);
	cr_assert_str_eq(pmc__perfdata_attr_name(f, 0), "cpu-clock");
	cr_assert_eq(pmc__perfdata_attr(f, 0)->sample_regs_user, 0x1ff);
	cr_assert_not(pmc__perfdata_was_interrupted(f));
	while (pmc__perfdata_next(f, &ev, &err) == 1) {
		struct pmc__sample s;
		struct pmc__record rec;
		if (ev.hdr->type == PERF_RECORD_COMM) {
			cr_assert_eq(pmc__perfdata_record(f, &ev, &rec, &err), 0, "%s", err.msg);
			cr_assert_str_eq(rec.str, "prog");
			cr_assert(rec.has_sid);
			cr_assert_eq(rec.sid.tid, 11);
			cr_assert_eq(rec.sid.time, 5);
			cr_assert_eq(rec.sid.cpu, 1);
			cr_assert_eq(rec.sid.id, 77);
			comms++;
			continue;
		}
		cr_assert_eq(ev.hdr->type, PERF_RECORD_SAMPLE);
		cr_assert_eq(pmc__perfdata_sample(f, &ev, &s, &err), 0, "%s", err.msg);
		cr_assert_eq(s.ip, 0x401234 + (uint64_t)n);
		cr_assert_eq(s.pid, 10);
		cr_assert_eq(s.tid, 11);
		cr_assert_eq(s.addr, 0xdead0000);
		cr_assert_eq(s.nr_callchain, 3);
		cr_assert_eq(s.callchain[2], 0x403000);
		cr_assert_eq(s.raw_size, 5);
		cr_assert_str_eq(s.raw, "raw!");
		cr_assert_eq(s.nr_branch, 2);
		cr_assert_eq(s.branch_hw_idx, 9);
		cr_assert_eq(s.branch[1].to, 4);
		cr_assert_eq(s.user_regs[8], 9);
		cr_assert_eq(s.user_stack_size, 64);
		cr_assert_eq(s.user_stack[1], 0xbb);
		cr_assert_eq(s.user_stack_dyn_size, 40);
		cr_assert_eq(s.weight, 123);
		cr_assert_eq(s.data_src, 0x1234);
		cr_assert_eq(s.intr_regs[1], 11);
		cr_assert_eq(s.phys_addr, 0xabc000);
		n++;
	}
	cr_assert_eq(n, NR_SAMPLES);
	cr_assert_eq(comms, 1);
	pmc__perfdata_close(f);
	unlink(path);
}

/* Every prefix of a good file is either rejected cleanly or read without a crash. */
Test(perfdata, every_truncation_is_rejected)
{
	char *path = write_file();
	size_t len;
	uint8_t *buf = slurp(path, &len);

	for (size_t cut = 0; cut < len; cut++) {
		struct pmc__perfdata *f;
		struct pmc__perfdata_event ev;
		struct pmc_file_error err = {0};
		int ret = pmc__perfdata_open_mem(buf, cut, &f, &err);
		if (ret) {
			cr_assert(ret == -PMC_E_TRUNCATED || ret == -PMC_E_FORMAT,
				  "cut %zu: ret %d", cut, ret);
			cr_assert(err.msg[0], "cut %zu: no message", cut);
			cr_assert_leq(err.offset, len);
			continue;
		}
		while ((ret = pmc__perfdata_next(f, &ev, &err)) == 1)
			;
		cr_assert(ret == 0 || ret == -PMC_E_TRUNCATED, "cut %zu: ret %d", cut, ret);
		pmc__perfdata_close(f);
	}
	free(buf);
	unlink(path);
}

struct corrupt_row {
	size_t off;   /* byte to overwrite */
	uint64_t val; /* value written there */
	size_t width;
	int expect;	 /* error of open, or of the first failing next/sample */
	const char *msg; /* substring of the message */
};

static const struct corrupt_row rows[] = {
	{0, 0x1122334455667788ull, 8, -PMC_E_FORMAT, "not a perf.data file"},
	{0, 0x50455246494c4532ull, 8, -PMC_E_FORMAT, "big-endian"},
	{7, '3', 1, -PMC_E_VERSION, "newer"},
	{8, 16, 8, -PMC_E_FORMAT, "pipe-mode"},
	{8, 112, 8, -PMC_E_VERSION, "newer format"},
	{16, 7, 8, -PMC_E_FORMAT, "attr entry size"},
	{24, 1ull << 40, 8, -PMC_E_TRUNCATED, "attrs section"},
	{48, 1ull << 40, 8, -PMC_E_TRUNCATED, "data section"},
	{40, 1ull << 40, 8, -PMC_E_TRUNCATED, "data section"},
	{40, 8, 8, -PMC_E_FORMAT, "overlaps the header"},
};

static size_t data_offset(const uint8_t *buf)
{
	uint64_t off;
	memcpy(&off, buf + 40, 8);
	return off;
}

Test(perfdata, corrupt_header_fields)
{
	char *path = write_file();
	size_t len;
	uint8_t *good = slurp(path, &len);

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint8_t *buf = malloc(len);
		struct pmc__perfdata *f = NULL;
		struct pmc_file_error err = {0};
		memcpy(buf, good, len);
		memcpy(buf + rows[i].off, &rows[i].val, rows[i].width);
		int ret = pmc__perfdata_open_mem(buf, len, &f, &err);
		if (!ret)
			pmc__perfdata_close(f);
		cr_assert_eq(ret, rows[i].expect, "row %zu: %d (%s)", i, ret, err.msg);
		cr_assert(strstr(err.msg, rows[i].msg), "row %zu: '%s'", i, err.msg);
		free(buf);
	}
	free(good);
	unlink(path);
}

/* Records whose sizes lie: the error names the record's offset. */
Test(perfdata, corrupt_record_sizes)
{
	char *path = write_file();
	size_t len;
	uint8_t *buf = slurp(path, &len);
	size_t doff = data_offset(buf);
	struct pmc__perfdata *f;
	struct pmc__perfdata_event ev;
	struct pmc_file_error err = {0};
	uint16_t sz = 4;

	memcpy(buf + doff + 6, &sz, 2);
	cr_assert_eq(pmc__perfdata_open_mem(buf, len, &f, &err), 0);
	cr_assert_eq(pmc__perfdata_next(f, &ev, &err), -PMC_E_FORMAT);
	cr_assert_eq(err.offset, doff);
	cr_assert(strstr(err.msg, "fewer than its 8-byte header"), "%s", err.msg);
	pmc__perfdata_close(f);

	/* A sample shortened by 16 bytes no longer holds its last fields. */
	uint16_t csz, ssz;
	free(buf);
	buf = slurp(path, &len);
	memcpy(&csz, buf + doff + 6, 2);
	size_t s_off = doff + csz;
	memcpy(&ssz, buf + s_off + 6, 2);
	ssz -= 16;
	memcpy(buf + s_off + 6, &ssz, 2);
	cr_assert_eq(pmc__perfdata_open_mem(buf, len, &f, &err), 0);
	cr_assert_eq(pmc__perfdata_next(f, &ev, &err), 1);
	cr_assert_eq(pmc__perfdata_next(f, &ev, &err), 1);
	struct pmc__sample s;
	cr_assert_eq(pmc__perfdata_sample(f, &ev, &s, &err), -PMC_E_FORMAT);
	cr_assert(strstr(err.msg, "ends inside"), "%s", err.msg);
	cr_assert_geq(err.offset, s_off);
	pmc__perfdata_close(f);
	free(buf);
	unlink(path);
}

/* A recording that never finished (data size 0 in the header) is read to the end. */
Test(perfdata, interrupted_file_reads_to_end)
{
	char path[64];
	struct pmc__perfdata_writer *w;
	struct perf_event_attr a = full_attr();
	struct pmc__perfdata *f;
	struct pmc_file_error err;
	struct pmc__perfdata_event ev;
	int n = 0;

	snprintf(path, sizeof(path), "/tmp/pmc-test-int-%d.data", (int)getpid());
	cr_assert_eq(pmc__perfdata_writer_new(path, &w), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(w, &a, "x", NULL, 0), 0);
	cr_assert_eq(pmc__perfdata_writer_begin(w), 0);
	for (int i = 0; i < 3; i++) {
		struct pmc__sample s = full_sample(i);
		cr_assert_eq(pmc__perfdata_writer_write_sample(w, 0, &s), 0);
	}
	/* Simulate a crash: flush the buffer by hand through a huge write, then stop. */
	static uint8_t big[(1u << 20) + 8];
	struct perf_event_header *h = (void *)big;
	(void)h;
	char tmp[96], pattern[96];
	glob_t g;

	/* The writer's temporary file sits beside the target as NAME.pmc-tmp-XXXXXX. */
	snprintf(pattern, sizeof(pattern), "%s.pmc-tmp-??????", path);
	cr_assert_eq(glob(pattern, 0, NULL, &g), 0, "no temporary file beside %s", path);
	cr_assert_eq(g.gl_pathc, 1);
	snprintf(tmp, sizeof(tmp), "%s", g.gl_pathv[0]);
	globfree(&g);
	struct pmc__sample s = full_sample(9);
	uint64_t rec[8192];
	int len = pmc__sample_encode(&a, &s, rec, sizeof(rec));
	cr_assert_gt(len, 0);
	for (int i = 0; i < 10000; i++)
		cr_assert_eq(pmc__perfdata_writer_write(w, rec, (size_t)len), 0);
	cr_assert_eq(pmc__perfdata_open(tmp, &f, &err), 0, "%s", err.msg);
	cr_assert(pmc__perfdata_was_interrupted(f));
	while (pmc__perfdata_next(f, &ev, &err) == 1)
		n++;
	cr_assert_gt(n, 3);
	pmc__perfdata_close(f);
	pmc__perfdata_writer_delete(w);
	cr_assert_neq(access(tmp, F_OK), 0);
}

/*
 * The one sample encoder (both backends write through it): for every capacity short of the
 * record it refuses with -ENOSPC and writes nothing past the capacity; a record that would
 * exceed the 16-bit header size is refused; a field announced without its data is -EINVAL.
 */
Test(perfdata, encoder_bounds)
{
	struct perf_event_attr a = full_attr();
	struct pmc__sample s = full_sample(0);
	static uint64_t big_chain[9000];
	uint8_t buf[4096];
	int len = pmc__sample_encode(&a, &s, buf, sizeof(buf));

	cr_assert_gt(len, 0);
	for (int cap = 0; cap < len; cap++) {
		memset(buf, 0x5a, sizeof(buf));
		cr_expect_eq(pmc__sample_encode(&a, &s, buf, (size_t)cap), -ENOSPC, "capacity %d",
			     cap);
		for (size_t i = (size_t)cap; i < sizeof(buf); i++)
			cr_assert_eq(buf[i], 0x5a, "capacity %d: byte %zu written", cap, i);
	}
	s.callchain = big_chain;
	s.nr_callchain = 9000; /* 72 KB: past the header's 16-bit size */
	cr_expect_eq(pmc__sample_encode(&a, &s, buf, sizeof(buf)), -ENOSPC);
	s = full_sample(0);
	s.callchain = NULL;
	cr_expect_eq(pmc__sample_encode(&a, &s, buf, sizeof(buf)), -EINVAL,
		     "callchain without data");
	s = full_sample(0);
	s.branch = NULL;
	cr_expect_eq(pmc__sample_encode(&a, &s, buf, sizeof(buf)), -EINVAL,
		     "branches without data");
	s = full_sample(0);
	s.user_regs = NULL;
	cr_expect_eq(pmc__sample_encode(&a, &s, buf, sizeof(buf)), -EINVAL,
		     "registers without data");
	a.sample_type |= PERF_SAMPLE_READ;
	cr_expect_eq(pmc__sample_encode(&a, &s, buf, sizeof(buf)), -EINVAL, "an unknown field");
}

/* Each sample_type bit alone: encoded, then decoded to the same fields. */
Test(perfdata, encoder_round_trip_per_field)
{
	const struct pmc__sample s = full_sample(3);
	struct pmc_file_error err;
	uint64_t bits = PMC_SAMPLE_KNOWN & ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT;

	while (bits) {
		uint64_t bit = bits & -bits;
		struct perf_event_attr a = full_attr();
		struct pmc__sample d;
		uint8_t buf[4096];
		int len;

		bits &= bits - 1;
		a.sample_type = bit;
		len = pmc__sample_encode(&a, &s, buf, sizeof(buf));
		cr_assert_gt(len, 0, "bit 0x%llx", (unsigned long long)bit);
		cr_assert_eq(pmc__sample_decode(&a, buf, (size_t)len, &d, &err), 0,
			     "bit 0x%llx: %s", (unsigned long long)bit, err.msg);
		cr_expect_eq(d.ip, bit == PERF_SAMPLE_IP ? s.ip : 0);
		cr_expect_eq(d.time, bit == PERF_SAMPLE_TIME ? s.time : 0);
		if (bit == PERF_SAMPLE_PERIOD) /* without it the attr's fixed period is implied */
			cr_expect_eq(d.period, s.period);
		cr_expect_eq(d.nr_callchain, bit == PERF_SAMPLE_CALLCHAIN ? s.nr_callchain : 0);
		cr_expect_eq(d.nr_branch, bit == PERF_SAMPLE_BRANCH_STACK ? s.nr_branch : 0);
		cr_expect_eq(d.weight, bit == PERF_SAMPLE_WEIGHT ? s.weight : 0);
		cr_expect_eq(d.data_src, bit == PERF_SAMPLE_DATA_SRC ? s.data_src : 0);
		cr_expect_eq(d.phys_addr, bit == PERF_SAMPLE_PHYS_ADDR ? s.phys_addr : 0);
		cr_expect_eq(d.raw_size, bit == PERF_SAMPLE_RAW ? s.raw_size : 0);
		cr_expect_eq(d.user_stack_size,
			     bit == PERF_SAMPLE_STACK_USER ? s.user_stack_size : 0);
		if (bit == PERF_SAMPLE_REGS_USER)
			cr_expect_eq(d.user_regs[8], uregs[8]);
		if (bit == PERF_SAMPLE_REGS_INTR)
			cr_expect_eq(d.intr_regs[1], iregs[1]);
		if (bit == PERF_SAMPLE_TID)
			cr_expect(d.pid == s.pid && d.tid == s.tid);
	}
}
