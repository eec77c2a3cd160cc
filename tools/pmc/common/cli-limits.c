// SPDX-License-Identifier: MIT
/*
 * The open-file limit: each event takes a descriptor per thread or CPU, so long event lists
 * meet RLIMIT_NOFILE. As perf does, pmc raises its soft limit to the hard one when an open
 * fails with EMFILE and tries once more; past the hard limit it says how many it needed.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include "cli.h"

bool cli_raise_nofile(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_cur >= r.rlim_max)
		return false;
	r.rlim_cur = r.rlim_max;
	return !setrlimit(RLIMIT_NOFILE, &r);
}

void cli_say_nofile(const char *cmd, size_t nr_events)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return;
	fprintf(stderr,
		"%s: %zu events take at least %zu file descriptors (one per event, thread and "
		"CPU), above the limit of open files, %llu (ulimit -n): raise it (ulimit -n "
		"%zu) or count fewer events at a time\n",
		cmd, nr_events, nr_events, (unsigned long long)r.rlim_cur, nr_events + 64);
}
