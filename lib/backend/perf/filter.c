// SPDX-License-Identifier: MIT
/*
 * Tracepoint filters (pmc_evsel__set_filter()): tried on a user-level counter of the
 * tracepoint on pmc itself, so that a filter the kernel's parser rejects is said before a
 * run; the real counters get it when they open (open.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "backend/perf/perf.h"
#include "core/tracefs.h"
#include "event/evsel.h"

/* "syscalls/sys_enter_write" of the event's name "syscalls:sys_enter_write[:mods]". */
static void event_dir(const struct pmc_evsel *evsel, char *buf, size_t len)
{
	const char *colon = strchr(evsel->name, ':');
	size_t sys = colon ? (size_t)(colon - evsel->name) : 0;
	const char *ev = colon ? colon + 1 : evsel->name;

	snprintf(buf, len, "%.*s/%.*s", (int)sys, evsel->name, (int)strcspn(ev, ":"), ev);
}

int pmc__perf_check_filter(struct pmc_evsel *evsel, const char *filter, char *why, size_t len)
{
	struct perf_event_attr a = {.size = sizeof(a),
				    .type = evsel->attr.type,
				    .config = evsel->attr.config,
				    .disabled = 1,
				    .exclude_kernel = 1,
				    .exclude_hv = 1};
	const char *root = pmc__tracefs_root();
	char dir[256];
	int fd, err = 0;

	if (evsel->evlist->dry_run)
		return 0;
	/* Pinned, the trial's close does not unregister the tracepoint (pin.c). */
	pmc__perf_pin(a.type, a.config);
	fd = pmc__perf_event_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		return 0; /* the event's own check says why it cannot be counted */
	if (ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
		err = -errno;
		event_dir(evsel, dir, sizeof(dir));
		snprintf(why, len,
			 "the kernel rejects the filter '%s' of '%s' (%s): a filter compares the "
			 "tracepoint's fields (%s/events/%s/format) with numbers or strings, as "
			 "'fd == 1 && count > 0'",
			 filter, evsel->name, strerror(-err), root ? root : "tracefs", dir);
		err = -EINVAL;
	}
	close(fd);
	return err;
}
