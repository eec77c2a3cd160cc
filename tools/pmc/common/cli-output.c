// SPDX-License-Identifier: MIT
/* What every command says when its output cannot be written (docs/security.md). */
#include <errno.h>
#include <string.h>
#include "cli.h"

int cli_say_unwritable(const char *cmd, const char *path, int err)
{
	const char *name = !path || !strcmp(path, "-") ? "stdout" : cli_show(path);

	if (err == -ENOSPC)
		fprintf(stderr, "pmc %s: no space left on %s%s\n", cmd, name,
			strcmp(name, "stdout") ? "; a file there was kept as it was" : "");
	else
		fprintf(stderr, "pmc %s: cannot write %s: %s\n", cmd, name,
			pmc_strerror(err < 0 ? err : -EIO));
	return 1;
}
