/* SPDX-License-Identifier: MIT */
/* Guest-side helpers of the vpmu tests: client requests as inline functions, and CHECK. */
#ifndef VPMU_GUEST_H
#define VPMU_GUEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind.h>
#include <vpmu/protocol.h>

#define AI static inline __attribute__((always_inline))

AI long vp_req(unsigned req, unsigned long a1, unsigned long a2, unsigned long a3, unsigned long a4)
{
	return (long)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, req, a1, a2, a3, a4, 0);
}

AI unsigned long vp_read(unsigned idx)
{
	return (unsigned long)vp_req(VPMU_REQ_READ, idx, 0, 0, 0);
}

static int failures;

#define CHECK(cond, ...)                                                     \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                        \
			fputc('\n', stderr);                                 \
			failures++;                                          \
		}                                                            \
	} while (0)

/* Programs counter idx or exits with the tool's reason. */
static inline void vp_program(unsigned idx, unsigned long config, unsigned long period,
			      unsigned flags)
{
	long r = vp_req(VPMU_REQ_PROGRAM, idx, config, period, flags);

	if (r) {
		char why[160] = "";

		vp_req(VPMU_REQ_STRERROR, (unsigned long)why, sizeof(why), 0, 0);
		fprintf(stderr, "PROGRAM %u 0x%lx failed (%ld): %s\n", idx, config, r, why);
		exit(2);
	}
}

static inline void vp_require_vpmu(void)
{
	if (vp_req(VPMU_REQ_PRESENT, 0, 0, 0, 0) != VPMU_PROTO_VERSION) {
		fprintf(stderr, "not running under valgrind --tool=vpmu\n");
		exit(77);
	}
}

/* Core i7 general-counter encoding counting user code, enabled. */
#define EVT(ev, um) (VPMU_EVTSEL(ev, um) | VPMU_EVTSEL_USR | VPMU_EVTSEL_EN)
#define EVTQ(ev, um, cmask, inv, edge)                                                  \
	(EVT(ev, um) | ((unsigned long)(cmask) << 24) | ((inv) ? VPMU_EVTSEL_INV : 0) | \
	 ((edge) ? VPMU_EVTSEL_EDGE : 0))

/* Counter values over a stretch of guest code: snap_begin() before and snap() after, diff(), and
 * sub() to take one stretch's counts from another's (two lengths of a loop leave the loop's). */
struct delta {
	unsigned long v[VPMU_MAX_COUNTERS];
};

AI void snap(struct vpmu_counts *c)
{
	c->hdr.size = sizeof(*c);
	vp_req(VPMU_REQ_READ_ALL, (unsigned long)c, sizeof(*c), VPMU_READ_THREAD, 0);
}

/* Starts a measured stretch that snap(b) ends: b's first line is written before a is taken,
 * so that snap(b)'s store finds its line in the L1D.  A miss there would evict whatever the
 * stack left in that set, dirty or not depending on where the stack lies (it moves with the
 * environment's size), and the stretch would count a write-back more or less. */
AI void snap_begin(struct vpmu_counts *a, struct vpmu_counts *b)
{
	b->hdr.size = sizeof(*b);
	snap(a);
}

static inline void diff(struct delta *d, const struct vpmu_counts *a, const struct vpmu_counts *b)
{
	for (int i = 0; i < VPMU_MAX_COUNTERS; i++)
		d->v[i] = b->value[i] - a->value[i];
}

static inline void sub(struct delta *d, const struct delta *x)
{
	for (int i = 0; i < VPMU_MAX_COUNTERS; i++)
		d->v[i] -= x->v[i];
}

struct vp_test {
	const char *name;
	void (*fn)(void);
};

/* Runs the test named by argv[1], or every test without an argument, under vpmu; returns the
 * exit status (1 when a CHECK failed). */
static inline int vp_run_tests(int argc, char **argv, const struct vp_test *tests, unsigned n)
{
	vp_require_vpmu();
	for (unsigned i = 0; i < n; i++)
		if (argc < 2 || !strcmp(argv[1], tests[i].name))
			tests[i].fn();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}

#endif
