// SPDX-License-Identifier: MIT
/* Results files written whole or not at all: a temporary name beside the target, renamed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

int cli_outfile_open(struct cli_outfile *o, const char *path)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->path = strdup(path);
	if (!o->path || asprintf(&o->tmp, "%s.tmp.XXXXXX", path) < 0) {
		free(o->path);
		return -ENOMEM;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int err = -errno;

		if (fd >= 0)
			close(fd), unlink(o->tmp);
		free(o->tmp);
		free(o->path);
		memset(o, 0, sizeof(*o));
		return err;
	}
	return 0;
}

int cli_outfile_commit(struct cli_outfile *o)
{
	int err = 0;

	if (o->f == stdout)
		return fflush(stdout) || ferror(stdout) ? -EIO : 0;
	if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f)))
		err = -errno ? -errno : -EIO;
	if (fclose(o->f) && !err)
		err = -errno;
	o->f = NULL;
	if (!err && rename(o->tmp, o->path))
		err = -errno;
	if (err)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return err;
}

void cli_outfile_abort(struct cli_outfile *o)
{
	if (o->f && o->f != stdout) {
		fclose(o->f);
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}
