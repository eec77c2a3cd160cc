// SPDX-License-Identifier: MIT
/* Regions: exact counts in-process, nesting and overlap, threads, and the record reader. */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>

#define TP "syscalls:sys_enter_getppid"

static void calls(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static void setup_tp(void)
{
	struct pmc_region_opts o = {.sz = sizeof(o), .events = TP, .sink = PMC_REGION_SINK_NONE};

	if (access("/sys/kernel/tracing/events/syscalls", R_OK))
		cr_skip_test("no syscalls tracepoints here (tracefs not mounted)");
	cr_assert_eq(pmc_region_setup(&o), 0);
}

static uint64_t value(const char *name, uint64_t *entered, uint64_t *exited)
{
	uint64_t v = 0;
	int id = pmc_region_register(name);

	cr_assert_geq(id, 0, "register '%s': %d", name, id);
	cr_assert_eq(pmc_region_get((unsigned)id, entered, exited, &v, 1), 1);
	return v;
}

Test(region, loop_counts_exactly)
{
	uint64_t en, ex;

	setup_tp();
	cr_assert_eq(
		pmc_region_setup(&(struct pmc_region_opts){.sz = sizeof(struct pmc_region_opts)}),
		-EALREADY);
	for (int i = 0; i < 100; i++) {
		pmc_region_begin("loop");
		calls(10);
		pmc_region_end("loop");
	}
	cr_expect_eq(value("loop", &en, &ex), 1000);
	cr_expect_eq(en, 100);
	cr_expect_eq(ex, 100);
}

Test(region, nested_and_overlapping_add_up)
{
	setup_tp();
	pmc_region_begin("outer");
	for (int i = 0; i < 3; i++) {
		pmc_region_begin("inner");
		calls(5);
		pmc_region_end("inner");
	}
	pmc_region_begin("x");
	calls(2);
	pmc_region_begin("y");
	calls(3);
	pmc_region_end("x");
	calls(4);
	pmc_region_end("y");
	pmc_region_end("outer");
	cr_expect_eq(value("inner", NULL, NULL), 15);
	cr_expect_eq(value("x", NULL, NULL), 5);
	cr_expect_eq(value("y", NULL, NULL), 7);
	cr_expect_eq(value("outer", NULL, NULL), 15 + 9);
}

Test(region, recursion_counts_from_the_outermost_begin)
{
	uint64_t en, ex;

	setup_tp();
	pmc_region_begin("r");
	calls(1);
	pmc_region_begin("r");
	calls(2);
	pmc_region_end("r");
	calls(3);
	pmc_region_end("r");
	cr_expect_eq(value("r", &en, &ex), 6);
	cr_expect_eq(en, 2);
	cr_expect_eq(ex, 2);
}

Test(region, numbered_and_registered_ids)
{
	uint64_t v, en;
	int id;

	setup_tp();
	id = pmc_region_register("by-id");
	cr_assert_geq(id, PMC_REGION_NUMBERED);
	cr_expect_eq(pmc_region_register("by-id"), id, "the same name keeps its id");
	pmc_region_begin_n(7);
	calls(3);
	pmc_region_end_n(7);
	pmc_region_begin_n((unsigned)id);
	calls(4);
	pmc_region_end("by-id");
	pmc_region_begin_n(PMC_REGION_MAX - 1); /* never registered: ignored */
	pmc_region_end_n(PMC_REGION_MAX - 1);
	cr_assert_eq(pmc_region_get(7, &en, NULL, &v, 1), 1);
	cr_expect_eq(v, 3);
	cr_expect_eq(en, 1);
	cr_expect_eq(value("by-id", NULL, NULL), 4);
	cr_assert_eq(pmc_region_get(PMC_REGION_MAX - 1, &en, NULL, &v, 1), 1);
	cr_expect_eq(en, 0);
	cr_expect_eq(pmc_region_get(PMC_REGION_MAX, NULL, NULL, NULL, 0), -EINVAL);
}

Test(region, unmatched_end_is_counted_not_added)
{
	uint64_t en, ex;

	setup_tp();
	pmc_region_end("never-begun");
	calls(2);
	cr_expect_eq(value("never-begun", &en, &ex), 0);
	cr_expect_eq(en, 0);
	cr_expect_eq(ex, 1);
}

static void *worker(void *arg)
{
	uint64_t *out = arg;

	pmc_region_register("t");
	for (int i = 0; i < 50; i++) {
		pmc_region_begin("t");
		calls(2);
		pmc_region_end("t");
	}
	*out = value("t", NULL, NULL);
	return NULL;
}

Test(region, threads_count_their_own)
{
	pthread_t tid[4];
	uint64_t v[4];

	setup_tp();
	calls(5);
	for (int i = 0; i < 4; i++)
		pthread_create(&tid[i], NULL, worker, &v[i]);
	for (int i = 0; i < 4; i++) {
		pthread_join(tid[i], NULL);
		cr_expect_eq(v[i], 100, "thread %d", i);
	}
	cr_expect_eq(pmc_region_get(pmc_region_register("t"), NULL, NULL, v, 1), 1);
	cr_expect_eq(v[0], 0, "the main thread never entered 't'");
}

Test(region, off_without_configuration)
{
	unsetenv("PMC_EVENTS");
	unsetenv("PMC_REGION_FD");
	pmc_region_begin("nothing");
	pmc_region_end("nothing");
	cr_expect_geq(pmc_region_register("nothing"), PMC_REGION_NUMBERED);
	cr_expect_eq(pmc_region_get(0, NULL, NULL, NULL, 0), -ENOENT);
	cr_expect_eq(pmc_region_flush(), 0);
}

/* A results descriptor as pmc stat prepares it: the pass header, the offset left after it. */
static int runner_fd(const char *header)
{
	int fd = memfd_create("test-regions", 0);
	char num[16];

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, header, strlen(header)), (ssize_t)strlen(header));
	snprintf(num, sizeof(num), "%d", fd);
	setenv("PMC_REGION_FD", num, 1);
	return fd;
}

Test(region, runner_events_come_from_the_pass_header)
{
	const char *hdr = "PMC-PASS 3 34\nevents " TP "\n";
	struct pmc_region_data *d;
	struct pmc_region_values v;
	int fd;

	if (access("/sys/kernel/tracing/events/syscalls", R_OK))
		cr_skip_test("no syscalls tracepoints here (tracefs not mounted)");
	fd = runner_fd(hdr);
	setenv("PMC_REGION_EVENTS", "task-clock", 1); /* protocol 1's variable: not read */
	pmc_region_begin("r");
	calls(7);
	pmc_region_end("r");
	cr_assert_eq(pmc_region_flush(), 0);
	/* The header was read with pread(): the record follows it at the shared offset. */
	cr_assert_gt(lseek(fd, 0, SEEK_CUR), (off_t)strlen(hdr));
	cr_assert_eq(pmc_region_data__new(&d), 0);
	/* Two records: the process's "started" one, then its results. */
	cr_assert_eq(pmc_region_data__read_fd(d, fd), 2);
	cr_expect_eq(pmc_region_data__nr_lost(d), 0);
	cr_expect_str_eq(pmc_region_data__event(d, 0), TP);
	cr_assert_eq(pmc_region_data__get(d, 0, -1, &v), 0);
	cr_expect_eq(v.entered, 1);
	cr_expect_eq(v.values[0], 7);
	pmc_region_data__delete(d);
	close(fd);
}

Test(region, runner_header_of_another_version_turns_regions_off)
{
	int fd = runner_fd("PMC-PASS 2 34\nevents " TP "\n");

	pmc_region_begin("r");
	pmc_region_end("r");
	cr_expect_eq(pmc_region_get(0, NULL, NULL, NULL, 0), -ENOENT);
	cr_expect_eq(pmc_region_flush(), 0);
	cr_expect_eq(lseek(fd, 0, SEEK_END), 48, "nothing was written");
	close(fd);
}

Test(region, runner_without_header_is_not_read_from_the_environment)
{
	int fd = runner_fd("");

	setenv("PMC_REGION_EVENTS", TP, 1);
	pmc_region_begin("r");
	pmc_region_end("r");
	cr_expect_eq(pmc_region_get(0, NULL, NULL, NULL, 0), -ENOENT);
	cr_expect_eq(lseek(fd, 0, SEEK_END), 0, "nothing was written");
	close(fd);
}
