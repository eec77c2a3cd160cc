// SPDX-License-Identifier: MIT
/*
 * pmc's data folder (docs/security.md, "pmc's data folder"): where pmc calibrate and pmc
 * validate keep this machine's files, made as the XDG base directory spec asks and refused
 * where someone else could have planted it or could change what is in it.
 */
#include <errno.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include <pmc/outfile.h>
#include <pmc/run.h>
#include "core/datadir.h"

int pmc__data_dir(char *buf, size_t len)
{
	const char *xdg = secure_getenv("XDG_DATA_HOME"), *home = secure_getenv("HOME");
	struct passwd pw, *found = NULL;
	char pwbuf[4096];
	int n;

	if (!home || home[0] != '/') {
		home = NULL;
		if (!getpwuid_r(geteuid(), &pw, pwbuf, sizeof(pwbuf), &found) && found &&
		    pw.pw_dir && pw.pw_dir[0] == '/')
			home = pw.pw_dir;
	}
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/pmc", xdg);
	else if (home)
		n = snprintf(buf, len, "%s/.local/share/pmc", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

char *pmc__data_file(const char *env, const char *stem)
{
	const char *e = secure_getenv(env);
	char dir[4096], host[256] = "localhost", *path = NULL;

	if (e && *e)
		return strdup(e);
	if (pmc__data_dir(dir, sizeof(dir)))
		return NULL;
	gethostname(host, sizeof(host) - 1);
	/* a host name is whatever root set: never a folder of its own */
	for (char *s = host; *s; s++)
		*s = *s == '/' ? '_' : *s;
	return asprintf(&path, "%s/%s-%s.json", dir, stem, host) < 0 ? NULL : path;
}

/* path's folder into dir; whether it is the data folder. */
static bool in_data_dir(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	char data[4096];

	snprintf(dir, len, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	return !pmc__data_dir(data, sizeof(data)) && !strcmp(dir, data);
}

/*
 * Whether path's folder is the data folder and fit to hold pmc's files (docs/security.md,
 * "pmc's data folder"): a folder, or a symbolic link to one that the caller owns, owned by
 * the caller and writable by no one else. A path elsewhere ($PMC_CALIBRATION, -o) is not
 * checked. Returns 0; -ENOENT when the folder does not exist; -PMC_E_UNSAFELINK or -EPERM
 * with why (len bytes) saying what is wrong with which folder.
 */
static int data_dir_check(const char *path, char *why, size_t len)
{
	char dir[4096];
	struct stat l, s;
	uid_t me = geteuid();

	if (!in_data_dir(path, dir, sizeof(dir)))
		return 0;
	if (lstat(dir, &l) || stat(dir, &s))
		return -errno;
	if (S_ISLNK(l.st_mode) && l.st_uid != me) {
		snprintf(why, len,
			 "pmc's data folder %s is a symbolic link owned by uid %u, not by you "
			 "(uid %u): it is not followed; remove it, or set XDG_DATA_HOME",
			 dir, (unsigned)l.st_uid, (unsigned)me);
		return -PMC_E_UNSAFELINK;
	}
	if (!S_ISDIR(s.st_mode)) {
		snprintf(why, len, "pmc's data folder %s is not a folder", dir);
		return -ENOTDIR;
	}
	if (s.st_uid != me || (s.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(why, len,
			 "pmc's data folder %s is %s (mode %04o, uid %u): someone else could "
			 "replace its files; %s",
			 dir, s.st_uid != me ? "another user's" : "writable by others than you",
			 (unsigned)(s.st_mode & 07777), (unsigned)s.st_uid,
			 s.st_uid != me
				 ? "remove it, or set XDG_DATA_HOME"
				 : "chmod go-w it (the XDG base directory spec makes it 0700)");
		return -EPERM;
	}
	return 0;
}

int pmc__make_folders(char *dir)
{
	for (char *s = strchr(dir + 1, '/');; s = strchr(s + 1, '/')) {
		int ret;

		if (s)
			*s = '\0';
		ret = mkdir(dir, 0700) && errno != EEXIST ? -errno : 0;
		if (s)
			*s = '/';
		if (ret || !s)
			return ret;
	}
}

int pmc_data_file_prepare(const char *path, char *why, size_t len)
{
	char dir[4096];
	int err = 0;

	snprintf(why, len, "%s", "");
	if (!path || !strcmp(path, "-"))
		return 0;
	if (in_data_dir(path, dir, sizeof(dir))) {
		err = pmc__make_folders(dir);
		if (err) {
			snprintf(why, len, "cannot make pmc's data folder %s: %s", dir,
				 pmc_strerror(err));
			return err;
		}
		err = data_dir_check(path, why, len);
		if (err)
			return err;
	}
	/* the folder takes a file now, before any run (a FIFO is not opened: see the check) */
	err = pmc_outfile__check(path, NULL);
	if (err == -ENOSPC)
		snprintf(why, len, "no space left on %s", path);
	else if (err)
		snprintf(why, len, "cannot write %s: %s", path, pmc_strerror(err));
	return err;
}

int pmc__data_json_load(const char *path, bool is_default, struct json_t **root, char *why,
			size_t len)
{
	json_error_t jerr;
	FILE *f = NULL;
	int err = is_default ? data_dir_check(path, why, len) : 0;

	if (err == -ENOENT)
		err = 0;
	if (!err)
		err = pmc_fopen_input(path, &f);
	if (err) {
		if (!*why)
			snprintf(why, len, "%s", pmc_strerror(err));
		return err;
	}
	*root = json_loadf(f, 0, &jerr);
	fclose(f);
	if (*root)
		return 0;
	snprintf(why, len, "line %d: %s", jerr.line, jerr.text);
	return -PMC_E_FORMAT;
}
