// SPDX-License-Identifier: MIT
/* Counting on the perf backend: exact tracepoint counts on every kind of target. */
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>

#define TP "syscalls:sys_enter_getppid"

static struct pmc_evlist *evlist;

static void skip_without_tracepoints(void)
{
	if (!pmc_caps()->tracefs || access("/sys/kernel/tracing/events/syscalls", R_OK))
		cr_skip_test("no syscalls tracepoints here (tracefs not mounted)");
}

static struct pmc_evlist *parse(const char *str)
{
	struct pmc_evlist_opts o = {.sz = sizeof(o)};
	struct pmc_parse_error perr;
	struct pmc_evlist *l;

	cr_assert_eq(pmc_evlist__new(&o, &l), 0);
	cr_assert_eq(pmc_evlist__parse(l, str, &perr), 0, "'%s': %s", str, perr.msg);
	return l;
}

static void getppid_n(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static uint64_t value_of(size_t idx)
{
	struct pmc_count c;

	cr_assert_eq(pmc_evsel__count(pmc_evlist__at(evlist, idx), &c), 0);
	return c.value;
}

static void fini(void)
{
	pmc_evlist__delete(evlist);
	evlist = NULL;
}

TestSuite(count, .fini = fini);

Test(count, self_counts_exactly_and_resets)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_SELF};
	int passes;

	skip_without_tracepoints();
	evlist = parse(TP);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	cr_assert_eq(pmc_evlist__open(evlist, &t, -1), 0);
	cr_assert_eq(pmc_evlist__start(evlist), 0);
	getppid_n(1000);
	cr_assert_eq(pmc_evlist__stop(evlist), 0);
	getppid_n(50); /* stopped: not counted */
	cr_assert_eq(pmc_evlist__read(evlist), 0);
	cr_expect_eq(value_of(0), 1000);
	cr_assert_eq(pmc_evlist__reset(evlist), 0);
	cr_assert_eq(pmc_evlist__start(evlist), 0);
	getppid_n(7);
	cr_assert_eq(pmc_evlist__stop(evlist), 0);
	cr_assert_eq(pmc_evlist__read(evlist), 0);
	cr_expect_eq(value_of(0), 7);
}

/*
 * An event the check accepts but the kernel refuses when the list opens (tracepoints share one
 * trial open; the kernel refuses ftrace:function even to root where it is not root's alone)
 * becomes its verdict: the open fails, pmc_evsel__check() then says why, the event leaves its
 * pass, and opening again counts the others.
 */
Test(count, an_event_refused_at_open_becomes_its_verdict)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_SELF};
	struct pmc_evsel *fn;
	char why[512];
	int passes;

	skip_without_tracepoints();
	cr_assert_eq(access("/sys/kernel/tracing/events/ftrace/function/id", R_OK), 0,
		     "no ftrace:function tracepoint: no event the kernel refuses at open");
	evlist = parse(TP ",ftrace:function");
	fn = pmc_evlist__at(evlist, 1);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	cr_assert_eq(pmc_evsel__check(fn, NULL, 0), 0, "the shared trial open accepts it");
	cr_assert_neq(pmc_evlist__open(evlist, &t, 0), 0,
		      "the kernel counts ftrace:function here: find another refusal at open");
	cr_expect_lt(pmc_evsel__check(fn, why, sizeof(why)), 0);
	cr_expect(strstr(why, "the kernel refuses it (") != NULL, "%s", why);
	cr_expect_eq(pmc_evsel__pass(fn), -1);
	cr_expect_eq(pmc_evsel__check(pmc_evlist__at(evlist, 0), NULL, 0), 0);
	cr_assert_eq(pmc_evlist__open(evlist, &t, 0), 0);
	cr_assert_eq(pmc_evlist__start(evlist), 0);
	getppid_n(100);
	cr_assert_eq(pmc_evlist__stop(evlist), 0);
	cr_assert_eq(pmc_evlist__read(evlist), 0);
	cr_expect_eq(value_of(0), 100);
	cr_expect_eq(pmc_evsel__count(fn, &(struct pmc_count){0}), -ENOENT);
}

Test(count, group_read_is_one_call_with_all_members)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_SELF};
	struct pmc_count v[4];
	int passes;

	skip_without_tracepoints();
	evlist = parse("{" TP ",syscalls:sys_enter_getpid,task-clock,page-faults}");
	cr_assert_eq(pmc_evsel__group_size(pmc_evlist__at(evlist, 0)), 4);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	cr_assert_eq(pmc_evlist__open(evlist, &t, -1), 0);
	cr_assert_eq(pmc_evlist__start(evlist), 0);
	getppid_n(300);
	for (int i = 0; i < 20; i++)
		syscall(SYS_getpid);
	cr_assert_eq(pmc_evsel__read_group(pmc_evlist__at(evlist, 0), v, 4), 4);
	cr_expect_eq(v[0].value, 300);
	cr_expect_eq(v[1].value, 20);
	cr_expect_gt(v[2].value, 0, "task-clock runs");
	cr_expect_eq(v[0].time_enabled_ns, v[0].time_running_ns, "no multiplexing");
	cr_expect_eq(pmc_evsel__read_group(pmc_evlist__at(evlist, 0), v, 2), -ENOSPC);
}

Test(count, command_with_threads_is_counted_whole)
{
	char *argv[] = {PMC_PROGS_DIR "/threads-getppid", "4", "250", NULL};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	int passes, status;

	skip_without_tracepoints();
	evlist = parse(TP);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	cr_assert_eq(pmc_evlist__open(evlist, &t, 0), 0);
	cr_assert_gt(pmc_evlist__child_pid(evlist), 0);
	cr_assert_eq(pmc_evlist__start(evlist), 0);
	cr_assert_eq(pmc_evlist__wait(evlist, &status), 0);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	cr_assert_eq(pmc_evlist__read(evlist), 0);
	cr_expect_eq(value_of(0), 1000);
}

Test(count, command_that_cannot_exec)
{
	char *argv[] = {"/nonexistent/pmc-test-program", NULL};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	int passes;

	evlist = parse("task-clock");
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	cr_assert_eq(pmc_evlist__open(evlist, &t, 0), 0);
	cr_expect_eq(pmc_evlist__start(evlist), -PMC_E_EXEC);
}

Test(count, running_process)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_PID};
	int go[2], status, passes;
	char c = 1;

	skip_without_tracepoints();
	cr_assert_eq(pipe(go), 0);
	t.pid = fork();
	if (t.pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		getppid_n(500);
		_exit(0);
	}
	evlist = parse(TP);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	cr_assert_eq(pmc_evlist__open(evlist, &t, 0), 0);
	cr_assert_eq(pmc_evlist__start(evlist), 0);
	cr_assert_eq(write(go[1], &c, 1), 1);
	cr_assert_eq(waitpid(t.pid, &status, 0), t.pid);
	cr_assert_eq(pmc_evlist__read(evlist), 0);
	cr_expect_eq(value_of(0), 500);
}

Test(count, cpus_see_at_least_the_calls)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_CPUS, .cpus = NULL};
	int passes;

	skip_without_tracepoints();
	evlist = parse(TP);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	cr_assert_eq(pmc_evlist__open(evlist, &t, 0), 0);
	cr_assert_eq(pmc_evlist__start(evlist), 0);
	getppid_n(400);
	cr_assert_eq(pmc_evlist__stop(evlist), 0);
	cr_assert_eq(pmc_evlist__read(evlist), 0);
	cr_expect_geq(value_of(0), 400, "system-wide counts include ours");
}

Test(count, six_breakpoints_need_two_passes)
{
	static long g[6];
	char buf[512];
	int passes;

	const struct pmc_cap_check *bp = pmc_caps__check(pmc_caps(), "perf", "breakpoints");

	if (!bp || bp->value != 4)
		cr_skip_test("[cap:no-hw-breakpoints] this machine has %lld debug registers, not 4",
			     bp ? bp->value : 0);
	snprintf(buf, sizeof(buf),
		 "mem:%p/8:w,mem:%p/8:w,mem:%p/8:w,mem:%p/8:w,mem:%p/8:w,mem:%p/8:w", (void *)&g[0],
		 (void *)&g[1], (void *)&g[2], (void *)&g[3], (void *)&g[4], (void *)&g[5]);
	evlist = parse(buf);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	cr_expect_eq(passes, 2);
	cr_expect_eq(pmc_evsel__pass(pmc_evlist__at(evlist, 3)), 0);
	cr_expect_eq(pmc_evsel__pass(pmc_evlist__at(evlist, 4)), 1);
	cr_assert_eq(pmc_evlist__plan(evlist, true, &passes), 0);
	cr_expect_eq(passes, 2, "debug registers cannot be time-shared, even with --multiplex");
}

Test(count, hardware_events_without_pmu_say_why)
{
	char why[256];

	if (pmc_caps__check(pmc_caps(), "perf", "hw_pmu")->ok)
		cr_skip_test("[cap:has-pmu] this machine has a hardware PMU");
	evlist = parse("cycles");
	cr_expect_eq(pmc_evsel__check(pmc_evlist__at(evlist, 0), why, sizeof(why)), -PMC_E_NOPMU);
	cr_expect(strstr(why, "--backend=vpmu"), "reason: %s", why);
}

/* pmc_evlist__explain() adds nothing to an error that is no refusal, and refuses bad calls. */
Test(count, explain_only_refusals)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_SELF};
	char why[512] = "x";

	evlist = parse("task-clock");
	cr_assert_eq(pmc_evlist__explain(evlist, &t, -EIO, why, sizeof(why)), -ENOENT);
	cr_assert_str_empty(why);
	cr_assert_eq(pmc_evlist__explain(evlist, &t, -EACCES, NULL, 0), -EINVAL);
	cr_assert_eq(pmc_evlist__explain(NULL, &t, -EACCES, why, sizeof(why)), -EINVAL);
}

/*
 * A refusal is explained by what the kernel refuses now: where this process may count a CPU,
 * an EACCES on CPUs is not blamed on perf_event_paranoid (nothing is said); where it may not,
 * the file and its value are named.
 */
Test(count, explain_cpus_by_what_the_kernel_refuses)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_CPUS};
	const struct pmc_cap_check *cpu = pmc_caps__check(pmc_caps(), "perf", "open_cpu");
	char why[1024], want[96];
	int err;

	cr_assert_not_null(cpu, "pmc doctor has no open_cpu check");
	evlist = parse("task-clock:u");
	err = pmc_evlist__explain(evlist, &t, -EACCES, why, sizeof(why));
	if (cpu->ok) {
		cr_assert_eq(err, -ENOENT, "blamed though CPUs can be counted: %s", why);
		return;
	}
	snprintf(want, sizeof(want), "/proc/sys/kernel/perf_event_paranoid is %d",
		 pmc_caps()->paranoid);
	cr_assert_eq(err, 0);
	cr_assert(strstr(why, "perf_event_paranoid <= 0") && strstr(why, want), "%s", why);
}

/* As nobody (when root can become nobody): another user's process is a matter of ptrace. */
Test(count, explain_another_users_process)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_PID, .pid = getpid()};
	char why[1024] = "", want[96];
	int fds[2], status;
	pid_t child;
	ssize_t n;

	if (geteuid() != 0)
		cr_skip_test("[cap:no-unprivileged-user] not root: cannot become another user");
	evlist = parse("task-clock:u");
	cr_assert_eq(pipe(fds), 0);
	child = fork();
	cr_assert_geq(child, 0);
	if (child == 0) {
		close(fds[0]);
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(3);
		pmc_evlist__explain(evlist, &t, -EACCES, why, sizeof(why));
		_exit(write(fds[1], why, strlen(why)) < 0);
	}
	close(fds[1]);
	n = read(fds[0], why, sizeof(why) - 1);
	close(fds[0]);
	waitpid(child, &status, 0);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed");
	why[n > 0 ? n : 0] = 0;
	snprintf(want, sizeof(want), "process %d runs as uid 0 and pmc as uid 65534",
		 (int)getpid());
	cr_assert(strstr(why, want) && strstr(why, "CAP_SYS_PTRACE"), "%s", why);
	cr_assert_null(strstr(why, "paranoid"), "%s", why);
}
