// SPDX-License-Identifier: MIT
/* pmc_report__skid(): a precise and an imprecise recording of the same events pair up sample by
 * sample; pairs at another instruction, and in another function, are counted. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pmc/report.h>
#include "perfdata/perfdata.h"
#include "elf-fixture.h"
#include "perfdata-fixture.h"

#define PROG PMC_PROGS_DIR "/sample-split"
#define BASE 0x10000000ull

/* A file of one process mapping PROG at BASE, with samples at ips[0..n), in that order. */
static void write_file(const char *path, const uint64_t *ips, size_t n)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.sample_period = 1000,
		.sample_type =
			PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
		.mmap = 1,
	};
	struct pmc__perfdata_writer *w;

	cr_assert_eq(pmc__perfdata_writer_new(path, &w), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(w, &a, "instructions", NULL, 0), 0);
	cr_assert_eq(pmc__perfdata_writer_begin(w), 0);
	fixture_mmap2(w, 42, BASE, 1 << 24, PROG, 0);
	for (size_t i = 0; i < n; i++) {
		struct pmc__sample s = {.misc = PERF_RECORD_MISC_USER,
					.ip = ips[i],
					.pid = 42,
					.tid = 42,
					.time = 100 + i,
					.period = 1000};

		cr_assert_eq(pmc__perfdata_writer_write_sample(w, 0, &s), 0);
	}
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	pmc__perfdata_writer_delete(w);
}

static struct pmc_report *load(const char *path, bool keep)
{
	struct pmc_report_opts o = {.sz = sizeof(o), .keep_samples = keep};
	struct pmc_file_error err;
	struct pmc_report *r;

	cr_assert_eq(pmc_report__new(&o, &r), 0);
	cr_assert_eq(pmc_report__load(r, path, &err), 0, "%s", err.msg);
	return r;
}

Test(report_skid, pairs_in_order)
{
	uint64_t hot = BASE + fixture_symbol_offset(PROG, "hot"),
		 cold = BASE + fixture_symbol_offset(PROG, "cold");
	/* The imprecise samples: the first in place, the second 4 bytes on in hot, the third
	 * in cold (20 bytes away from hot+2 or more), and one more without a partner. */
	uint64_t p_ips[] = {hot + 2, hot + 2, hot + 2}, i_ips[] = {hot + 2, hot + 6, cold, hot};
	char pp[64], ip[64];
	struct pmc_report *p, *i, *plain;
	struct pmc_skid s;

	snprintf(pp, sizeof(pp), "/tmp/pmc-skid-p-%d.data", (int)getpid());
	snprintf(ip, sizeof(ip), "/tmp/pmc-skid-i-%d.data", (int)getpid());
	write_file(pp, p_ips, 3);
	write_file(ip, i_ips, 4);
	p = load(pp, true);
	i = load(ip, true);
	plain = load(pp, false);
	cr_assert_eq(pmc_report__skid(p, i, 0, &s), 0);
	cr_expect_eq(s.pairs, 3);
	cr_expect_eq(s.unpaired, 1);
	cr_expect_eq(s.moved, 2);
	cr_expect_eq(s.other_symbol, 1);
	cr_expect(s.mean_bytes ==
			  (4.0 + (double)(cold > hot + 2 ? cold - hot - 2 : hot + 2 - cold)) / 2,
		  "mean_bytes %f", s.mean_bytes);
	cr_assert_eq(pmc_report__skid(p, p, 0, &s), 0);
	cr_expect(s.pairs == 3 && s.moved == 0 && s.unpaired == 0 && s.mean_bytes == 0);
	cr_expect_eq(pmc_report__skid(p, plain, 0, &s), -EINVAL, "kept no samples");
	cr_expect_eq(pmc_report__skid(p, i, 1, &s), -ERANGE);
	pmc_report__delete(p);
	pmc_report__delete(i);
	pmc_report__delete(plain);
	unlink(pp);
	unlink(ip);
}
