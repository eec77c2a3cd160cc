/* SPDX-License-Identifier: MIT */
/*
 * The benchmarks' shared harness: variants measured in interleaved rounds (the first to run
 * rotates each round, so drift on a shared machine falls on all alike), the median round
 * reported; and the four software events they all read, opened as a group or one by one.
 */
#ifndef PMC_BENCH_INTERLEAVE_H
#define PMC_BENCH_INTERLEAVE_H

#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#define BENCH_OPS 20000 /* operations per round */
#define BENCH_MAX_ROUNDS 64

struct variant {
	const char *name;
	void (*fn)(void *arg);
	void *arg;
	double rounds[BENCH_MAX_ROUNDS]; /* ns per operation, sorted after measure() */
	double median;
};

static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Runs rounds (<= BENCH_MAX_ROUNDS) of BENCH_OPS calls of each of the nr variants. */
static inline void measure(struct variant *v, int nr, int rounds)
{
	for (int k = 0; k < rounds; k++)
		for (int j = 0; j < nr; j++) {
			struct variant *x = &v[(j + k) % nr];
			double t0 = bench_now_ns();

			for (int i = 0; i < BENCH_OPS; i++)
				x->fn(x->arg);
			x->rounds[k] = (bench_now_ns() - t0) / BENCH_OPS;
		}
	for (int j = 0; j < nr; j++) {
		qsort(v[j].rounds, (size_t)rounds, sizeof(double), bench_cmp);
		v[j].median = v[j].rounds[rounds / 2];
	}
}

/*
 * task-clock, page-faults, context-switches, cpu-migrations at user level on the calling
 * thread: as one PERF_FORMAT_GROUP group led by fds[0], or (group = 0) four events read
 * one by one. Returns 0 or -1.
 */
static inline int open_sw_events(int fds[4], int group)
{
	static const unsigned long sw[4] = {PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
					    PERF_COUNT_SW_CONTEXT_SWITCHES,
					    PERF_COUNT_SW_CPU_MIGRATIONS};

	for (int i = 0; i < 4; i++) {
		struct perf_event_attr a = {.size = sizeof(a),
					    .type = PERF_TYPE_SOFTWARE,
					    .config = sw[i],
					    .exclude_kernel = 1,
					    .exclude_hv = 1,
					    .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
							   PERF_FORMAT_TOTAL_TIME_RUNNING};

		if (group && i == 0)
			a.read_format |= PERF_FORMAT_GROUP;
		fds[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, group && i ? fds[0] : -1, 0);
		if (fds[i] < 0)
			return -1;
	}
	return 0;
}

#endif /* PMC_BENCH_INTERLEAVE_H */
