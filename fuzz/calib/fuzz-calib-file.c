// SPDX-License-Identifier: MIT
/* libFuzzer harness: calibration files through pmc__calib_load() and its lookups (calib-file.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include "run/calib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Lookups as pmc stat --subtract-overhead makes them. */
static const char *const backends[] = {"perf", "vpmu"};
static const char *const events[] = {"task-clock", "page-faults", "instructions", ""};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1; /* the file lives in memory: the parser opens it by path */
	struct calib *c;
	char path[64], why[256];
	double v;

	if (fd < 0 && (fd = memfd_create("fuzz-calib", MFD_CLOEXEC)) < 0)
		abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (pmc__calib_load(path, &c, why, sizeof(why))) {
		if (!why[0])
			abort(); /* every refusal says why */
		return 0;
	}
	if (!pmc__calib_date(c) || !pmc__calib_path(c))
		abort();
	/* alone, then as a set (the same lookups prefer the set's entries) */
	for (size_t i = 0; i < 4 * sizeof(events) / sizeof(events[0]); i++) {
		if (i == 2 * sizeof(events) / sizeof(events[0]) && pmc__calib_use_set(c, events, 3))
			abort();
		for (unsigned priv = 1; priv <= 3; priv++) {
			const char *ev = events[(i / 2) % (sizeof(events) / sizeof(events[0]))];

			pmc__calib_per_entry(c, backends[i % 2], ev, priv, i & 1, &v);
			pmc__calib_first_entry(c, backends[i % 2], ev, priv, i & 1, &v);
			pmc__calib_per_run(c, backends[i % 2], ev, priv, &v);
		}
	}
	pmc__calib_free(c);
	return 0;
}
