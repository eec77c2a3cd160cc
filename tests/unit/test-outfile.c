// SPDX-License-Identifier: MIT
/* Results files: whole or not at all, device targets written in place, links followed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <criterion/criterion.h>
#include <pmc/outfile.h>

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
