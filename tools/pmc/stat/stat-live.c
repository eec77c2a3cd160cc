// SPDX-License-Identifier: MIT
/*
 * pmc stat's side of live counting: --control's descriptors (perf's fifo:CTL[,ACK] and
 * fd:CTL[,ACK]), the --pre and --post commands around each run, and the messages when
 * counting is switched on or off (which a script waits for, as perf's "Events enabled").
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "common/cli.h"
#include "stat.h"

/*
 * A FIFO is opened read-write and non-blocking, as perf opens it: the open does not wait for
 * the other side, the control FIFO never reads end-of-file when a writer goes, and an
 * acknowledgement nobody reads yet waits in the pipe.
 */
static int open_fifo(const char *path, const char *what)
{
	struct stat st;
	int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "pmc stat: --control: cannot open the %s FIFO %s: %s (mkfifo %s)\n",
			what, cli_show(path), strerror(errno), cli_show(path));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISFIFO(st.st_mode)) {
		fprintf(stderr, "pmc stat: --control: %s is not a FIFO (make one with mkfifo)\n",
			cli_show(path));
		close(fd);
		return -1;
	}
	return fd;
}

/* fd:N[,M]: descriptors pmc stat was given; they must be open. */
static int given_fd(const char *s, const char *what)
{
	int fd = atoi(s);

	if (fcntl(fd, F_GETFD) < 0) {
		fprintf(stderr, "pmc stat: --control: the %s descriptor %d is not open\n", what,
			fd);
		return -1;
	}
	/* The command must not inherit them. */
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

int stat_live_open(struct stat_run *run)
{
	const char *c = run->opts->control;
	char *ctl, *ack;
	bool fifo;

	if (!c)
		return 0;
	fifo = !strncmp(c, "fifo:", 5);
	ctl = strdup(c + (fifo ? 5 : 3));
	if (!ctl)
		return 1;
	ack = strchr(ctl, ',');
	if (ack)
		*ack++ = 0;
	run->ctl_owned = fifo;
	run->ctl_fd = fifo ? open_fifo(ctl, "control") : given_fd(ctl, "control");
	if (run->ctl_fd >= 0 && ack)
		run->ack_fd = fifo ? open_fifo(ack, "acknowledgement") : given_fd(ack, "ack");
	free(ctl);
	return run->ctl_fd < 0 || (ack && run->ack_fd < 0) ? 2 : 0;
}

void stat_live_close(struct stat_run *run)
{
	if (run->ctl_owned && run->ctl_fd >= 0)
		close(run->ctl_fd);
	if (run->ctl_owned && run->ack_fd >= 0)
		close(run->ack_fd);
	run->ctl_fd = run->ack_fd = -1;
}

/*
 * system(3), but the shell does not outlive a killed pmc (pmc_fork, as the command): its wait
 * status, or -1 with errno.
 */
static int shell(const char *cmd)
{
	int st, pid = pmc_fork();

	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pid < 0) {
		errno = -pid;
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

/* --pre, --post: CMD through the shell, with pmc stat's output streams flushed first. */
static int hook(struct stat_run *run, const char *opt, const char *cmd)
{
	int st;

	fflush(stdout);
	fflush(stderr);
	st = shell(cmd);
	if (st != -1 && WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	if (st == -1)
		fprintf(stderr, "pmc stat: %s '%s': cannot run the shell: %s\n", opt, cli_show(cmd),
			strerror(errno));
	else if (WIFSIGNALED(st))
		fprintf(stderr, "pmc stat: %s '%s' was killed by %s: stopping\n", opt,
			cli_show(cmd), cli_signame(WTERMSIG(st)));
	else
		fprintf(stderr, "pmc stat: %s '%s' exited with %d: stopping\n", opt, cli_show(cmd),
			WEXITSTATUS(st));
	run->hook_failed = true;
	return 1;
}

static int before(const struct pmc_run_progress *p, void *arg)
{
	struct stat_run *run = arg;

	(void)p;
	return hook(run, "--pre", run->opts->pre);
}

static int after(const struct pmc_run_progress *p, void *arg)
{
	struct stat_run *run = arg;

	(void)p;
	return hook(run, "--post", run->opts->post);
}

/* perf's "Events enabled" and "Events disabled", which scripts wait for. */
static void on_enable(bool on, const struct pmc_evsel *only, void *arg)
{
	(void)arg;
	if (only)
		fprintf(stderr, "pmc stat: '%s' %s\n", pmc_evsel__name(only),
			on ? "enabled" : "disabled");
	else
		fprintf(stderr, "pmc stat: events %s\n", on ? "enabled" : "disabled");
}

void stat_live_hooks(struct stat_run *run, struct pmc_run_opts *ro)
{
	const struct stat_opts *o = run->opts;

	if (o->pre)
		ro->before_run = before;
	if (o->post)
		ro->after_run = after;
	if (o->delay_ms || o->control)
		ro->on_enable = on_enable;
}
