// SPDX-License-Identifier: MIT
/* The side-band record codec (lib/perfdata/records.c): layouts, round trips, bounds. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "perfdata/records.h"

#define ALL_ID                                                                         \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static struct perf_event_attr attr(uint64_t sample_type, bool id_all)
{
	return (struct perf_event_attr){.size = sizeof(struct perf_event_attr),
					.sample_type = sample_type | PERF_SAMPLE_IP,
					.sample_id_all = id_all};
}

static const struct pmc__sample_id sid = {1, 2, 3, 4, 5, 6};

/* One record of each kind the codec knows, every field set. */
static const struct pmc__record kinds[] = {
	{.type = PERF_RECORD_COMM,
	 .misc = PERF_RECORD_MISC_COMM_EXEC,
	 .pid = 7,
	 .tid = 8,
	 .str = "prog"},
	{.type = PERF_RECORD_MMAP,
	 .misc = PERF_RECORD_MISC_KERNEL,
	 .pid = ~0u,
	 .start = 0x1000,
	 .len = 0x2000,
	 .pgoff = 0x3000,
	 .str = "[kernel.kallsyms]_text"},
	{.type = PERF_RECORD_MMAP2,
	 .misc = PERF_RECORD_MISC_USER,
	 .pid = 7,
	 .tid = 7,
	 .start = 0x400000,
	 .len = 0x1000,
	 .pgoff = 0x10,
	 .maj = 8,
	 .min = 1,
	 .ino = 99,
	 .ino_generation = 3,
	 .prot = 5,
	 .flags = 2,
	 .str = "/usr/bin/prog"},
	{.type = PERF_RECORD_FORK, .pid = 9, .ppid = 7, .tid = 10, .ptid = 8, .time = 11},
	{.type = PERF_RECORD_EXIT, .pid = 9, .ppid = 7, .tid = 10, .ptid = 8, .time = 12},
	{.type = PERF_RECORD_LOST, .id = 13, .lost = 14},
	{.type = PERF_RECORD_LOST_SAMPLES, .lost = 15},
	{.type = PERF_RECORD_THROTTLE, .time = 16, .id = 17, .stream_id = 18},
	{.type = PERF_RECORD_UNTHROTTLE, .time = 19, .id = 20, .stream_id = 21},
};

#define NR_KINDS (sizeof(kinds) / sizeof(kinds[0]))

static void expect_same(const struct pmc__record *a, const struct pmc__record *b)
{
	cr_assert_eq(a->type, b->type);
	cr_assert_eq(a->misc, b->misc);
	cr_assert_eq(a->pid, b->pid);
	cr_assert_eq(a->tid, b->tid);
	cr_assert_eq(a->ppid, b->ppid);
	cr_assert_eq(a->ptid, b->ptid);
	cr_assert_eq(a->time, b->time);
	cr_assert_eq(a->start, b->start);
	cr_assert_eq(a->len, b->len);
	cr_assert_eq(a->pgoff, b->pgoff);
	cr_assert_eq(a->maj, b->maj);
	cr_assert_eq(a->min, b->min);
	cr_assert_eq(a->ino, b->ino);
	cr_assert_eq(a->ino_generation, b->ino_generation);
	cr_assert_eq(a->prot, b->prot);
	cr_assert_eq(a->flags, b->flags);
	cr_assert_eq(a->id, b->id);
	cr_assert_eq(a->stream_id, b->stream_id);
	cr_assert_eq(a->lost, b->lost);
	cr_assert_eq(!a->str, !b->str);
	if (a->str) {
		cr_assert_eq(b->str_len, strlen(a->str));
		cr_assert_eq(memcmp(a->str, b->str, b->str_len), 0);
	}
}

Test(perfdata_records, round_trip_every_kind_with_every_trailer_field)
{
	struct perf_event_attr a = attr(ALL_ID, true);
	uint64_t buf[512];

	for (size_t i = 0; i < NR_KINDS; i++) {
		struct pmc__record in = kinds[i], out;
		struct pmc_file_error err;
		in.sid = sid;
		int len = pmc__record_encode(&a, &in, buf, sizeof(buf));
		cr_assert_gt(len, 0, "kind %zu: %d", i, len);
		cr_assert_eq(len % 8, 0);
		cr_assert_eq(((struct perf_event_header *)buf)->size, len);
		cr_assert_eq(pmc__record_decode(&a, buf, (size_t)len, &out, &err), 0, "%s",
			     err.msg);
		expect_same(&in, &out);
		cr_assert(out.has_sid);
		cr_assert_eq(memcmp(&out.sid, &sid, sizeof(sid)), 0);
	}
}

/*
 * perf's __perf_evsel__parse_id_sample reads the trailer back from the record's end:
 * identifier, cpu (and a reserved word), stream_id, id, time, pid/tid.
 */
Test(perfdata_records, trailer_is_laid_out_as_perf_reads_it)
{
	struct perf_event_attr a = attr(ALL_ID, true);
	struct pmc__record r = {.type = PERF_RECORD_COMM, .pid = 7, .tid = 8, .str = "abcdefg"};
	uint64_t buf[64];
	const uint64_t *end;
	struct pmc__sample_id got;
	uint32_t pair[2];
	int len;

	r.sid = sid;
	len = pmc__record_encode(&a, &r, buf, sizeof(buf));
	/* header, pid/tid, "abcdefg" and its NUL in one word, six trailer words */
	cr_assert_eq(len, 8 + 8 + 8 + 6 * 8);
	cr_assert_eq(pmc__sample_id_size(&a), 48);
	end = buf + len / 8;
	cr_assert_eq(end[-1], sid.id);		  /* identifier */
	cr_assert_eq(end[-2], (uint64_t)sid.cpu); /* cpu, then a reserved u32 of 0 */
	cr_assert_eq(end[-3], sid.stream_id);
	cr_assert_eq(end[-4], sid.id);
	cr_assert_eq(end[-5], sid.time);
	memcpy(pair, &end[-6], 8);
	cr_assert_eq(pair[0], sid.pid);
	cr_assert_eq(pair[1], sid.tid);
	cr_assert_eq(pmc__sample_id_decode(&a, buf, (size_t)len, &got), 0);
	cr_assert_eq(got.time, sid.time);
	uint64_t t = 0;
	cr_assert(pmc__record_time(&a, (const struct perf_event_header *)buf, &t));
	cr_assert_eq(t, sid.time);
}

Test(perfdata_records, no_trailer_without_sample_id_all)
{
	struct perf_event_attr a = attr(ALL_ID, false);
	struct pmc__record r = {.type = PERF_RECORD_LOST, .id = 1, .lost = 2}, out;
	uint64_t buf[8];
	struct pmc__sample_id got;
	uint64_t t;

	r.sid = sid;
	cr_assert_eq(pmc__record_encode(&a, &r, buf, sizeof(buf)), 24);
	cr_assert_eq(pmc__record_decode(&a, buf, 24, &out, NULL), 0);
	cr_assert_not(out.has_sid);
	cr_assert_eq(out.lost, 2);
	cr_assert_eq(pmc__sample_id_decode(&a, buf, 24, &got), -PMC_E_FORMAT);
	cr_assert_not(pmc__record_time(&a, (const struct perf_event_header *)buf, &t));
}

/* A string fills its words: a 7-byte string takes one (with its NUL), an 8-byte one two. */
Test(perfdata_records, strings_are_nul_padded_to_eight_bytes)
{
	struct perf_event_attr a = attr(0, false);
	struct pmc__record r = {.type = PERF_RECORD_COMM, .str = "12345678"};
	uint64_t buf[8];

	cr_assert_eq(pmc__record_encode(&a, &r, buf, sizeof(buf)), 8 + 8 + 16);
	cr_assert_eq(((const char *)buf)[24], 0);
	r.str_len = 3; /* a bounded name: at most 3 bytes of it */
	cr_assert_eq(pmc__record_encode(&a, &r, buf, sizeof(buf)), 8 + 8 + 8);
	cr_assert_str_eq((const char *)buf + 16, "123");
}

Test(perfdata_records, encode_refuses_what_it_cannot_write)
{
	struct perf_event_attr a = attr(ALL_ID, true);
	struct pmc__record r = {.type = PERF_RECORD_COMM, .str = "prog"};
	struct pmc__record unknown = {.type = PERF_RECORD_AUX};
	struct pmc__record nostr = {.type = PERF_RECORD_MMAP2};
	uint64_t buf[8];

	cr_assert_eq(pmc__record_encode(&a, &r, buf, 40), -ENOSPC);
	cr_assert_eq(pmc__record_encode(&a, &unknown, buf, sizeof(buf)), -EINVAL);
	cr_assert_eq(pmc__record_encode(&a, &nostr, buf, sizeof(buf)), -EINVAL);
}

/*
 * Every record cut short (its header's size and its length alike) is refused with the field
 * it ends in, and never read past: each cut is copied into a heap block of exactly its size,
 * which AddressSanitizer guards.
 */
Test(perfdata_records, every_truncation_is_a_clear_error)
{
	const bool id_all[] = {false, true};

	for (size_t k = 0; k < 2; k++) {
		struct perf_event_attr a = attr(ALL_ID, id_all[k]);
		for (size_t i = 0; i < NR_KINDS; i++) {
			uint64_t buf[512];
			struct pmc__record in = kinds[i], out;
			int len = pmc__record_encode(&a, &in, buf, sizeof(buf));
			/* A string's padding may be cut: it holds the string while its NUL is
			 * there. */
			size_t min = in.str ? (size_t)len - ((strlen(in.str) + 8) & ~(size_t)7) +
						      strlen(in.str) + 1
					    : (size_t)len;

			for (size_t cut = 8; cut < min; cut++) {
				struct perf_event_header *h = malloc(cut);
				struct pmc_file_error err = {0};
				memcpy(h, buf, cut);
				h->size = (uint16_t)cut;
				cr_assert_eq(pmc__record_decode(&a, h, cut, &out, &err),
					     -PMC_E_FORMAT, "kind %zu cut to %zu", i, cut);
				cr_assert(strstr(err.msg, "ends inside its"), "%s", err.msg);
				cr_assert_leq(err.offset, cut);
				free(h);
			}
			if (min <
			    (size_t)len) { /* the shortest that still holds the whole string */
				struct perf_event_header *h = malloc(min);
				memcpy(h, buf, min);
				h->size = (uint16_t)min;
				cr_assert_eq(pmc__record_decode(&a, h, min, &out, NULL), 0);
				cr_assert_str_eq(out.str, in.str);
				free(h);
			}
		}
	}
}

/* A type the codec does not know decodes as its header (and trailer) only. */
Test(perfdata_records, unknown_types_decode_their_header)
{
	struct perf_event_attr a = attr(PERF_SAMPLE_TIME, true);
	uint64_t rec[3] = {0, 0xdead, 42};
	struct perf_event_header h = {PERF_RECORD_AUX, 0, sizeof(rec)};
	struct pmc__record out;

	memcpy(rec, &h, sizeof(h));
	cr_assert_eq(pmc__record_decode(&a, rec, sizeof(rec), &out, NULL), 0);
	cr_assert_eq(out.type, PERF_RECORD_AUX);
	cr_assert(out.has_sid);
	cr_assert_eq(out.sid.time, 42);
}
