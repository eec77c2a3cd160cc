// SPDX-License-Identifier: MIT
/*
 * The kernel symbol cache: /proc/kallsyms's text symbols, kept in the user's cache folder
 * under a name keyed by the boot id (and the loaded modules), so that only the first report
 * after a boot pays for the kernel formatting 120,000 lines (docs/report.md, "Kernel
 * symbols").
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include <pmc/outfile.h>
#include "core/log.h"
#include "core/cachedir.h"
#include "symbol/symtab.h"

/* The folder: $XDG_CACHE_HOME/pmc, else $HOME/.cache/pmc, checked (lib/core/cachedir.h). */
static int cache_dir(char *buf, size_t len, bool make)
{
	return pmc__cache_dir("", make, buf, len);
}

static uint64_t fnv(const char *s, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* A small /proc file's first len - 1 bytes, NUL-terminated; its length, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return (ssize_t)n;
}

/*
 * The key of this boot's kernel symbols: the boot id, and a hash of /proc/modules (modules
 * loaded or unloaded since the boot change kallsyms). 0, or -ENOENT without a boot id.
 */
static int cache_key(char *key, size_t len)
{
	char id[64], mods[8192];
	uint64_t h = 1469598103934665603ull;
	ssize_t n = read_small("/proc/sys/kernel/random/boot_id", id, sizeof(id));
	FILE *f;

	if (n < 36)
		return -ENOENT;
	id[36] = 0;
	f = fopen("/proc/modules", "re");
	while (f && (n = (ssize_t)fread(mods, 1, sizeof(mods), f)) > 0)
		h = fnv(mods, (size_t)n, h);
	if (f)
		fclose(f);
	snprintf(key, len, "kallsyms-%s-%016" PRIx64, id, h);
	return 0;
}

int pmc__kcache_open(char *path, size_t len)
{
	char dir[4000], key[128];
	struct stat sb;
	int fd, err = cache_dir(dir, sizeof(dir), false);

	/* path is filled for pmc__kcache_write() even when the folder is not there yet. */
	if ((err && err != -ENOENT) || cache_key(key, sizeof(key)) ||
	    snprintf(path, len, "%s/%s", dir, key) >= (int)len)
		return -ENOENT;
	fd = err ? err : pmc_open_input(path);
	if (fd < 0)
		return fd;
	/* Only a file of the user's own: another's could name any address anything. */
	if (fstat(fd, &sb) || sb.st_uid != geteuid()) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* Removes the caches of earlier boots (every kallsyms-* but keep). */
static void remove_stale(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "kallsyms-", 9) && strcmp(e->d_name, keep) &&
		    !strstr(e->d_name, ".pmc-tmp-"))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
}

void pmc__kcache_write(const struct pmc__symtab *st, const char *path)
{
	char dir[4096], checked[4096], *slash;
	struct pmc_outfile *o;
	FILE *f;
	int err;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		return;
	*slash = 0;
	/* $HOME/.cache may not exist yet: made as the XDG base-directory spec asks (0700), and
	 * a folder of another user's (as root with their environment) is not written into. */
	if (cache_dir(checked, sizeof(checked), true) || strcmp(checked, dir) ||
	    pmc_outfile__open(path, &o))
		return;
	f = pmc_outfile__stream(o);
	for (size_t i = 0; f && i < st->nr_ksyms; i++)
		fprintf(f, "%016" PRIx64 " t %s\n", st->ksyms[i].addr, st->ksyms[i].name);
	err = f ? pmc_outfile__commit(o) : -ENOMEM;
	if (!f)
		pmc_outfile__abort(o);
	if (err)
		pr_debug("cannot write the kernel symbol cache %s: %s\n", path, pmc_strerror(err));
	else
		remove_stale(dir, slash + 1);
}
