// SPDX-License-Identifier: MIT
/*
 * perf's build-id cache (buildid.h; docs/sample-file.md, "The build-id cache"): pmc record
 * keeps a copy of each sampled object as DIR/PATH/ID/elf with the link
 * DIR/.build-id/ID[0..2]/ID[2..] -> ../../PATH/ID, so that pmc report and perf report read
 * the object that was measured even after it was rebuilt. Below DIR each folder is made
 * (0755, as perf makes them) and opened by descriptor without following links (walkdir.c) (a link
 * planted as a folder or as the file is refused), and the copy is written whole through
 * pmc_outfile.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include "core/log.h"
#include "core/readall.h"
#include "core/outfile.h"
#include "core/outfile-at.h"
#include "core/walkdir.h"
#include "symbol/buildid.h"
#include "symbol/symtab.h"

/*
 * The build-id cache's folder, perf's: $PERF_BUILDID_DIR, else $HOME/.debug. 0, or -ENOENT
 * without either, -ENAMETOOLONG.
 */
static int buildid_dir(char *buf, size_t len)
{
	const char *env = secure_getenv("PERF_BUILDID_DIR"), *home = secure_getenv("HOME");
	int n;

	if (env && env[0] == '/')
		n = snprintf(buf, len, "%s", env);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.debug", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The cache's root, made where missing (its own path is the user's: followed). */
static int open_root(void)
{
	char dir[4096];
	int fd, ret = buildid_dir(dir, sizeof(dir));

	if (ret)
		return ret;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Writes the image's bytes as name in folder dirfd, whole or not at all (mode 0600). */
static int write_copy(int dirfd, const char *name, const void *img, size_t size)
{
	static const struct pmc_outfile_opts opts = {.sz = sizeof(opts), .mode = 0600};
	struct pmc_outfile *o;
	int ret = pmc__outfile_openat(dirfd, name, &opts, &o);

	if (ret)
		return ret;
	/* as every write of a file: a file size limit is EFBIG, not SIGXFSZ */
	ret = pmc__outfile_pwrite_all(pmc_outfile__fd(o), img, size, -1);
	if (ret) {
		pmc_outfile__abort(o);
		return ret;
	}
	return pmc_outfile__commit(o);
}

/*
 * DIR/NAME/ID/FILE from the image (NAME: the object's path without its leading slash, or
 * "[kernel.kallsyms]"; FILE: "elf" or "kallsyms"), when not there yet, then the .build-id
 * link to its folder.
 */
static int add_entry(int root, const char *name, const char *hex, const char *file, const void *img,
		     size_t size)
{
	char rel[4096 + PMC_BUILD_ID_HEX + 8], link[16];
	struct stat st;
	int dir, ret = 0;

	if (snprintf(rel, sizeof(rel), "%s/%s", name, hex) >= (int)sizeof(rel))
		return -ENAMETOOLONG;
	dir = pmc__walk_dir(root, rel, 0755, NULL);
	if (dir < 0)
		return dir;
	/* a copy there is kept; a link or other thing planted there is refused */
	if (fstatat(dir, file, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
		ret = write_copy(dir, file, img, size);
	close(dir);
	snprintf(link, sizeof(link), ".build-id/%.2s", hex);
	if (!ret && (dir = pmc__walk_dir(root, link, 0755, NULL)) < 0)
		ret = dir;
	if (ret)
		return ret;
	/* "../../NAME/ID", relative as perf makes it, so the cache can be moved whole */
	snprintf(rel, sizeof(rel), "../../%s/%s", name, hex);
	if (symlinkat(rel, dir, hex + 2) && errno != EEXIST)
		ret = -errno;
	close(dir);
	return ret;
}

int pmc__buildid_cache_add(const char *path, const char *hex)
{
	char have[PMC_BUILD_ID_HEX];
	int fd, root, ret;
	struct stat st;
	void *img;

	if (path[0] != '/' || strlen(hex) < 4)
		return -EINVAL;
	fd = pmc_open_input(path);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		return -ENOENT;
	}
	img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return -errno;
	/* the file as it is now: rebuilt since it was mapped, it is not the one measured */
	ret = pmc__build_id_of_image(img, (size_t)st.st_size, have);
	if (!ret && strcmp(have, hex))
		ret = -ESTALE;
	root = ret ? -1 : open_root();
	if (!ret && root < 0)
		ret = root;
	if (!ret)
		ret = add_entry(root, path + 1, hex, "elf", img, (size_t)st.st_size);
	if (root >= 0)
		close(root);
	munmap(img, (size_t)st.st_size);
	return ret;
}

/* The cached file of build id hex named file (DIR/.build-id/../../file) into path. */
static int cached_path(const char *hex, const char *file, char *path, size_t len)
{
	char dir[4096];
	int ret = buildid_dir(dir, sizeof(dir));

	if (ret)
		return ret;
	if (strlen(hex) < 4 ||
	    snprintf(path, len, "%s/.build-id/%.2s/%s/%s", dir, hex, hex + 2, file) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* Whether some line of a kallsyms file has an address: without, the copy names nothing. */
static bool has_addresses(const char *p)
{
	for (; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
		if (strspn(p, "0") < 16 && strspn(p, "0123456789abcdef") >= 8)
			return true;
	return false;
}

int pmc__buildid_cache_add_kallsyms(const char *hex)
{
	char path[4096 + 64];
	size_t len = 0;
	char *buf;
	int fd, root, ret = cached_path(hex, "kallsyms", path, sizeof(path));

	if (ret || !access(path, F_OK))
		return ret;
	fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = pmc__read_all(fd, &len);
	close(fd);
	if (!buf)
		return -ENOMEM;
	ret = has_addresses(buf) ? 0 : -EPERM; /* kptr_restrict: perf keeps none either */
	root = ret ? -1 : open_root();
	if (!ret && root < 0)
		ret = root;
	if (!ret)
		ret = add_entry(root, "[kernel.kallsyms]", hex, "kallsyms", buf, len);
	if (root >= 0)
		close(root);
	free(buf);
	return ret;
}

/* path in buf when it is a file that carries build id hex. 0, or -ENOENT. */
static int matching(const char *path, const char *hex, char *buf, size_t len)
{
	char have[PMC_BUILD_ID_HEX];

	if (strlen(path) >= len || pmc__build_id_of_file(path, have) || strcmp(have, hex))
		return -ENOENT;
	strcpy(buf, path);
	return 0;
}

/*
 * The cached copy of build id hex (DIR/.build-id/../../elf) in buf, when it is there and
 * carries that build id. 0, -ENOENT, or -ENAMETOOLONG.
 */
static int buildid_cache_find(const char *hex, char *buf, size_t len)
{
	char path[4096 + 64];
	int ret = cached_path(hex, "elf", path, sizeof(path));

	return ret ? ret : matching(path, hex, buf, len);
}

/* A copy of the object with build id hex: the cache's, else a separate debug file's. */
static const char *find_copy(struct pmc__dso *d, const char *hex)
{
	char buf[4096], path[128];

	if (!buildid_cache_find(hex, buf, sizeof(buf)))
		return pmc__symtab_intern(d->st, buf);
	snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
	if (!matching(path, hex, buf, sizeof(buf)))
		return pmc__symtab_intern(d->st, buf);
	return NULL;
}

int pmc__dso_expect_build_id(struct pmc__dso *d, const char *hex)
{
	char have[PMC_BUILD_ID_HEX], dir[4096] = "~/.debug";
	int ret;

	if (d->bid_checked)
		return d->mismatch ? -ESTALE : 0;
	d->bid_checked = true;
	ret = pmc__build_id_of_file(d->path, have);
	if ((!ret && !strcmp(have, hex)) || strlen(hex) < 4)
		return 0;
	d->file = find_copy(d, hex);
	/* a file that is gone or unreadable stays unnamed, as before: only a different one is
	 * marked */
	if (d->file || (ret && ret != -ENOENT) || access(d->path, F_OK))
		return 0;
	d->mismatch = true;
	buildid_dir(dir, sizeof(dir));
	pr_warn("%s is not the file that was recorded (build id %s, recorded %s) and no copy "
		"with the recorded build id was found (%s/.build-id, /usr/lib/debug/.build-id): "
		"its samples are shown as [build id mismatch]; record again, or keep the "
		"build-id cache (pmc record without -N)\n",
		d->path, ret ? "none" : have, hex, dir);
	return -ESTALE;
}

int pmc__symtab_expect_kernel(struct pmc__symtab *st, const char *hex)
{
	char have[PMC_BUILD_ID_HEX], path[4096 + 64];
	struct pmc__dso *k = pmc__symtab_kernel(st);

	if (st->opts.kallsyms || !k || k->bid_checked || pmc__build_id_of_kernel(have) ||
	    !strcmp(have, hex))
		return 0; /* named by the user, checked, unknown, or the running kernel */
	k->bid_checked = true;
	if (!cached_path(hex, "kallsyms", path, sizeof(path)) && !access(path, R_OK)) {
		st->opts.kallsyms = strdup(path);
		return st->opts.kallsyms ? 0 : -ENOMEM;
	}
	k->mismatch = true;
	pr_warn("the recording's kernel (build id %s) is not the running one (%s) and no copy of "
		"its symbols was found (%s): its samples are shown as [build id mismatch]; "
		"name its symbols with --kallsyms\n",
		hex, have, path);
	return -ESTALE;
}
