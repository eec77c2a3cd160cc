// SPDX-License-Identifier: MIT
/*
 * Tracepoint pins. Closing the last perf event of a tracepoint unregisters the probe and
 * waits for an RCU grace period: about 40 ms here, on every close. pmc keeps one
 * disabled event per tracepoint it counts open for the life of the process, so that the
 * events of each run open and close cheaply; the kernel pays the unregistration once,
 * at exit. Tracepoint verdicts for pmc list come from one real open (see check.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include "backend/perf/perf.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *ids;
static size_t nr, alloc;

/* Holds (or already holds) a pin on tracepoint id. Returns 0 or the open's -errno. */
int pmc__perf_tp_pin(uint64_t id)
{
	/*
	 * User level: the pin only keeps the tracepoint registered and counts nothing, so it
	 * needs no more than the events it serves (a kernel-level pin was refused at
	 * perf_event_paranoid 2 where the user-level events themselves open).
	 */
	struct perf_event_attr a = {.size = sizeof(a),
				    .type = PERF_TYPE_TRACEPOINT,
				    .config = id,
				    .disabled = 1,
				    .exclude_kernel = 1,
				    .exclude_hv = 1};
	int fd, err = 0;

	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nr; i++)
		if (ids[i] == id)
			goto out;
	if (nr == alloc) {
		size_t n = alloc ? 2 * alloc : 16;
		uint64_t *p = realloc(ids, n * sizeof(*p));

		if (!p) {
			err = -ENOMEM;
			goto out;
		}
		ids = p;
		alloc = n;
	}
	fd = pmc__perf_event_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	/* The fd is deliberately kept: the kernel closes it at exit. */
	ids[nr++] = id;
out:
	pthread_mutex_unlock(&lock);
	return err;
}
