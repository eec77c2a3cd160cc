// SPDX-License-Identifier: MIT
/*
 * Results files written whole or not at all (see include/pmc/outfile.h), without letting
 * another user redirect them: everything below the target's folder is done relative to
 * the folder's descriptor, and a symbolic link is followed only where the kernel's rule
 * for sticky folders (fs.protected_symlinks) would follow it, as checked here by hand,
 * since pmc resolves the link itself to keep it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <pmc/error.h>
#include <pmc/outfile.h>
#include "core/outfile-at.h"
#include "opts.h"
#include "outfile.h"

/* Links followed from one name, as the kernel's limit (MAXSYMLINKS). */
#define MAX_LINKS 40

/*
 * The kernel's rule for links in sticky, world-writable folders: follow one only when the
 * follower or the folder's owner owns it. Applied whatever fs.protected_symlinks says.
 */
static bool may_follow(int dirfd, const struct stat *link)
{
	struct stat dir;

	if (fstat(dirfd, &dir))
		return false;
	if (!(dir.st_mode & S_ISVTX) || !(dir.st_mode & S_IWOTH))
		return true;
	return link->st_uid == geteuid() || link->st_uid == dir.st_uid;
}

/* Splits path into its folder (opened, O_PATH) and its last name (allocated). */
static int open_parent(const char *path, int *dirfd, char **name)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (!*path || (slash && !slash[1]))
		return -EISDIR;
	if (!slash)
		dir = strdup(".");
	else
		dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
	*name = strdup(slash ? slash + 1 : path);
	if (!dir || !*name) {
		free(dir);
		return -ENOMEM;
	}
	*dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return *dirfd < 0 ? -errno : 0;
}

/* The path a link at name in the folder of path names, relative links made whole. */
static int link_target(int dirfd, const char *name, const char *path, char **out)
{
	char buf[PATH_MAX];
	const char *slash = strrchr(path, '/');
	ssize_t n = readlinkat(dirfd, name, buf, sizeof(buf) - 1);

	if (n < 0)
		return -errno;
	buf[n] = 0;
	if (buf[0] == '/' || !slash)
		*out = strdup(buf);
	else if (asprintf(out, "%.*s/%s", (int)(slash - path + 1), path, buf) < 0)
		*out = NULL;
	return *out ? 0 : -ENOMEM;
}

/* Creates "NAME.pmc-tmp-XXXXXX" beside the target; the options' mode less the umask. */
static int open_temp(struct pmc_outfile *o)
{
	for (int tries = 0; tries < 100; tries++) {
		unsigned long long r = 0;

		if (getrandom(&r, sizeof(r), 0) < 0)
			r = (unsigned long long)getpid() << 20 ^ (unsigned long long)tries;
		free(o->tmp);
		if (asprintf(&o->tmp, "%s.pmc-tmp-%06llx", o->name, r & 0xffffff) < 0) {
			o->tmp = NULL;
			return -ENOMEM;
		}
		o->fd = openat(o->dirfd, o->tmp,
			       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			       o->opts.mode ? o->opts.mode : 0666);
		if (o->fd >= 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	free(o->tmp);
	o->tmp = NULL;
	return -errno;
}

/*
 * A FIFO is opened for writing without blocking, which fails (ENXIO) while no process has it
 * open for reading: pmc waits up to FIFO_WAIT_MS for a reader, then fails (-PMC_E_NOREADER)
 * rather than hanging before its work starts as a blocking open would. Writes then block.
 */
#define FIFO_WAIT_MS 10000
#define FIFO_POLL_MS 10

static int open_fifo(struct pmc_outfile *o)
{
	const struct timespec step = {0, FIFO_POLL_MS * 1000000L};

	for (int waited = 0;; waited += FIFO_POLL_MS) {
		o->fd = openat(o->dirfd, o->name,
			       O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
		if (o->fd >= 0)
			break;
		if (errno != ENXIO)
			return -errno;
		if (waited >= FIFO_WAIT_MS)
			return -PMC_E_NOREADER;
		nanosleep(&step, NULL);
	}
	if (fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) & ~O_NONBLOCK))
		return -errno;
	return 0;
}

/* CAP_FOWNER, which lets a rename replace another user's file in a sticky folder. */
static bool has_fowner(void)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2] = {0};

	return !syscall(SYS_capget, &hdr, data) && (data[0].effective & (1u << CAP_FOWNER));
}

/*
 * The rename that commits may replace st, the target, in dirfd: in a sticky folder only
 * the file's owner, the folder's owner or CAP_FOWNER may (EPERM after the work otherwise).
 */
static int may_replace(int dirfd, const struct stat *st)
{
	struct stat dir;

	if (fstat(dirfd, &dir) || !(dir.st_mode & S_ISVTX))
		return 0;
	if (st->st_uid == geteuid() || dir.st_uid == geteuid() || has_fowner())
		return 0;
	return -EPERM;
}

/* A descriptor that pmc writes to must be open for writing (a closed stdout is not). */
static int writable_fd(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 || (fl & O_ACCMODE) == O_RDONLY ? -EBADF : 0;
}

/* Writes to the descriptor fd of this process, in place at its offset (a dup). */
static int open_fd(struct pmc_outfile *o, int fd)
{
	int err = writable_fd(fd);

	if (err || o->probe)
		return err;
	o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	return o->fd < 0 ? -errno : 0;
}

/* A device, FIFO or terminal, written where it is: a check opens nothing (a FIFO's reader
 * would see the end of its input). */
static int open_in_place(struct pmc_outfile *o, const struct stat *st)
{
	if (o->probe)
		return faccessat(o->dirfd, o->name, W_OK, AT_EACCESS) ? -errno : 0;
	if (S_ISFIFO(st->st_mode))
		return open_fifo(o);
	o->fd = openat(o->dirfd, o->name, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	return o->fd < 0 ? -errno : 0;
}

/*
 * A link in /proc names an open file rather than a path (/dev/stdout, /dev/fd/N, a shell's
 * >(cmd)): one of pmc's own descriptors is written through a dup, another process's pipe or
 * device is opened through the link. Returns 1 for a regular file of another process,
 * followed as a path.
 */
static int open_proc_link(struct pmc_outfile *o)
{
	struct stat via, mine;
	char *end;
	long fd = strtol(o->name, &end, 10);

	if (fstatat(o->dirfd, o->name, &via, 0))
		return -errno;
	if (*o->name && !*end && fd >= 0 && fd < INT_MAX && !fstat((int)fd, &mine) &&
	    mine.st_dev == via.st_dev && mine.st_ino == via.st_ino)
		return open_fd(o, (int)fd);
	if (S_ISREG(via.st_mode))
		return 1;
	if (S_ISDIR(via.st_mode))
		return -EISDIR;
	if (o->probe)
		return faccessat(o->dirfd, o->name, W_OK, AT_EACCESS) ? -errno : 0;
	o->fd = openat(o->dirfd, o->name, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	return o->fd < 0 ? -errno : 0;
}

/* A regular file or a new one: a temporary file beside it, or opened to append to. */
static int open_regular(struct pmc_outfile *o, const struct stat *st)
{
	int err = st && !o->opts.append ? may_replace(o->dirfd, st) : 0;

	if (err || !o->opts.append || (o->probe && !st))
		return err ?: open_temp(o);
	if (o->probe)
		return faccessat(o->dirfd, o->name, W_OK, AT_EACCESS) ? -errno : 0;
	o->fd = openat(o->dirfd, o->name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		       o->opts.mode ? o->opts.mode : 0666);
	return o->fd < 0 ? -errno : 0;
}

/* Opens path for o, following at most links more links. */
static int open_target(struct pmc_outfile *o, const char *path, int links)
{
	struct stat st;
	struct statfs fs;
	char *next;
	int err = open_parent(path, &o->dirfd, &o->name);

	if (err)
		return err;
	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? open_regular(o, NULL) : -errno;
	if (S_ISREG(st.st_mode))
		return open_regular(o, &st);
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISLNK(st.st_mode))
		return open_in_place(o, &st);
	if (!links)
		return -ELOOP;
	if (!may_follow(o->dirfd, &st))
		return -PMC_E_UNSAFELINK;
	if (!fstatfs(o->dirfd, &fs) && fs.f_type == PROC_SUPER_MAGIC) {
		err = open_proc_link(o);
		if (err <= 0)
			return err;
	}
	err = link_target(o->dirfd, o->name, path, &next);
	close(o->dirfd);
	o->dirfd = -1;
	free(o->name);
	o->name = NULL;
	if (!err)
		err = open_target(o, next, links - 1);
	free(next);
	return err;
}

/* "NAME.old" in the target's folder, which keep_old replaces: a folder there is refused. */
static int old_name(const struct pmc_outfile *o, char **out)
{
	struct stat st;

	if (asprintf(out, "%s.old", o->name) < 0) {
		*out = NULL;
		return -ENOMEM;
	}
	if (!fstatat(o->dirfd, *out, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode)) {
		free(*out);
		*out = NULL;
		return -PMC_E_OLDDIR;
	}
	return 0;
}

/*
 * perf's rule for perf.data.old: a regular target with content is kept under NAME.old
 * (a hard link, so that NAME is never missing; a rename where the file system has none)
 * before the new file takes its name. A link or file at NAME.old is replaced, never
 * followed.
 */
static int keep_old(const struct pmc_outfile *o)
{
	struct stat st;
	char *old;
	int err;

	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
	    !st.st_size)
		return 0;
	err = old_name(o, &old);
	if (err)
		return err;
	if (unlinkat(o->dirfd, old, 0) && errno != ENOENT)
		err = -errno;
	else if (linkat(o->dirfd, o->name, o->dirfd, old, 0) &&
		 renameat(o->dirfd, o->name, o->dirfd, old))
		err = -errno;
	free(old);
	return err;
}

int pmc_outfile__open(const char *path, struct pmc_outfile **out)
{
	return pmc_outfile__open_opts(path, NULL, out);
}

static int open_any(const char *path, const struct pmc_outfile_opts *opts, bool probe,
		    struct pmc_outfile **out)
{
	struct pmc_outfile *o = calloc(1, sizeof(*o));
	int err = 0;

	if (!o)
		return -ENOMEM;
	o->fd = -1;
	o->dirfd = -1;
	o->probe = probe;
	err = PMC_OPTS_COPY(pmc_outfile_opts, &o->opts, opts, sz);
	if (!err && !strcmp(path, "-"))
		err = open_fd(o, STDOUT_FILENO);
	else if (!err)
		err = open_target(o, path, MAX_LINKS);
	if (!err && o->tmp && o->opts.keep_old) { /* a folder at NAME.old fails before any work */
		char *old;

		err = old_name(o, &old);
		free(old);
	}
	if (err) {
		pmc_outfile__abort(o);
		return err;
	}
	*out = o;
	return 0;
}

int pmc_outfile__open_opts(const char *path, const struct pmc_outfile_opts *opts,
			   struct pmc_outfile **out)
{
	return open_any(path, opts, false, out);
}

int pmc_outfile__check(const char *path, const struct pmc_outfile_opts *opts)
{
	struct pmc_outfile *o;
	int err = open_any(path, opts, true, &o);

	if (!err)
		pmc_outfile__abort(o);
	return err;
}

int pmc__outfile_openat(int dirfd, const char *name, const struct pmc_outfile_opts *opts,
			struct pmc_outfile **out)
{
	struct pmc_outfile *o = calloc(1, sizeof(*o));
	struct stat st;
	int err;

	if (!o)
		return -ENOMEM;
	o->fd = -1;
	o->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	o->name = strdup(name);
	err = PMC_OPTS_COPY(pmc_outfile_opts, &o->opts, opts, sz);
	if (!err && (o->dirfd < 0 || !o->name))
		err = o->dirfd < 0 ? -errno : -ENOMEM;
	if (!err && !fstatat(o->dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		err = S_ISLNK(st.st_mode)    ? -ELOOP
		      : S_ISDIR(st.st_mode)  ? -EISDIR
		      : !S_ISREG(st.st_mode) ? -PMC_E_NOTREG
					     : 0;
	if (!err)
		err = open_temp(o);
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
		o->stream = pmc__outfile_stream(o);
	return o->stream;
}

/* The stream flushed and closed, the descriptor closed: the first error each met. */
static int close_all(struct pmc_outfile *o)
{
	int err = 0;

	if (o->stream && fclose(o->stream))
		err = o->err ?: -EIO;
	o->stream = NULL;
	err = err ?: o->err;
	if (!err && o->opts.append)
		err = pmc__outfile_append(o);
	if (o->fd >= 0 && close(o->fd) && !err && errno != EINTR)
		err = -errno;
	o->fd = -1;
	return err;
}

int pmc_outfile__commit(struct pmc_outfile *o)
{
	int err = close_all(o);

	if (!err && o->tmp && o->opts.keep_old)
		err = keep_old(o);
	if (!err && o->tmp && renameat(o->dirfd, o->tmp, o->dirfd, o->name))
		err = -errno;
	if (!err && o->tmp) {
		free(o->tmp);
		o->tmp = NULL; /* committed: abort must not remove it */
	}
	pmc_outfile__abort(o);
	return err;
}

int pmc_outfile__fail(struct pmc_outfile *o, int err)
{
	if (!o)
		return err;
	if (o->stream)
		fflush(o->stream); /* a write error the stream still holds is the reason */
	err = o->err ?: err;
	pmc_outfile__abort(o);
	return err;
}

void pmc_outfile__abort(struct pmc_outfile *o)
{
	if (!o)
		return;
	o->aborted = true;
	if (o->stream)
		fclose(o->stream);
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlinkat(o->dirfd, o->tmp, 0);
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->tmp);
	free(o->name);
	free(o->buf);
	free(o);
}
