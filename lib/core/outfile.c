// SPDX-License-Identifier: MIT
/* Results files written whole or not at all (see include/pmc/outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pmc/outfile.h>

struct pmc_outfile {
	int fd;
	FILE *stream;
	char *path; /* the target after following links; NULL when written in place */
	char *tmp;
	bool is_stdout;
};

/*
 * The file a symbolic link names, so that renaming replaces the target and keeps the
 * link. A dangling link (its target not yet created) is resolved one level by hand.
 */
static char *resolve(const char *path)
{
	char *real = realpath(path, NULL), link[PATH_MAX], *out;
	const char *slash;
	ssize_t n;

	if (real)
		return real;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return strdup(path);
	link[n] = 0;
	slash = strrchr(path, '/');
	if (link[0] == '/' || !slash)
		return strdup(link);
	return asprintf(&out, "%.*s/%s", (int)(slash - path), path, link) < 0 ? NULL : out;
}

/* Opens a temporary file beside path with the mode a new file would get (umask applied). */
static int open_temp(struct pmc_outfile *o, const char *path)
{
	mode_t mask = umask(0);

	umask(mask);
	o->path = resolve(path);
	if (!o->path || asprintf(&o->tmp, "%s.XXXXXX", o->path) < 0) {
		o->tmp = NULL;
		return -ENOMEM;
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0)
		return -errno;
	if (fchmod(o->fd, 0666 & ~mask))
		return -errno;
	return 0;
}

int pmc_outfile__open(const char *path, struct pmc_outfile **out)
{
	struct pmc_outfile *o = calloc(1, sizeof(*o));
	struct stat st;
	int err = 0;

	if (!o)
		return -ENOMEM;
	o->fd = -1;
	if (!strcmp(path, "-")) {
		o->is_stdout = true;
		o->fd = STDOUT_FILENO;
	} else if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		err = o->fd < 0 ? -errno : 0;
	} else {
		err = open_temp(o, path);
	}
	if (err) {
		pmc_outfile__abort(o);
		return err;
	}
	*out = o;
	return 0;
}

int pmc_outfile__fd(const struct pmc_outfile *o)
{
	return o->fd;
}

FILE *pmc_outfile__stream(struct pmc_outfile *o)
{
	if (!o->stream)
		o->stream = o->is_stdout ? stdout : fdopen(o->fd, "w");
	return o->stream;
}

int pmc_outfile__commit(struct pmc_outfile *o)
{
	int err = 0;

	if (o->stream && (fflush(o->stream) || ferror(o->stream)))
		err = errno ? -errno : -EIO;
	if (!err && o->tmp && rename(o->tmp, o->path))
		err = -errno;
	if (!err && o->tmp) {
		free(o->tmp);
		o->tmp = NULL; /* committed: abort must not remove it */
	}
	pmc_outfile__abort(o);
	return err;
}

void pmc_outfile__abort(struct pmc_outfile *o)
{
	if (!o)
		return;
	if (o->stream && !o->is_stdout)
		fclose(o->stream);
	else if (o->fd >= 0 && !o->is_stdout)
		close(o->fd);
	else if (o->stream)
		fflush(o->stream);
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
	}
	free(o->path);
	free(o);
}
