// SPDX-License-Identifier: MIT
/*
 * When a report gives an estimate (docs/accuracy.md, "When a report gives an estimate"):
 * files written here with known periods, each checked by pmc_report__event_check().
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pmc/report.h>
#include "perfdata/perfdata.h"
#include "perfdata-fixture.h"

#define END 0 /* ends a list of periods */

struct run {
	uint32_t tid;
	uint64_t periods[64]; /* END-terminated */
};

/* Writes a file of one event (freq or a fixed period of 1000) with the threads' samples
 * interleaved in order, a LOST record of lost samples (lost > 0) or a THROTTLE record
 * (lost == THROTTLE), and loads it. */
#define THROTTLE UINT64_MAX
static struct pmc_report *load(bool freq, const struct run *runs, size_t n, uint64_t lost)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.freq = freq,
		.sample_period = freq ? 4000 : 1000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD,
	};
	struct pmc__perfdata_writer *w;
	struct pmc_report *r;
	struct pmc_file_error err;
	char path[64];

	snprintf(path, sizeof(path), "/tmp/pmc-check-%d.data", (int)getpid());
	cr_assert_eq(pmc__perfdata_writer_new(path, &w), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(w, &a, "cpu-clock", NULL, 0), 0);
	cr_assert_eq(pmc__perfdata_writer_begin(w), 0);
	/* A file whose data is empty reads as an interrupted recording: a COMM first. */
	fixture_comm(w, 1, 1, "prog", 0);
	for (size_t i = 0; i < 64; i++)
		for (size_t t = 0; t < n; t++) {
			struct pmc__sample s = {.sample_type = a.sample_type,
						.misc = PERF_RECORD_MISC_USER,
						.ip = 0x1000,
						.pid = runs[t].tid,
						.tid = runs[t].tid,
						.period = runs[t].periods[i]};
			if (s.period == END)
				continue;
			cr_assert_eq(pmc__perfdata_writer_write_sample(w, 0, &s), 0);
		}
	if (lost == THROTTLE)
		fixture_record(w, (struct pmc__record){.type = PERF_RECORD_THROTTLE, .time = 1}, 0);
	else if (lost)
		fixture_record(
			w, (struct pmc__record){.type = PERF_RECORD_LOST, .id = 1, .lost = lost},
			0);
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	pmc__perfdata_writer_delete(w);
	cr_assert_eq(pmc_report__new(NULL, &r), 0);
	cr_assert_eq(pmc_report__load(r, path, &err), 0, "%s at %llu", err.msg,
		     (unsigned long long)err.offset);
	unlink(path);
	return r;
}

static struct pmc_estimate_check check(bool freq, const struct run *runs, size_t n, uint64_t lost)
{
	struct pmc_report *r = load(freq, runs, n, lost);
	struct pmc_estimate_check c;

	cr_assert_eq(pmc_report__event_check(r, 0, 0, &c), 0);
	cr_expect_eq(pmc_report__event_check(r, 1, 0, &c), -ERANGE);
	cr_assert_eq(pmc_report__event_check(r, 0, 0, &c), 0);
	pmc_report__delete(r);
	return c;
}

#define TEN_1000 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000

Test(report_check, fixed_periods)
{
	struct run ten = {1, {TEN_1000, END}}, five = {1, {1000, 1000, 1000, 1000, 1000, END}};
	struct run ones = {1, {1, 1, 1, END}};
	struct pmc_estimate_check c = check(false, &ten, 1, 0);

	cr_expect_eq(c.status, PMC_ESTIMATE_INTERVAL);
	cr_expect_eq(c.est.estimate, 10000);
	cr_expect(c.est.lo < 10000 && 10000 < c.est.hi && c.adapting == 0 && !*c.reason);
	c = check(false, &five, 1, 0);
	cr_expect_eq(c.status, PMC_ESTIMATE_FEW_SAMPLES);
	cr_expect_str_eq(c.reason, "no estimate: only 5 samples (an estimate needs 10)");
	c = check(false, &ones, 1, 0);
	cr_expect_eq(c.status, PMC_ESTIMATE_EXACT);
	cr_expect(c.est.lo == 3 && c.est.hi == 3);
	c = check(false, &ten, 0, 0);
	cr_expect_eq(c.status, PMC_ESTIMATE_NO_SAMPLE);
	cr_expect_str_eq(c.reason, "no estimate: no sample");
	c = check(false, &ten, 1, 7);
	cr_expect_eq(c.status, PMC_ESTIMATE_LOST);
	cr_expect_str_eq(c.reason, "no estimate: the kernel lost 7 samples");
	c = check(false, &ten, 1, THROTTLE);
	cr_expect_eq(c.status, PMC_ESTIMATE_THROTTLED);
	cr_expect_str_eq(c.reason, "no estimate: the kernel throttled sampling 1 time (no samples "
				   "while throttled)");
}

Test(report_check, frequency_mode)
{
	/* The kernel's adaptation as seen on 1,000 and 200,000 getppid calls at -F 1000. */
	struct run few = {1, {1, 1, 1, 7, 103, 1650, END}};
	struct run adapting = {1, {1, 1, 1, 42, 4230, 4537639, 5000, 5000, 5000, 5000, END}};
	/* Settled after a ramp: the ramp and the first settled sample are the adapting part. */
	struct run settled = {1,
			      {1, 1, 1, 40, 1000, 1000, 1010, 990, 1000, 1000, 1000, 1000, TEN_1000,
			       TEN_1000, TEN_1000, END}};
	/* A second thread of three samples: all adapting, a small share. */
	struct run two[2] = {settled, {2, {1, 1, 10, END}}};
	struct pmc_estimate_check c = check(true, &few, 1, 0);

	cr_expect_eq(c.status, PMC_ESTIMATE_FEW_SAMPLES);
	c = check(true, &adapting, 1, 0);
	cr_expect_eq(c.status, PMC_ESTIMATE_ADAPTING);
	cr_expect_eq(c.adapting, 1 + 1 + 1 + 42 + 4230 + 4537639 + 5000 + 5000 + 5000 + 5000);
	cr_expect(strstr(c.reason, "no estimate: the kernel was still adapting the period "
				   "(frequency mode): 100% of the period sum") == c.reason);
	c = check(true, &settled, 1, 0);
	cr_expect_eq(c.status, PMC_ESTIMATE_INTERVAL);
	cr_expect_eq(c.adapting, 1 + 1 + 1 + 40 + 1000);
	cr_expect_eq(c.est.estimate, 43 + 38000);
	/* Widened by the adapting sum on both sides. */
	{
		struct pmc_count_estimate e;
		pmc_count_estimate(c.est.samples, c.est.estimate, 0.95, &e);
		cr_expect_float_eq(c.est.lo, e.lo - 1043, 1e-6);
		cr_expect_float_eq(c.est.hi, e.hi + 1043, 1e-6);
	}
	c = check(true, two, 2, 0);
	cr_expect_eq(c.status, PMC_ESTIMATE_INTERVAL);
	cr_expect_eq(c.adapting, 1043 + 12);
}
