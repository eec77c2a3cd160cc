// SPDX-License-Identifier: MIT
/*
 * pmc's cache folder, ${XDG_CACHE_HOME:-~/.cache}/pmc, walked one folder at a time so that a
 * symbolic link or a folder another user planted is never followed nor written into
 * (docs/security.md, "pmc's data folder": caches obey the same rules).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pmc/error.h>
#include "core/cachedir.h"
#include "core/datadir.h"
#include "core/walkdir.h"

/* The base folder: $XDG_CACHE_HOME when absolute (the XDG spec ignores a relative one). */
static int base_dir(char *buf, size_t len)
{
	const char *x = secure_getenv("XDG_CACHE_HOME"), *home = secure_getenv("HOME");
	int n;

	if (x && x[0] == '/')
		n = snprintf(buf, len, "%s", x);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache", home);
	else
		return -ENOENT;
	return n < (int)len ? 0 : -ENAMETOOLONG;
}

/* A folder fit to hold the cache: the caller's, writable by no one else. */
static int fit(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	return st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH)) ? 0 : -EPERM;
}

int pmc__cache_dir(const char *sub, bool make, char *buf, size_t len)
{
	char base[4096], *path;
	struct stat l;
	int fd, err;

	err = base_dir(base, sizeof(base));
	if (!err && snprintf(buf, len, "%s/pmc%s%s", base, sub && *sub ? "/" : "",
			     sub ? sub : "") >= (int)len)
		err = -ENAMETOOLONG;
	if (err)
		return err;
	if (make)
		pmc__make_folders(base); /* as the XDG spec asks: 0700; checked below */
	/* The base may be a link of the caller's own (~/.cache on another disk), no other. */
	if (lstat(base, &l))
		return -errno;
	if (S_ISLNK(l.st_mode) && l.st_uid != geteuid())
		return -PMC_E_UNSAFELINK;
	fd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (asprintf(&path, "pmc%s%s", sub && *sub ? "/" : "", sub ? sub : "") < 0) {
		close(fd);
		return -ENOMEM;
	}
	err = fit(fd);
	if (!err) {
		int dir = pmc__walk_dir(fd, path, make ? 0700 : 0, fit);

		err = dir == -ELOOP || dir == -ENOTDIR ? -PMC_E_UNSAFELINK : dir < 0 ? dir : 0;
		if (dir >= 0)
			close(dir);
	}
	close(fd);
	free(path);
	return err;
}
