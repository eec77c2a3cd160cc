// SPDX-License-Identifier: MIT
/* The ordered-events queue (lib/perfdata/ordered.c): records replayed in time order. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include "perfdata/ordered.h"
#include "perfdata/records.h"
#include "perfdata-fixture.h"

static struct pmc__perfdata_writer *w;
static char path[64];

static void begin(bool id_all)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000,
		.sample_type =
			PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
		.sample_id_all = id_all,
		.comm = 1,
	};

	snprintf(path, sizeof(path), "/tmp/pmc-ordered-%d.data", (int)getpid());
	cr_assert_eq(pmc__perfdata_writer_new(path, &w), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(w, &a, "cpu-clock", NULL, 0), 0);
	cr_assert_eq(pmc__perfdata_writer_begin(w), 0);
}

/* A sample whose ip says which it is (its place in the file). */
static void sample(uint64_t ip, uint64_t time)
{
	struct pmc__sample s = {.ip = ip, .pid = 1, .tid = 1, .time = time, .period = 1};

	cr_assert_eq(pmc__perfdata_writer_write_sample(w, 0, &s), 0);
}

/* What the queue replayed: each record's ip (samples) or 1000 + pid (COMM). */
struct seen {
	struct pmc__perfdata *f;
	uint64_t v[64];
	size_t n;
	size_t fail_at; /* the callback fails at this record (0: never) */
};

static int on_record(void *arg, const struct pmc__perfdata_event *ev, struct pmc_file_error *err)
{
	struct seen *s = arg;
	struct pmc__sample smp;
	struct pmc__record r;

	cr_assert_lt(s->n, 64);
	if (s->fail_at && s->n + 1 == s->fail_at)
		return -EIO;
	if (ev->hdr->type == PERF_RECORD_SAMPLE) {
		cr_assert_eq(pmc__perfdata_sample(s->f, ev, &smp, err), 0);
		s->v[s->n++] = smp.ip;
	} else {
		cr_assert_eq(pmc__perfdata_record(s->f, ev, &r, err), 0);
		s->v[s->n++] = 1000 + r.pid;
	}
	return 0;
}

/* Opens the file written, queues every record; *after[i] is what was replayed after record i. */
static int replay(struct seen *s, struct pmc__ordered *q, size_t max, size_t *after)
{
	struct pmc__perfdata_event ev;
	struct pmc_file_error err;
	int ret;
	size_t i = 0;

	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	pmc__perfdata_writer_delete(w);
	cr_assert_eq(pmc__perfdata_open(path, &s->f, &err), 0, "%s", err.msg);
	pmc__ordered_init(q, s->f, on_record, s);
	if (max)
		q->max = max;
	while ((ret = pmc__perfdata_next(s->f, &ev, &err)) == 1) {
		ret = pmc__ordered_queue(q, &ev, &err);
		if (ret)
			break;
		if (after)
			after[i++] = s->n;
	}
	if (!ret)
		ret = pmc__ordered_drain(q, &err);
	return ret;
}

static void done(struct seen *s, struct pmc__ordered *q)
{
	pmc__ordered_free(q);
	pmc__perfdata_close(s->f);
	unlink(path);
}

static void expect(const struct seen *s, const uint64_t *v, size_t n)
{
	cr_assert_eq(s->n, n, "%zu records replayed, not %zu", s->n, n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(s->v[i], v[i], "record %zu: %llu, not %llu", i,
			     (unsigned long long)s->v[i], (unsigned long long)v[i]);
}

/*
 * perf's FINISHED_ROUND rule: a round's end replays what is not newer than the previous
 * round's newest time; equal times keep their order in the file.
 */
Test(perfdata_ordered, rounds_replay_what_no_later_record_can_precede)
{
	struct seen s = {0};
	struct pmc__ordered q;
	size_t after[16];

	begin(true);
	sample(1, 10);
	sample(2, 30);
	sample(3, 20);
	fixture_round(w); /* nothing yet: the next round may hold anything newer than 0 */
	sample(4, 25);
	sample(5, 30);
	sample(6, 40);
	fixture_round(w); /* up to 30, the first round's newest */
	sample(7, 35);
	cr_assert_eq(replay(&s, &q, 0, after), 0);
	cr_assert_eq(after[3], 0);
	cr_assert_eq(after[7], 5);
	expect(&s, (uint64_t[]){1, 3, 4, 2, 5, 7, 6}, 7);
	cr_assert_eq(q.nr_late, 0);
	done(&s, &q);
}

/* Side-band records without a time (no sample_id_all) go right after the record before them. */
Test(perfdata_ordered, records_without_time_keep_their_neighbour)
{
	struct seen s = {0};
	struct pmc__ordered q;

	begin(false);
	sample(1, 50);
	fixture_comm(w, 7, 7, "late", 0);
	sample(2, 10);
	fixture_comm(w, 8, 8, "early", 0);
	sample(3, 20);
	cr_assert_eq(replay(&s, &q, 0, NULL), 0);
	expect(&s, (uint64_t[]){2, 1008, 3, 1, 1007}, 5);
	done(&s, &q);
}

/* A record older than one already replayed is counted late, and still replayed. */
Test(perfdata_ordered, late_records_are_counted)
{
	struct seen s = {0};
	struct pmc__ordered q;

	begin(true);
	sample(1, 10);
	fixture_round(w);
	sample(2, 20);
	fixture_round(w); /* replays 1 (time 10) */
	sample(3, 5);	  /* older than what was replayed */
	fixture_comm(w, 9, 9, "x", 30);
	cr_assert_eq(replay(&s, &q, 0, NULL), 0);
	expect(&s, (uint64_t[]){1, 3, 2, 1009}, 4);
	cr_assert_eq(q.nr_late, 1);
	done(&s, &q);
}

/* Without rounds the queue holds at most max records: the older half is replayed first. */
Test(perfdata_ordered, a_full_queue_replays_its_older_half)
{
	struct seen s = {0};
	struct pmc__ordered q;
	size_t after[16];

	begin(true);
	for (uint64_t i = 0; i < 8; i++)
		sample(i + 1, 100 - 10 * (i % 4)); /* 100 90 80 70 100 90 80 70 */
	cr_assert_eq(replay(&s, &q, 4, after), 0);
	cr_assert_eq(after[3], 3); /* full: 70, 80, 90 (up to its middle record's time) */
	cr_assert_eq(after[6], 7); /* full again: 80, 90, 100, 100 */
	expect(&s, (uint64_t[]){4, 3, 2, 7, 6, 1, 5, 8}, 8);
	cr_assert_eq(q.nr_late, 2); /* 80 after 90, 70 after 100: the price of a bounded queue */
	done(&s, &q);
}

/* The callback's error stops the replay and is returned. */
Test(perfdata_ordered, callback_error_is_returned)
{
	struct seen s = {.fail_at = 2};
	struct pmc__ordered q;

	begin(true);
	sample(1, 30);
	sample(2, 20);
	sample(3, 10);
	cr_assert_eq(replay(&s, &q, 0, NULL), -EIO);
	expect(&s, (uint64_t[]){3}, 1);
	done(&s, &q);
}
