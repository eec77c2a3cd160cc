// SPDX-License-Identifier: MIT
/*
 * The vpmu stream's counts (lib/backend/vpmu/stream.c): the last COUNTS total of each
 * process image counts, images of one pid are summed across exec, a failed exec's early
 * total is superseded, a reused pid starts a new image. Streams are built from a table.
 */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <pmc/log.h>
#include <vpmu/protocol.h>
#include "backend/vpmu/vpmu.h"

/* One record of a test stream: a type, a pid, a counter-0 value (COUNTS) or tid. */
struct rec {
	uint16_t type;
	uint32_t pid;
	uint64_t value; /* COUNTS: counter 0's value; the total when tid is 0 */
	uint32_t tid;
};

static void hdr(struct vpmu_hdr *h, uint16_t type, uint32_t size)
{
	*h = (struct vpmu_hdr){.magic = VPMU_MAGIC_RECORD,
			       .version = VPMU_PROTO_VERSION,
			       .type = type,
			       .size = size};
}

static size_t put(unsigned char *p, const struct rec *r)
{
	union {
		struct vpmu_rec_begin b;
		struct vpmu_rec_task t;
		struct vpmu_rec_counts c;
		unsigned char e[sizeof(struct vpmu_rec_exec) + 8];
	} u;
	size_t n;

	memset(&u, 0, sizeof(u));
	switch (r->type) {
	case VPMU_REC_BEGIN:
		hdr(&u.b.hdr, r->type, n = sizeof(u.b));
		u.b.pid = r->pid;
		break;
	case VPMU_REC_COUNTS:
		hdr(&u.c.hdr, r->type, n = sizeof(u.c));
		u.c.pid = r->pid;
		u.c.tid = r->tid;
		u.c.nr = 1;
		u.c.value[0] = r->value;
		break;
	case VPMU_REC_EXEC:
		hdr((struct vpmu_hdr *)u.e, r->type, n = sizeof(u.e));
		((struct vpmu_rec_exec *)u.e)->pid = r->pid;
		((struct vpmu_rec_exec *)u.e)->flags = VPMU_EXEC_FOLLOWED;
		break;
	default: /* FORK, EXIT */
		hdr(&u.t.hdr, r->type, n = sizeof(u.t));
		u.t.pid = r->pid;
		break;
	}
	memcpy(p, &u, n);
	return n;
}

static uint64_t total_of(const struct rec *recs, size_t nr)
{
	struct vpmu_counting vc = {.rd_fd = -1, .wake_fd = {-1, -1}};

	vc.stream = calloc(nr, 256);
	cr_assert(vc.stream);
	for (size_t i = 0; i < nr; i++)
		vc.stream_len += put(vc.stream + vc.stream_len, &recs[i]);
	cr_assert_eq(pmc__vpmu_stream_finish(&vc), 0);
	cr_assert(vc.have_counts);
	pmc__vpmu_stream_close(&vc);
	return vc.totals[0];
}

/* Rows of a stream: BEGIN, COUNTS total, per-thread COUNTS, EXEC, FORK, EXIT of a pid. */
#define B(p)                                       \
	{                                          \
		.type = VPMU_REC_BEGIN, .pid = (p) \
	}
#define C(p, v)                                                   \
	{                                                         \
		.type = VPMU_REC_COUNTS, .pid = (p), .value = (v) \
	}
#define T(p, v, t)                                                            \
	{                                                                     \
		.type = VPMU_REC_COUNTS, .pid = (p), .value = (v), .tid = (t) \
	}
#define X(p)                                      \
	{                                         \
		.type = VPMU_REC_EXEC, .pid = (p) \
	}
#define F(p)                                      \
	{                                         \
		.type = VPMU_REC_FORK, .pid = (p) \
	}
#define E(p)                                      \
	{                                         \
		.type = VPMU_REC_EXIT, .pid = (p) \
	}
#define TOTAL(...)                                  \
	total_of((const struct rec[]){__VA_ARGS__}, \
		 sizeof((const struct rec[]){__VA_ARGS__}) / sizeof(struct rec))

Test(vpmu_stream, last_total_of_each_image)
{
	pmc_set_print(NULL);
	/* one process, per-thread records ignored */
	cr_expect_eq(TOTAL(B(7), T(7, 5, 7), C(7, 5), E(7)), 5);
	/* a fork child: two processes summed */
	cr_expect_eq(TOTAL(B(7), F(8), C(8, 3), E(8), C(7, 5), E(7)), 8);
	/* exec followed: both images of pid 7 */
	cr_expect_eq(TOTAL(B(7), C(7, 100), X(7), B(7), C(7, 40), E(7)), 140);
	/* two execs in a row */
	cr_expect_eq(TOTAL(B(7), C(7, 1), X(7), B(7), C(7, 20), X(7), B(7), C(7, 300), E(7)), 321);
	/* a failed exec: its early total is superseded by the exit's */
	cr_expect_eq(TOTAL(B(7), C(7, 100), X(7), C(7, 130), E(7)), 130);
	/* a failed exec, then one that succeeds */
	cr_expect_eq(TOTAL(B(7), C(7, 100), X(7), C(7, 110), X(7), B(7), C(7, 9), E(7)), 119);
	/* a pid reused by a later fork child is a new image */
	cr_expect_eq(TOTAL(B(7), F(8), C(8, 3), E(8), F(8), C(8, 4), E(8), C(7, 5), E(7)), 12);
	/* an exec'd image killed before its exit: the total before the exec still counts */
	cr_expect_eq(TOTAL(B(7), C(7, 100), X(7), B(7)), 100);
}
