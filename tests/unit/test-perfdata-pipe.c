// SPDX-License-Identifier: MIT
/*
 * Pipe-mode perf.data (lib/perfdata/pipe.c): the writer's stream to a FIFO read back with
 * its events, names and samples; perf's layout (misaligned records, TRACING_DATA's trailing
 * bytes) read past; and every cut of a stream either read or refused with an offset.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/error.h>
#include "perfdata/perfdata.h"
#include "perfdata/reader.h"

#define NR 5
#define TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD)

static struct perf_event_attr attr(void)
{
	struct perf_event_attr a = {.type = PERF_TYPE_SOFTWARE, .size = sizeof(a)};

	a.sample_type = TYPE;
	a.sample_period = 1;
	return a;
}

/* The writer's stream through a FIFO whose read end is open (so nothing blocks). */
static uint8_t *write_stream(size_t *len)
{
	static uint8_t buf[1 << 16];
	char path[64];
	struct pmc__perfdata_writer *w;
	struct perf_event_attr a = attr();
	uint64_t ids[2] = {41, 42};
	ssize_t n;
	int rd;

	snprintf(path, sizeof(path), "/tmp/pmc-pipe-test-%d", (int)getpid());
	unlink(path);
	cr_assert_eq(mkfifo(path, 0600), 0);
	rd = open(path, O_RDONLY | O_NONBLOCK);
	cr_assert_geq(rd, 0);
	cr_assert_eq(pmc__perfdata_writer_new(path, &w), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(w, &a, "task-clock", &ids[0], 1), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(w, &a, "page-faults", &ids[1], 1), 0);
	cr_assert_eq(pmc__perfdata_writer_begin(w), 0);
	for (int i = 0; i < NR; i++) {
		struct pmc__sample s = {.sample_type = TYPE,
					.id = ids[i % 2],
					.ip = 0x1000 + i,
					.pid = 7,
					.tid = 8,
					.period = 1};
		cr_assert_eq(pmc__perfdata_writer_write_sample(w, i % 2, &s), 0);
	}
	cr_assert_eq(pmc__perfdata_writer_round(w, true), 0);
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	pmc__perfdata_writer_delete(w);
	n = read(rd, buf, sizeof(buf));
	cr_assert_gt(n, 16);
	close(rd);
	unlink(path);
	*len = (size_t)n;
	return buf;
}

Test(perfdata_pipe, writer_stream_reads_back)
{
	size_t len;
	uint8_t *buf = write_stream(&len);
	struct pmc__perfdata *f;
	struct pmc__perfdata_event ev;
	struct pmc__sample s;
	struct pmc_file_error err = {0};
	uint64_t size;
	int ret, nr = 0;

	memcpy(&size, buf + 8, 8);
	cr_assert_eq(size, 16, "a pipe header");
	cr_assert_eq(pmc__perfdata_open_mem(buf, len, &f, &err), 0, "%s", err.msg);
	cr_assert_eq(pmc__perfdata_nr_attrs(f), 2);
	cr_assert_str_eq(pmc__perfdata_attr_name(f, 1), "page-faults");
	cr_assert_eq(strncmp(f->feat_str[PERFDATA_FEAT_VERSION], "pmc ", 4), 0);
	while ((ret = pmc__perfdata_next(f, &ev, &err)) == 1) {
		if (ev.hdr->type != PERF_RECORD_SAMPLE)
			continue;
		cr_assert_eq(pmc__perfdata_sample(f, &ev, &s, &err), 0);
		cr_assert_eq(ev.attr_idx, (size_t)(nr % 2));
		cr_assert_eq(s.ip, 0x1000u + (unsigned)nr);
		nr++;
	}
	cr_assert_eq(ret, 0, "%s", err.msg);
	cr_assert_eq(nr, NR);
	pmc__perfdata_close(f);
}

/* perf's layout: a misaligned feature record, TRACING_DATA and its bytes, then a sample. */
static size_t perf_like(uint8_t *b)
{
	struct perf_event_attr a = attr();
	struct perf_event_header h;
	uint64_t u, id = 9;
	uint32_t tsize = 24;
	size_t n = 0;

#define PUT(p, l) (memcpy(b + n, (p), (l)), n += (l))
	u = PERFDATA_MAGIC2, PUT(&u, 8);
	u = 16, PUT(&u, 8);
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	h = (struct perf_event_header){PERFDATA_RECORD_HEADER_ATTR, 0, 8 + sizeof(a) + 8};
	PUT(&h, 8), PUT(&a, sizeof(a)), PUT(&id, 8);
	/* HOSTNAME: u64 feature, u32 length 8, 8 bytes: 28 bytes, not a multiple of 8 */
	h = (struct perf_event_header){PERFDATA_RECORD_HEADER_FEATURE, 0, 28};
	u = PERFDATA_FEAT_HOSTNAME, PUT(&h, 8), PUT(&u, 8);
	u = 8, PUT(&u, 4), PUT("box\0\0\0\0", 8);
	h = (struct perf_event_header){PERFDATA_RECORD_HEADER_TRACING_DATA, 0, 16};
	PUT(&h, 8), PUT(&tsize, 4), PUT("\0\0\0", 4);
	memset(b + n, 0xff, tsize), n += tsize; /* would be a record of size 0xffff */
	h = (struct perf_event_header){PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 24};
	u = 0x4242, PUT(&h, 8), PUT(&u, 8);
	u = 1, PUT(&u, 8);
#undef PUT
	return n;
}

Test(perfdata_pipe, perf_layout_and_every_cut)
{
	static uint8_t buf[4096];
	size_t len = perf_like(buf), nr = 0;
	struct pmc__perfdata *f;
	struct pmc__perfdata_event ev;
	struct pmc__sample s;
	struct pmc_file_error err = {0};
	int ret;

	cr_assert_eq(pmc__perfdata_open_mem(buf, len, &f, &err), 0, "%s", err.msg);
	cr_assert_str_eq(f->feat_str[PERFDATA_FEAT_HOSTNAME], "box");
	while ((ret = pmc__perfdata_next(f, &ev, &err)) == 1)
		if (ev.hdr->type == PERF_RECORD_SAMPLE) {
			cr_assert_eq(pmc__perfdata_sample(f, &ev, &s, &err), 0);
			cr_assert_eq(s.ip, 0x4242);
			nr++;
		}
	cr_assert_eq(ret, 0, "%s", err.msg);
	cr_assert_eq(nr, 1);
	pmc__perfdata_close(f);
	for (size_t cut = 0; cut < len; cut++) {
		ret = pmc__perfdata_open_mem(buf, cut, &f, &err);
		if (!ret) {
			while ((ret = pmc__perfdata_next(f, &ev, &err)) == 1)
				;
			pmc__perfdata_close(f);
		}
		cr_assert(ret == 0 || ret == -PMC_E_TRUNCATED || ret == -PMC_E_FORMAT,
			  "cut %zu: %d", cut, ret);
		cr_assert(ret == 0 || (err.msg[0] && err.offset <= len), "cut %zu", cut);
	}
}
