// SPDX-License-Identifier: MIT
/* tracefs: found where the kernel puts it, and mounted when it is not and pmc may. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "core/log.h"
#include "core/tracefs.h"

static const char *const roots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

static const char *find(void)
{
	char path[64];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		/* Reading events/ triggers the automount of tracefs where it is configured. */
		snprintf(path, sizeof(path), "%s/events/header_page", roots[i]);
		if (!access(path, R_OK))
			return roots[i];
	}
	return NULL;
}

const char *pmc__tracefs_root(void)
{
	static bool tried;
	const char *root = find();
	struct stat st;

	if (root || tried)
		return root;
	tried = true;
	/* Only on the kernel's own mount point, and only where nothing is mounted yet. */
	if (stat(roots[0], &st) || !S_ISDIR(st.st_mode))
		return NULL;
	if (mount("nodev", roots[0], "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		if (errno != EPERM)
			pr_info("cannot mount tracefs on %s: %s\n", roots[0], strerror(errno));
		return NULL;
	}
	pr_info("mounted tracefs on %s, as perf does\n", roots[0]);
	return find();
}

/* TRACEFS_MAGIC of <linux/magic.h>, spelt out: older headers lack it. */
#define PMC_TRACEFS_MAGIC 0x74726163

const char *pmc__tracefs_unreadable(void)
{
	struct statfs sf;

	/* Only the kernel's own mount point: the debugfs one sits in a root-only folder. */
	if (find() || statfs(roots[0], &sf) || sf.f_type != PMC_TRACEFS_MAGIC)
		return NULL;
	return roots[0];
}
