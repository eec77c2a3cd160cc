// SPDX-License-Identifier: MIT
/*
 * How a run waits for its end. Plainly: waitpid(2) on the command, or a poll of a process or
 * CPUs every 50 ms. Live (an interval, a delay or control commands, which need a backend that
 * counts live): one loop that sleeps in poll(2) on the command's pidfd and the control
 * descriptor until the next interval or the end of the delay, whichever comes first.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <pmc/error.h>
#include "count/child.h"
#include "count/counting.h"
#include "run/runner.h"

/* The longest poll: a signal that comes just before it waits no longer than this. */
#define TICK_MS 100
/* How often a process or its threads are looked for (PID, TID targets). */
#define CHECK_MS 50

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether the run needs the live loop (interval, delay or control). */
static bool run_live(const struct pmc_run *run)
{
	return run->opts.interval_ms > 0 || run->opts.delay_ms || run->opts.ctl_fd > 0;
}

/*
 * Waits for the command, passing the stop signal on to it once: also one that came before
 * the wait (while the counters were opened), which interrupts no wait.
 */
static int wait_command(struct pmc_run *run, int *status)
{
	bool forwarded = false;
	int err = -EINTR;

	do
		if (run->stop_sig && !forwarded) {
			pmc_evlist__kill(run->evlist, run->stop_sig);
			forwarded = run->stop_passed = true;
		}
	while (err == -EINTR && (err = pmc_evlist__wait(run->evlist, status)) == -EINTR);
	return err;
}

/*
 * PID, TID or CPUS with a command (perf stat -p PID -- cmd, -t, -a): the target is counted
 * for as long as the command runs, and the command says when to stop.
 */
static int spawn_other(struct pmc_run *run, pid_t *child)
{
	const struct pmc_child_opts o = {.keep_fd = -1};
	char *const *argv = run->target.argv;
	struct pmc_child *c;
	int err, e = 0;

	*child = -1;
	if (run->target.kind == PMC_TARGET_COMMAND || !argv || !*argv)
		return 0;
	/* As a COMMAND is started: it does not outlive pmc (count/child.c, "Lifetime") */
	err = pmc__child_spawn(argv, &o, &c);
	if (err)
		return err;
	err = pmc__child_start(c, &e);
	if (err) {
		pmc__log(PMC_LOG_ERROR, "%s: cannot run '%s': %s\n", run->opts.who, argv[0],
			 strerror(e ? e : -err));
		pmc__child_delete(c);
		return -PMC_E_EXEC;
	}
	*child = c->pid;
	pmc__child_release(c);
	return 0;
}

/* Whether the process (PID) or every thread (TID) of the target has ended. */
static bool target_gone(const struct pmc_run *run)
{
	char path[64];
	const char *s = run->target.tids;

	if (run->target.kind == PMC_TARGET_PID)
		return kill(run->target.pid, 0) && errno == ESRCH;
	if (run->target.kind != PMC_TARGET_TID || !s)
		return false;
	for (; *s; s += strcspn(s, ","), s += *s == ',') {
		snprintf(path, sizeof(path), "/proc/%d/status", atoi(s));
		if (!access(path, F_OK))
			return false;
	}
	return true;
}

/* PID, TID and CPUs: counts until the process ends, the command (if any) ends, or a stop. */
static int wait_other(struct pmc_run *run, int *status, bool *have_status)
{
	pid_t child;
	bool forwarded = false;
	int err = spawn_other(run, &child);

	if (err)
		return err;
	*have_status = child > 0;
	for (;;) {
		if (child > 0 && waitpid(child, status, 0) == child)
			return 0;
		if (run->stop_sig && child <= 0)
			return 0;
		if (run->stop_sig && !forwarded) {
			kill(child, run->stop_sig);
			forwarded = run->stop_passed = true;
			continue;
		}
		if (target_gone(run))
			return 0;
		if (child <= 0)
			usleep(CHECK_MS * 1000);
	}
}

/* The live loop's state for one run. */
struct live {
	struct pmc_run *run;
	int pass, rep;
	pid_t child;	  /* the command (COMMAND, or CPUS with one), or -1 */
	int pidfd;	  /* readable once child has exited, or -1 */
	double next_iv;	  /* when the next interval is due (INFINITY: none) */
	double enable_at; /* when the delay ends (INFINITY: not pending) */
	bool forwarded;
};

static void switch_on(struct live *l)
{
	struct pmc_run *run = l->run;

	l->enable_at = INFINITY;
	if (pmc_evlist__enable(run->evlist))
		return;
	if (run->opts.on_enable)
		run->opts.on_enable(true, NULL, run->opts.arg);
}

/* Whether child has exited, without reaping it (COMMAND's is reaped by the list). */
static bool exited(pid_t child)
{
	siginfo_t si = {0};

	return !waitid(P_PID, (id_t)child, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid;
}

/* Milliseconds until the next thing to do, at most TICK_MS (CHECK_MS to look for a PID). */
static int timeout_ms(const struct live *l, double now)
{
	double next = fmin(l->next_iv, l->enable_at), ms = (next - now) * 1e3;
	int most = l->child > 0 && l->pidfd >= 0 ? TICK_MS : CHECK_MS;

	if (l->child > 0 && l->pidfd < 0)
		most = 10; /* no pidfd: the command's end is found by looking */
	return ms <= 0 ? 0 : ms < most ? (int)ceil(ms) : most;
}

/* One wake-up: control lines, the delay's end, an interval. True when the run is over. */
static bool step(struct live *l, const struct pollfd *ctl)
{
	struct pmc_run *run = l->run;
	double now;

	if (ctl && (ctl->revents & (POLLIN | POLLHUP | POLLERR)))
		pmc__run_control(run);
	now = now_s();
	if (now >= l->enable_at)
		switch_on(l);
	if (now >= l->next_iv) {
		if (!pmc_evlist__read(run->evlist))
			pmc__run_interval(run, l->pass, l->rep, false);
		while (l->next_iv <= now)
			l->next_iv += run->opts.interval_ms * 1e-3;
	}
	if (run->stop_sig && l->child <= 0)
		return true;
	if (run->stop_sig && !l->forwarded) {
		kill(l->child, run->stop_sig);
		l->forwarded = run->stop_passed = true;
	}
	return l->child > 0 ? exited(l->child) : target_gone(run);
}

static bool ctl_open(const struct pmc_run *run)
{
	return run->opts.ctl_fd > 0 && !run->ctl_closed;
}

/*
 * Commands written before the command ended are carried out, in order, before the run's
 * final read: a program that exits right after "disable" is counted as it asked, and no
 * command is left for the next run. Only what poll says is there is read.
 */
static void drain_control(struct pmc_run *run)
{
	struct pollfd p = {.fd = run->opts.ctl_fd, .events = POLLIN};

	while (ctl_open(run) && poll(&p, 1, 0) > 0 && (p.revents & POLLIN) &&
	       !pmc__run_control(run))
		;
}

static void loop(struct live *l)
{
	struct pmc_run *run = l->run;
	struct pollfd fds[2];
	int n;
	bool ctl;

	for (;;) {
		n = 0;
		ctl = ctl_open(run);
		if (l->pidfd >= 0)
			fds[n++] = (struct pollfd){.fd = l->pidfd, .events = POLLIN};
		if (ctl)
			fds[n++] = (struct pollfd){.fd = run->opts.ctl_fd, .events = POLLIN};
		if (poll(fds, (nfds_t)n, timeout_ms(l, now_s())) < 0 && errno != EINTR)
			return;
		if (step(l, ctl ? &fds[n - 1] : NULL))
			break;
	}
	drain_control(run);
}

/*
 * Where the run's times start: when the counters were started (a command released to exec,
 * which its counters count from), as its wall time does; so the first interval spans all
 * that its counts do, however late pmc got back to run after the exec (a loaded machine).
 * Now, when nothing was started yet (other targets with a delay).
 */
static double start_s(const struct pmc_run *run)
{
	uint64_t ns;

	if (pmc__counting_start_ns(run->evlist, &ns))
		return now_s();
	return (double)ns * 1e-9;
}

/* The live loop, then the command's end reaped as the plain waits reap it. */
static int wait_live(struct pmc_run *run, struct pmc_target *t, int pass, int rep, int *status,
		     bool *have_status)
{
	struct live l = {.run = run, .pass = pass, .rep = rep, .pidfd = -1};
	double t0 = start_s(run);
	int err = 0;

	if (t->kind == PMC_TARGET_COMMAND)
		l.child = pmc_evlist__child_pid(run->evlist);
	else
		err = spawn_other(run, &l.child);
	if (err)
		return err;
	if (l.child > 0)
		l.pidfd = (int)syscall(SYS_pidfd_open, l.child, 0);
	l.next_iv = run->opts.interval_ms > 0 ? t0 + run->opts.interval_ms * 1e-3 : INFINITY;
	l.enable_at = run->opts.delay_ms > 0 ? t0 + run->opts.delay_ms * 1e-3 : INFINITY;
	if (run->opts.interval_ms > 0)
		err = pmc__run_interval_begin(run, pass, t0);
	if (!err)
		loop(&l);
	if (l.pidfd >= 0)
		close(l.pidfd);
	*have_status = l.child > 0;
	if (t->kind == PMC_TARGET_COMMAND)
		return wait_command(run, status) ?: err;
	if (l.child > 0)
		while (waitpid(l.child, status, 0) < 0 && errno == EINTR)
			;
	return err;
}

int pmc__run_wait(struct pmc_run *run, struct pmc_target *t, int pass, int rep, int *status,
		  bool *have_status)
{
	if (run_live(run))
		return wait_live(run, t, pass, rep, status, have_status);
	if (t->kind == PMC_TARGET_COMMAND) {
		*have_status = true;
		return wait_command(run, status);
	}
	return wait_other(run, status, have_status);
}
