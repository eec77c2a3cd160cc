// SPDX-License-Identifier: MIT
/*
 * perf record -z files: compressed records (one zstd stream flushed per record, as perf
 * writes them) read as the records they hold; bad payloads and decompression bombs refused.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include <pmc/error.h>
#include "perfdata/perfdata.h"

#define NR_SAMPLES 100

static struct perf_event_attr attr = {
	.type = PERF_TYPE_SOFTWARE,
	.size = sizeof(struct perf_event_attr),
	.config = PERF_COUNT_SW_CPU_CLOCK,
	.sample_period = 1000,
	.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD,
};

static char path[64];
static struct pmc__perfdata_writer *w;
static ZSTD_CStream *cs;

static void setup(void)
{
	snprintf(path, sizeof(path), "/tmp/pmc-zstd-%d.data", (int)getpid());
	cr_assert_eq(pmc__perfdata_writer_new(path, &w), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(w, &attr, "cpu-clock", NULL, 0), 0);
	cr_assert_eq(pmc__perfdata_writer_begin(w), 0);
	cs = ZSTD_createCStream();
	cr_assert(cs && !ZSTD_isError(ZSTD_initCStream(cs, 1)));
}

static void teardown(void)
{
	pmc__perfdata_writer_delete(w);
	ZSTD_freeCStream(cs);
	unlink(path);
}

TestSuite(zstd, .init = setup, .fini = teardown);

/* Appends a COMPRESSED record (type 81) holding len bytes of src, flushed as perf does. */
static void write_compressed(const void *src, size_t len)
{
	static uint8_t rec[1 << 16];
	ZSTD_inBuffer in = {src, len, 0};
	ZSTD_outBuffer out = {rec + 8, sizeof(rec) - 8, 0};
	struct perf_event_header h = {81, 0, 0};

	cr_assert(!ZSTD_isError(ZSTD_compressStream(cs, &out, &in)));
	cr_assert(!ZSTD_isError(ZSTD_flushStream(cs, &out)));
	cr_assert_eq(in.pos, len);
	h.size = (uint16_t)(8 + out.pos);
	memcpy(rec, &h, 8);
	cr_assert_eq(pmc__perfdata_writer_write(w, rec, h.size), 0);
}

/* The sample record of ip i (header and body), written into buf; its size. */
static size_t sample_rec(uint64_t i, uint8_t *buf)
{
	struct pmc__sample s = {.sample_type = attr.sample_type,
				.ip = 0x400000 + i,
				.pid = 7,
				.tid = 7,
				.period = 1000};
	int n = pmc__sample_encode(&attr, &s, buf, 256);

	cr_assert_gt(n, 0);
	return (size_t)n;
}

static int read_all(uint64_t *ips, size_t *nr, struct pmc_file_error *err)
{
	struct pmc__perfdata *f;
	struct pmc__perfdata_event ev;
	struct pmc__sample s;
	int ret = pmc__perfdata_open(path, &f, err);

	*nr = 0;
	if (ret)
		return ret;
	while ((ret = pmc__perfdata_next(f, &ev, err)) == 1)
		if (ev.hdr->type == PERF_RECORD_SAMPLE) {
			cr_assert_eq(pmc__perfdata_sample(f, &ev, &s, err), 0);
			ips[(*nr)++] = s.ip;
		}
	pmc__perfdata_close(f);
	return ret;
}

/*
 * Samples 0-29 plain, 30-99 in three compressed records whose middle one splits a sample
 * between records (perf's stream is one, so a record may end inside another), 99 plain.
 */
Test(zstd, compressed_records_read_in_order)
{
	static uint8_t buf[NR_SAMPLES * 256];
	size_t len = 0, cut, nr;
	uint64_t ips[NR_SAMPLES + 1];
	struct pmc_file_error err = {0};

	for (uint64_t i = 0; i < 30; i++) {
		len = sample_rec(i, buf);
		cr_assert_eq(pmc__perfdata_writer_write(w, buf, len), 0);
	}
	len = 0;
	for (uint64_t i = 30; i < NR_SAMPLES - 1; i++)
		len += sample_rec(i, buf + len);
	cut = len / 3 + 5;
	write_compressed(buf, cut);
	write_compressed(buf + cut, len / 3);
	write_compressed(buf + cut + len / 3, len - cut - len / 3);
	len = sample_rec(NR_SAMPLES - 1, buf);
	cr_assert_eq(pmc__perfdata_writer_write(w, buf, len), 0);
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);

	int ret = read_all(ips, &nr, &err);

	cr_assert_eq(ret, 0, "%d at %llu: %s", ret, (unsigned long long)err.offset, err.msg);
	cr_assert_eq(nr, NR_SAMPLES);
	for (size_t i = 0; i < nr; i++)
		cr_expect_eq(ips[i], 0x400000 + i, "sample %zu", i);
}

Test(zstd, garbage_payload_is_refused)
{
	static const uint8_t rec[24] = {81, 0, 0, 0, 0, 0, 24, 0, 'n', 'o', 't', ' ', 'z', 's'};
	uint64_t ips[1];
	size_t nr;
	struct pmc_file_error err = {0};

	cr_assert_eq(pmc__perfdata_writer_write(w, rec, sizeof(rec)), 0);
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	cr_assert_eq(read_all(ips, &nr, &err), -PMC_E_FORMAT);
	cr_expect(strstr(err.msg, "does not inflate: zstd says"), "%s", err.msg);
}

/* perf 6.8's COMPRESSED2 (type 83) declaring more data than the record holds. */
Test(zstd, compressed2_size_checked)
{
	static uint8_t rec[32] = {83, 0, 0, 0, 0, 0, 32, 0, 25};
	uint64_t ips[1];
	size_t nr;
	struct pmc_file_error err = {0};

	cr_assert_eq(pmc__perfdata_writer_write(w, rec, sizeof(rec)), 0);
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	cr_assert_eq(read_all(ips, &nr, &err), -PMC_E_FORMAT);
	cr_expect(strstr(err.msg, "declares 25 bytes of data"), "%s", err.msg);
}

/* 80 MiB of zeros in a few kilobytes: past 256 times their size plus 64 MiB, refused. */
Test(zstd, decompression_bomb_is_refused)
{
	static uint8_t zeros[1 << 20];
	uint64_t ips[1];
	size_t nr;
	struct pmc_file_error err = {0};

	for (int i = 0; i < 80; i++)
		write_compressed(zeros, sizeof(zeros));
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	cr_assert_eq(read_all(ips, &nr, &err), -PMC_E_FORMAT);
	cr_expect(strstr(err.msg, "decompression bomb"), "%s", err.msg);
}

/*
 * The records are inflated into a window as they are read: a record the reader holds
 * (pmc__perfdata_keep) is still there, whole, after 960 KB more were read past it.
 */
Test(zstd, held_record_is_kept_while_reading_on)
{
	static uint8_t buf[1000 * 256];
	struct pmc__perfdata *f;
	struct pmc__perfdata_event ev;
	struct pmc__sample s;
	struct pmc_file_error err = {0};
	uint64_t held = 0, nr = 0;
	int ret;

	for (uint64_t i = 0; i < 30; i++) {
		size_t len = 0;
		for (uint64_t j = 0; j < 1000; j++)
			len += sample_rec(i * 1000 + j, buf + len);
		write_compressed(buf, len);
	}
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	cr_assert_eq(pmc__perfdata_open(path, &f, &err), 0, "%s", err.msg);
	while ((ret = pmc__perfdata_next(f, &ev, &err)) == 1) {
		cr_assert_eq(pmc__perfdata_sample(f, &ev, &s, &err), 0);
		cr_assert_eq(s.ip, 0x400000 + nr);
		if (nr++ == 10) {
			held = ev.offset;
			pmc__perfdata_keep(f, held);
		}
	}
	cr_assert_eq(ret, 0, "%s", err.msg);
	cr_assert_eq(nr, 30000);
	pmc__perfdata_event_at(f, held, 0, &ev);
	cr_assert_eq(pmc__perfdata_sample(f, &ev, &s, &err), 0);
	cr_expect_eq(s.ip, 0x400000 + 10);
	pmc__perfdata_close(f);
}
