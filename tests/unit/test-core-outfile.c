// SPDX-License-Identifier: MIT
/*
 * Results files: whole or not at all, device targets written in place, links followed
 * except another user's in a sticky folder, temporary names recognisable as pmc's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>
#include <criterion/criterion.h>
#include <pmc/error.h>
#include <pmc/outfile.h>
#include "core/outfile-at.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/pmc-outfile-XXXXXX");
	cr_assert(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(outfile, .init = setup, .fini = teardown);

static char *slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static size_t entries(void)
{
	char cmd[96], buf[32];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", dir);
	p = popen(cmd, "r");
	cr_assert(fgets(buf, sizeof(buf), p));
	pclose(p);
	return strtoul(buf, NULL, 10);
}

Test(outfile, appears_only_on_commit_with_the_umask_mode)
{
	struct pmc_outfile *o;
	char path[96], buf[64];
	struct stat st;

	umask(022);
	snprintf(path, sizeof(path), "%s/r.json", dir);
	cr_assert_eq(pmc_outfile__open(path, &o), 0);
	fprintf(pmc_outfile__stream(o), "whole");
	cr_expect_neq(access(path, F_OK), 0, "not visible before commit");
	cr_assert_eq(pmc_outfile__commit(o), 0);
	cr_expect_str_eq(slurp(path, buf, sizeof(buf)), "whole");
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0644);
	cr_expect_eq(entries(), 1, "no temporary file left");
}

Test(outfile, abort_keeps_the_old_file)
{
	struct pmc_outfile *o;
	char path[96], buf[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/r.txt", dir);
	f = fopen(path, "w");
	fputs("old", f);
	fclose(f);
	cr_assert_eq(pmc_outfile__open(path, &o), 0);
	fprintf(pmc_outfile__stream(o), "half a new fi");
	pmc_outfile__abort(o);
	cr_expect_str_eq(slurp(path, buf, sizeof(buf)), "old");
	cr_expect_eq(entries(), 1);
}

Test(outfile, device_targets_are_written_in_place)
{
	struct pmc_outfile *o;
	struct stat st;

	cr_assert_eq(pmc_outfile__open("/dev/null", &o), 0);
	fprintf(pmc_outfile__stream(o), "discarded");
	cr_assert_eq(pmc_outfile__commit(o), 0);
	cr_assert_eq(stat("/dev/null", &st), 0);
	cr_expect(S_ISCHR(st.st_mode), "/dev/null is still a device, not replaced by a file");
}

Test(outfile, symbolic_links_are_followed)
{
	struct pmc_outfile *o;
	char target[96], link[96], buf[64];
	struct stat st;

	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	cr_assert_eq(symlink(target, link), 0);
	cr_assert_eq(pmc_outfile__open(link, &o), 0);
	fprintf(pmc_outfile__stream(o), "via link");
	cr_assert_eq(pmc_outfile__commit(o), 0);
	cr_assert_eq(lstat(link, &st), 0);
	cr_expect(S_ISLNK(st.st_mode), "the link stays a link");
	cr_expect_str_eq(slurp(target, buf, sizeof(buf)), "via link");
}

Test(outfile, unwritable_folder_fails_cleanly)
{
	struct pmc_outfile *o = NULL;

	cr_expect_eq(pmc_outfile__open("/nonexistent-pmc-dir/x.json", &o), -ENOENT);
	cr_expect_null(o);
}

Test(outfile, folders_are_refused_and_not_created)
{
	struct pmc_outfile *o = NULL;
	char path[96];

	cr_expect_eq(pmc_outfile__open(dir, &o), -EISDIR);
	snprintf(path, sizeof(path), "%s/", dir);
	cr_expect_eq(pmc_outfile__open(path, &o), -EISDIR);
	snprintf(path, sizeof(path), "%s/new/x.json", dir);
	cr_expect_eq(pmc_outfile__open(path, &o), -ENOENT);
	cr_expect_null(o);
	cr_expect_eq(entries(), 0, "no folder made on the way");
}

Test(outfile, the_temporary_file_is_named_for_pmc)
{
	struct pmc_outfile *o;
	struct dirent *e;
	char path[96];
	bool seen = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/r.csv", dir);
	cr_assert_eq(pmc_outfile__open(path, &o), 0);
	d = opendir(dir);
	while ((e = readdir(d)))
		seen |= !strncmp(e->d_name, "r.csv.pmc-tmp-", 14) && strlen(e->d_name) == 20;
	closedir(d);
	cr_expect(seen, "r.csv.pmc-tmp-XXXXXX beside the target while it is written");
	pmc_outfile__abort(o);
	cr_expect_eq(entries(), 0);
}

/* Makes dir/shared a sticky world-writable folder with a link to dir/victim owned by uid. */
static void plant_link(uid_t uid, char *link, size_t len, char *victim, size_t vlen)
{
	char shared[96];
	FILE *f;

	snprintf(shared, sizeof(shared), "%s/shared", dir);
	cr_assert_eq(mkdir(shared, 0777), 0);
	cr_assert_eq(chmod(shared, 01777), 0);
	snprintf(victim, vlen, "%s/victim", dir);
	f = fopen(victim, "w");
	fputs("precious", f);
	fclose(f);
	snprintf(link, len, "%s/out.json", shared);
	cr_assert_eq(symlink(victim, link), 0);
	cr_assert_eq(lchown(link, uid, (gid_t)-1), 0);
}

Test(outfile, another_users_link_in_a_sticky_folder_is_not_followed)
{
	struct pmc_outfile *o = NULL;
	char link[96], victim[96], buf[64];
	uid_t other = geteuid() == 0 ? 4242 : geteuid();

	if (geteuid() != 0) {
		/* Only root can give a link away: check the half of the rule a user can build. */
		plant_link(other, link, sizeof(link), victim, sizeof(victim));
		cr_assert_eq(pmc_outfile__open(link, &o), 0, "my own link is followed");
		pmc_outfile__abort(o);
		return;
	}
	plant_link(other, link, sizeof(link), victim, sizeof(victim));
	cr_expect_eq(pmc_outfile__open(link, &o), -PMC_E_UNSAFELINK);
	cr_expect_null(o);
	cr_expect_str_eq(slurp(victim, buf, sizeof(buf)), "precious");
	/* The folder's owner's (root's) link is followed, as the kernel would. */
	cr_assert_eq(lchown(link, 0, (gid_t)-1), 0);
	cr_assert_eq(pmc_outfile__open(link, &o), 0);
	fprintf(pmc_outfile__stream(o), "mine");
	cr_assert_eq(pmc_outfile__commit(o), 0);
	cr_expect_str_eq(slurp(victim, buf, sizeof(buf)), "mine");
}

Test(outfile, links_in_an_ordinary_folder_are_followed_whoever_owns_them)
{
	struct pmc_outfile *o;
	char target[96], link[96], buf[64];

	snprintf(target, sizeof(target), "%s/t", dir);
	snprintf(link, sizeof(link), "%s/l", dir);
	cr_assert_eq(symlink("t", link), 0, "a relative link, resolved from its folder");
	if (geteuid() == 0)
		cr_assert_eq(lchown(link, 4242, (gid_t)-1), 0);
	cr_assert_eq(pmc_outfile__open(link, &o), 0);
	fprintf(pmc_outfile__stream(o), "rel");
	cr_assert_eq(pmc_outfile__commit(o), 0);
	cr_expect_str_eq(slurp(target, buf, sizeof(buf)), "rel");
}

Test(outfile, a_link_loop_fails)
{
	struct pmc_outfile *o = NULL;
	char a[96], b[96];

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	cr_assert_eq(symlink(b, a), 0);
	cr_assert_eq(symlink(a, b), 0);
	cr_expect_eq(pmc_outfile__open(a, &o), -ELOOP);
	cr_expect_null(o);
}

/* pmc__outfile_openat (the build-id cache's files): nothing at the name is followed. */
Test(outfile, openat_refuses_links_and_replaces_files)
{
	char path[128], buf[16];
	struct pmc_outfile *o;
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	cr_assert_geq(fd, 0);
	snprintf(path, sizeof(path), "%s/victim", dir);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs("keep", f);
	fclose(f);
	cr_assert_eq(symlinkat(path, fd, "elf"), 0);
	cr_assert_eq(pmc__outfile_openat(fd, "elf", NULL, &o), -ELOOP);
	cr_assert_eq(unlinkat(fd, "elf", 0), 0);
	cr_assert_eq(mkdirat(fd, "elf", 0700), 0);
	cr_assert_eq(pmc__outfile_openat(fd, "elf", NULL, &o), -EISDIR);
	cr_assert_eq(unlinkat(fd, "elf", AT_REMOVEDIR), 0);
	cr_assert_eq(pmc__outfile_openat(fd, "elf", NULL, &o), 0);
	cr_assert_eq(write(pmc_outfile__fd(o), "new", 3), 3);
	cr_assert_eq(pmc_outfile__commit(o), 0);
	snprintf(path, sizeof(path), "%s/elf", dir);
	cr_assert_str_eq(slurp(path, buf, sizeof(buf)), "new");
	snprintf(path, sizeof(path), "%s/victim", dir);
	cr_assert_str_eq(slurp(path, buf, sizeof(buf)), "keep");
	close(fd);
}

Test(outfile, check_opens_no_fifo)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/fifo", dir);
	cr_assert_eq(mkfifo(path, 0600), 0);
	/* no reader: an open for writing would block; the check only looks at the mode */
	cr_expect_eq(pmc_outfile__check(path, NULL), 0);
}

Test(outfile, a_write_error_is_kept_and_returned)
{
	struct pmc_outfile *o;

	cr_assert_eq(pmc_outfile__open("/dev/full", &o), 0);
	fputs("x", pmc_outfile__stream(o));
	cr_expect_eq(pmc_outfile__commit(o), -ENOSPC);
	cr_assert_eq(pmc_outfile__open("/dev/full", &o), 0);
	fputs("x", pmc_outfile__stream(o));
	cr_expect_eq(pmc_outfile__fail(o, -EIO), -ENOSPC);
}

Test(outfile, a_descriptor_through_proc_is_written_in_place)
{
	struct pmc_outfile *o;
	char path[64], buf[16] = "";
	int p[2];

	cr_assert_eq(pipe(p), 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", p[1]);
	cr_assert_eq(pmc_outfile__open(path, &o), 0);
	fputs("hello", pmc_outfile__stream(o));
	cr_expect_eq(pmc_outfile__commit(o), 0);
	close(p[1]);
	cr_expect_eq(read(p[0], buf, sizeof(buf) - 1), 5);
	cr_expect_str_eq(buf, "hello");
	close(p[0]);
}

Test(outfile, append_adds_whole_writes_at_the_end)
{
	const struct pmc_outfile_opts opts = {.sz = sizeof(opts), .append = true};
	struct pmc_outfile *a, *b;
	char path[128], buf[64];

	snprintf(path, sizeof(path), "%s/log", dir);
	cr_assert_eq(pmc_outfile__open_opts(path, &opts, &a), 0);
	cr_assert_eq(pmc_outfile__open_opts(path, &opts, &b), 0);
	fputs("a1\n", pmc_outfile__stream(a));
	fputs("b1\nb2\n", pmc_outfile__stream(b));
	fflush(pmc_outfile__stream(a));
	fputs("a2\n", pmc_outfile__stream(a));
	cr_expect_eq(pmc_outfile__commit(b), 0);
	cr_expect_eq(pmc_outfile__commit(a), 0);
	cr_expect_str_eq(slurp(path, buf, sizeof(buf)), "b1\nb2\na1\na2\n");
}
