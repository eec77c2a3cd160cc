// SPDX-License-Identifier: MIT
/*
 * How a results file is written (include/pmc/outfile.h): a stream that keeps the first
 * write error (ENOSPC, EFBIG) for the commit to report, and appends kept in memory and
 * written whole, one write(2) under the file's lock, so that concurrent appenders meet only
 * at run boundaries and a failed append is cut back to where the file ended.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "outfile.h"

int pmc__outfile_pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	const char *p = buf;
	int err = 0;

	/* a file size limit (ulimit -f) would kill pmc with SIGXFSZ: EFBIG is said instead */
	sigaction(SIGXFSZ, &ign, &old);
	while (len) {
		ssize_t n = off < 0 ? write(fd, p, len) : pwrite(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		p += n;
		len -= (size_t)n;
		off += off < 0 ? 0 : n;
	}
	sigaction(SIGXFSZ, &old, NULL);
	return err;
}

/*
 * Writes the whole of buf to fd, SIGXFSZ ignored so that a file size limit is EFBIG (a write
 * that writes nothing is EIO). Returns 0 or a negative errno.
 */
static int outfile_write_all(int fd, const void *buf, size_t len)
{
	return pmc__outfile_pwrite_all(fd, buf, len, -1);
}

static int buffer_add(struct pmc_outfile *o, const char *buf, size_t len)
{
	if (o->len + len > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *p;

		while (cap < o->len + len)
			cap *= 2;
		p = realloc(o->buf, cap);
		if (!p)
			return -ENOMEM;
		o->buf = p;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, buf, len);
	o->len += len;
	return 0;
}

static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct pmc_outfile *o = cookie;
	int err;

	if (o->aborted)
		return (ssize_t)len;
	if (o->err)
		return 0;
	err = o->opts.append ? buffer_add(o, buf, len) : outfile_write_all(o->fd, buf, len);
	if (err) {
		o->err = err;
		return 0;
	}
	return (ssize_t)len;
}

FILE *pmc__outfile_stream(struct pmc_outfile *o)
{
	cookie_io_functions_t io = {.write = cookie_write};

	fflush(stdout); /* what pmc printed on stdout goes first */
	return fopencookie(o, "w", io);
}

int pmc__outfile_append(struct pmc_outfile *o)
{
	struct stat st;
	bool regular = !fstat(o->fd, &st) && S_ISREG(st.st_mode);
	int err = 0;

	if (!o->len)
		return 0;
	if (regular && flock(o->fd, LOCK_EX))
		return -errno;
	/* O_APPEND: the write goes to the end; under the lock, st_size is where it starts */
	if (regular && fstat(o->fd, &st))
		err = -errno;
	if (!err)
		err = outfile_write_all(o->fd, o->buf, o->len);
	/* the file as it was: no half run left at its end (the error said is the write's) */
	if (err && regular)
		(void)!ftruncate(o->fd, st.st_size);
	if (regular)
		flock(o->fd, LOCK_UN);
	return err;
}
