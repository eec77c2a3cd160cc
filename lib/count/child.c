// SPDX-License-Identifier: MIT
/*
 * A command started by pmc: start it held before exec, release, wait (see child.h). The
 * child is a CLONE_VM clone where clone.c can make one (it says why), else a fork.
 *
 * Lifetime: the child asks the kernel for SIGKILL when its parent goes (PR_SET_PDEATHSIG)
 * before anything else, so a measured program does not outlive a pmc that is killed
 * (SIGKILL), dies of SIGPIPE or crashes. It then checks getppid(): a pmc gone before that
 * sends no signal, and the child exits 127. What this covers, as the kernel does it:
 * - the direct child only. The program's own children (a shell's, make's) are not
 *   killed, unless they are the same process (a shell that execs its last command;
 *   valgrind under --backend=vpmu, which execs its tool in place, and the program in it);
 * - the signal comes when the *thread* that started the child ends, not pmc's process:
 *   the runner waits for its command in the thread that started it, so a library caller
 *   whose thread ends (pthread_exit, cancellation) in the middle of a run kills the
 *   command;
 * - an exec of a set-user-ID or set-group-ID program, or one with file capabilities,
 *   clears it: such a command (sudo ...) outlives a killed pmc.
 * pmc_fork() gives the helpers pmc forks itself (calibrate's in-process measurements,
 * validate's kernel list) the same tie.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <pmc/error.h>
#include <pmc/run.h>
#include "core/log.h"
#include "count/child.h"
#include "count/clone.h"

static ssize_t read_full(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

/*
 * In a forked child of parent: killed when parent's thread that forked it ends; gone already
 * (status 127) if parent went before this ("Lifetime" above).
 */
static void tie_to_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
}

int pmc_fork(void)
{
	pid_t parent = getpid(), pid;

	fflush(NULL); /* what the caller's streams hold is written once, not by both */
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		tie_to_parent(parent);
	return pid;
}

/* Runs in the forked child: wait for the go byte, then exec; report exec's errno. */
static void __attribute__((noreturn))
child_main(char *const argv[], const struct pmc_child_opts *opts, int go_rd, int err_wr,
	   const sigset_t *mask, pid_t parent)
{
	char c, num[16];
	int e;

	tie_to_parent(parent);

	/*
	 * The parent's handlers are not the command's: a signal pmc passes on before the exec
	 * (Ctrl-C, SIGTERM during start-up) must act on this process as it would on the command,
	 * not run pmc's handler in a copy of pmc. Signals were blocked across fork for this.
	 */
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (!sigaction(sig, NULL, &sa) && sa.sa_handler != SIG_IGN &&
		    sa.sa_handler != SIG_DFL)
			signal(sig, SIG_DFL);
	}
	sigprocmask(SIG_SETMASK, mask, NULL); /* as the parent's was before the fork */
	if (read_full(go_rd, &c, 1) != 1)
		_exit(127); /* the parent gave up before releasing us */
	close(go_rd);
	if (opts && opts->keep_fd >= 0) {
		int fl = fcntl(opts->keep_fd, F_GETFD);

		if (fl >= 0)
			fcntl(opts->keep_fd, F_SETFD, fl & ~FD_CLOEXEC);
		if (opts->keep_fd_env) {
			snprintf(num, sizeof(num), "%d", opts->keep_fd);
			setenv(opts->keep_fd_env, num, 1);
		}
	}
	if (opts && opts->extra_fd > 0) {
		int fl = fcntl(opts->extra_fd, F_GETFD);

		if (fl >= 0)
			fcntl(opts->extra_fd, F_SETFD, fl & ~FD_CLOEXEC);
	}
	if (opts && opts->stdout_to_stderr)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_wr, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * fork failed: the command cannot be started, which is said as such (the exit status of a
 * command that cannot be started, 127), with the limit that stopped it when it is one.
 */
static void say_no_fork(const char *argv0, int e)
{
	struct rlimit rl;

	if (e == EAGAIN && !getrlimit(RLIMIT_NPROC, &rl) && rl.rlim_cur != RLIM_INFINITY)
		pr_err("cannot start '%s': no new process can be made (fork: %s): this user's "
		       "limit of processes is %llu (RLIMIT_NPROC, 'ulimit -u'); end some processes "
		       "or raise the limit\n",
		       argv0, strerror(e), (unsigned long long)rl.rlim_cur);
	else
		pr_err("cannot start '%s': no new process can be made (fork: %s)\n", argv0,
		       strerror(e));
}

/* The child: a CLONE_VM clone when it can be, else a fork. Its pid, or -1 with errno. */
static pid_t start_child(struct pmc_child *c, char *const argv[], const struct pmc_child_opts *opts,
			 int go[2], int errp[2], const sigset_t *mask)
{
	pid_t pid = pmc__clone_start(argv, opts, go, errp, mask, &c->plan), parent = getpid();

	if (pid >= 0 || errno != ENOSYS)
		return pid;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(errp[0]);
		child_main(argv, opts, go[0], errp[1], mask, parent);
	}
	return pid;
}

int pmc__child_spawn(char *const argv[], const struct pmc_child_opts *opts, struct pmc_child **out)
{
	int go[2], errp[2], err;
	struct pmc_child *c;
	sigset_t all, mask;

	if (!argv || !argv[0])
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	if (pipe2(go, O_CLOEXEC)) {
		err = -errno;
		free(c);
		return err;
	}
	if (pipe2(errp, O_CLOEXEC)) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		free(c);
		return err;
	}
	fflush(NULL);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &mask);
	c->pid = start_child(c, argv, opts, go, errp, &mask);
	err = c->pid < 0 ? -errno : 0;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (err)
		say_no_fork(argv[0], -err);
	close(go[0]);
	close(errp[1]);
	c->go_fd = go[1];
	c->err_fd = errp[0];
	if (err) {
		close(c->go_fd);
		close(c->err_fd);
		pmc__clone_plan_free(c->plan);
		free(c);
		return -PMC_E_EXEC;
	}
	*out = c;
	return 0;
}

int pmc__child_start(struct pmc_child *c, int *exec_errno)
{
	char go = 1;
	int e = 0;
	ssize_t n;

	if (c->go_fd < 0)
		return -EALREADY;
	n = write(c->go_fd, &go, 1);
	close(c->go_fd);
	c->go_fd = -1;
	if (n != 1)
		return -EPIPE;
	n = read_full(c->err_fd, &e, sizeof(e));
	close(c->err_fd);
	c->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		if (exec_errno)
			*exec_errno = e;
		return -PMC_E_EXEC;
	}
	return 0;
}

int pmc__child_wait(struct pmc_child *c, int *status)
{
	pid_t r;

	if (c->reaped) {
		*status = c->status;
		return 0;
	}
	r = wait4(c->pid, &c->status, 0, &c->rusage);
	if (r < 0)
		return -errno;
	c->reaped = true;
	c->have_rusage = true;
	*status = c->status;
	return 0;
}

void pmc__child_release(struct pmc_child *c)
{
	c->reaped = true; /* the caller's to reap: nothing to kill here */
	pmc__child_delete(c);
}

void pmc__child_delete(struct pmc_child *c)
{
	if (!c)
		return;
	if (c->go_fd >= 0)
		close(c->go_fd); /* a held child reads EOF and exits 127 */
	if (c->err_fd >= 0)
		close(c->err_fd);
	if (!c->reaped) {
		if (c->go_fd < 0)
			kill(c->pid, SIGKILL);
		while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
			;
	}
	pmc__clone_plan_free(c->plan); /* the child is gone: its stack and what it read */
	free(c);
}
