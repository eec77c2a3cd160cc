// SPDX-License-Identifier: MIT
/*
 * The arena (docs/regions.md, "The arena"): a process that leaves without writing its record
 * is read from its tables; one that wrote it, or whose chunks cannot be walked, is not.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>
#include "region/arena.h"
#include "region/proto.h"
#include "region/region.h"

#define OFF 65536u
#define SIZE 65536u /* a table of one event is 512 * 7 words: 28,672 bytes */

/* A runner's file: the pass header, an empty arena, the records' offset past it. */
static int runner_file(void)
{
	static const char body[] = "events ev\npriv 1\narena 65536 65536\n";
	char hdr[128];
	int fd = memfd_create("arena", MFD_CLOEXEC), n;

	cr_assert(fd >= 0);
	n = snprintf(hdr, sizeof(hdr), "PMC-PASS %d %zu\n%s", PMC_PASS_VERSION, strlen(body), body);
	cr_assert_eq(write(fd, hdr, (size_t)n), n);
	cr_assert_eq(ftruncate(fd, OFF + SIZE), 0);
	cr_assert_eq(pmc__region_arena_init(fd, OFF, SIZE), 0);
	cr_assert_eq(lseek(fd, OFF + SIZE, SEEK_SET), (off_t)(OFF + SIZE));
	return fd;
}

/*
 * A child that counts "loop" 4 times (40 in all) in its arena table, says it started, and
 * leaves with _exit(): written, it marks its chunk as the process that wrote its record.
 */
static void child(int fd, bool written)
{
	pid_t pid = fork();
	int status;

	cr_assert(pid >= 0);
	if (pid == 0) {
		const char *ev[] = {"ev"};
		size_t stride = SLOT_HDR + 2, words = PMC_REGION_MAX * stride;
		uint64_t *t;
		char rec[64];
		size_t n;
		int id;

		if (pmc__region_arena_map(fd, OFF, SIZE))
			_exit(2);
		t = pmc__region_arena_table((pid_t)syscall(SYS_gettid), words, 1, ev);
		id = pmc__region_id("loop");
		if (!t || id < 0)
			_exit(3);
		t[id * stride + SLOT_ENTERED] = t[id * stride + SLOT_EXITED] = 4;
		t[id * stride + SLOT_HDR + 1] = 40;
		n = pmc__region_start_record(rec, sizeof(rec));
		if (write(fd, rec, n) != (ssize_t)n)
			_exit(4);
		if (written)
			pmc__region_arena_written();
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: %d", status);
}

static struct pmc_region_data *read_back(int fd, int expect)
{
	struct pmc_region_data *d;

	cr_assert_eq(pmc_region_data__new(&d), 0);
	cr_assert_eq(pmc_region_data__read_fd(d, fd), expect);
	return d;
}

Test(region_arena, a_process_that_left_by_exit_is_read_from_its_tables)
{
	int fd = runner_file();
	struct pmc_region_data *d;
	struct pmc_region_values v;

	child(fd, false);
	d = read_back(fd, 2); /* its started record, and the one built from its tables */
	cr_expect_eq(pmc_region_data__nr_recovered(d), 1);
	cr_expect_eq(pmc_region_data__nr_lost(d), 0);
	cr_assert_eq(pmc_region_data__nr_regions(d), 1);
	cr_assert_eq(pmc_region_data__get(d, 0, -1, &v), 0);
	cr_expect_str_eq(v.name, "loop");
	cr_expect_eq(v.entered, 4);
	cr_expect_eq(v.values[0], 40);
	cr_expect_str_eq(pmc_region_data__event(d, 0), "ev");
	pmc_region_data__delete(d);
	close(fd);
}

/* It said it writes its record and wrote none: lost, never counted from the arena too. */
Test(region_arena, a_process_that_wrote_its_record_is_not_read_again)
{
	int fd = runner_file();
	struct pmc_region_data *d;

	child(fd, true);
	d = read_back(fd, 1);
	cr_expect_eq(pmc_region_data__nr_recovered(d), 0);
	cr_expect_eq(pmc_region_data__nr_lost(d), 1);
	cr_expect_eq(pmc_region_data__nr_regions(d), 0);
	pmc_region_data__delete(d);
	close(fd);
}

/* A chunk taken but never written (its process died in between): nothing is read. */
Test(region_arena, an_arena_that_cannot_be_walked_recovers_nothing)
{
	int fd = runner_file();
	struct pmc__arena_head h;
	struct pmc_region_data *d;

	child(fd, false);
	cr_assert_eq(pread(fd, &h, sizeof(h), OFF), (ssize_t)sizeof(h));
	h.next += 64;
	cr_assert_eq(pwrite(fd, &h, sizeof(h), OFF), (ssize_t)sizeof(h));
	d = read_back(fd, 1);
	cr_expect_eq(pmc_region_data__nr_recovered(d), 0);
	cr_expect_eq(pmc_region_data__nr_lost(d), 1);
	pmc_region_data__delete(d);
	close(fd);
}

/* The whole file in one buffer (pmc_region_data__parse()) reads the same as the descriptor. */
Test(region_arena, the_whole_file_parses_as_the_descriptor_reads)
{
	int fd = runner_file();
	struct pmc_region_data *d;
	off_t end;
	char *buf;

	child(fd, false);
	end = lseek(fd, 0, SEEK_END);
	buf = malloc((size_t)end + 1);
	cr_assert_eq(pread(fd, buf + 1, (size_t)end, 0), end); /* misaligned on purpose */
	cr_assert_eq(pmc_region_data__new(&d), 0);
	cr_expect_eq(pmc_region_data__parse(d, buf + 1, (size_t)end), 2);
	cr_expect_eq(pmc_region_data__nr_recovered(d), 1);
	cr_expect_eq(pmc_region_data__nr_lost(d), 0);
	pmc_region_data__delete(d);
	free(buf);
	close(fd);
}
