// SPDX-License-Identifier: MIT
/*
 * Event pins: the kernel pays for some events on first open and last close, not per event.
 * Closing the last perf event of a tracepoint unregisters the probe and waits for an RCU
 * grace period (about 40 ms here); opening the first software event of a kind, and closing
 * the last, patches the kernel's code through a static key, with an IPI to every CPU
 * (about 60 µs each, against 5 µs for an open and close while another is held). pmc keeps
 * one disabled event of each tracepoint and software event it counts open on itself for
 * the life of the process, so that the events of each run open and close cheaply; the
 * kernel pays once, at exit. Tracepoint verdicts for pmc list come from one real open (see
 * check.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "core/grow.h"
#include "backend/perf/perf.h"

/*
 * Pins live at descriptors from here up, where they can (the soft RLIMIT_NOFILE allowing):
 * the descriptors pmc opens for a run — the results descriptor the command inherits and
 * names in its environment first — must not depend on which events were pinned before.
 */
#define PIN_FD_MIN 512

struct pin {
	__u32 type;
	__u64 config;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct pin *pins;
static size_t nr, alloc;

int pmc__perf_pin(__u32 type, __u64 config)
{
	/*
	 * User level: the pin only keeps the kernel's state alive and counts nothing, so it
	 * needs no more than the events it serves (a kernel-level pin was refused at
	 * perf_event_paranoid 2 where the user-level events themselves open).
	 */
	struct perf_event_attr a = {.size = sizeof(a),
				    .type = type,
				    .config = config,
				    .disabled = 1,
				    .exclude_kernel = 1,
				    .exclude_hv = 1};
	int fd, err = 0;

	if (type != PERF_TYPE_TRACEPOINT && type != PERF_TYPE_SOFTWARE)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nr; i++)
		if (pins[i].type == type && pins[i].config == config)
			goto out;
	if (PMC_ENSURE(pins, alloc, nr + 1)) {
		err = -ENOMEM;
		goto out;
	}
	fd = pmc__perf_event_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	if (fd < PIN_FD_MIN) {
		int high = fcntl(fd, F_DUPFD_CLOEXEC, PIN_FD_MIN);

		if (high >= 0) {
			close(fd);
			fd = high;
		}
	}
	/* The fd is deliberately kept: the kernel closes it at exit. */
	pins[nr++] = (struct pin){type, config};
out:
	pthread_mutex_unlock(&lock);
	return err;
}
