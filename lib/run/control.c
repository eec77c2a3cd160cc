// SPDX-License-Identifier: MIT
/*
 * perf's control protocol (perf-stat(1), --control; docs/stat-output.md, "Control"): lines on
 * the control descriptor, each ended by '\n' or '\0', at most 63 bytes ("enable", "disable",
 * "enable NAME", "disable NAME", "ping"); every command understood is acknowledged by "ack\n"
 * on the ack descriptor once done, so that a program that waits for it knows the counters
 * are switched. Others are logged and not acknowledged, as perf does.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "count/counting.h"
#include "run/runner.h"

static void ack(struct pmc_run *run)
{
	static const char msg[] = "ack\n";

	if (run->opts.ack_fd > 0 && write(run->opts.ack_fd, msg, sizeof(msg) - 1) < 0)
		run_warn(run, "control: cannot acknowledge on descriptor %d: %s\n",
			 run->opts.ack_fd, strerror(errno));
}

/* Every event (name NULL) or the one named switched on or off; 0, or -ENOENT for a name. */
static int set(struct pmc_run *run, const char *name, bool on)
{
	struct pmc_evsel *only = NULL;
	int err;

	for (size_t i = 0; name && i < run->res.nr_events && !only; i++)
		if (!strcmp(pmc_evsel__name(run->res.events[i].evsel), name))
			only = run->res.events[i].evsel;
	if (name && !only) {
		run_warn(run, "control: no event '%s' to %s\n", name, on ? "enable" : "disable");
		return -ENOENT;
	}
	err = only ? pmc__evsel_set_enabled(only, on)
	      : on ? pmc_evlist__enable(run->evlist)
		   : pmc_evlist__stop(run->evlist);
	if (err == -ENOENT)
		err = 0; /* an event of another pass: nothing to switch in this run */
	if (err)
		run_warn(run, "control: cannot %s %s: %s\n", on ? "enable" : "disable",
			 name ? name : "the counters", strerror(-err));
	else if (run->opts.on_enable)
		run->opts.on_enable(on, only, run->opts.arg);
	return err;
}

/* "WORD" or "WORD ARG": the argument, "" when none, NULL when the line is not WORD's. */
static const char *arg_of(const char *line, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(line, word, n))
		return NULL;
	return line[n] == ' ' ? line + n + 1 : line[n] ? NULL : line + n;
}

static void command(struct pmc_run *run, const char *line)
{
	const char *a;

	if ((a = arg_of(line, "enable")))
		set(run, *a ? a : NULL, true);
	else if ((a = arg_of(line, "disable")))
		set(run, *a ? a : NULL, false);
	else if ((a = arg_of(line, "ping")) && !*a)
		;
	else {
		run_warn(run,
			 "control: unknown command '%s' (enable, disable, enable NAME, "
			 "disable NAME, ping): not acknowledged\n",
			 line);
		return;
	}
	ack(run);
}

int pmc__run_control(struct pmc_run *run)
{
	char buf[256];
	ssize_t n;

	n = read(run->opts.ctl_fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		run->ctl_closed = true;
		return -1;
	}
	for (ssize_t i = 0; i < n; i++) {
		char c = buf[i];

		if (c == '\n' || c == '\0') {
			run->ctl_line[run->ctl_len] = 0;
			if (run->ctl_len)
				command(run, run->ctl_line);
			run->ctl_len = 0;
		} else if (run->ctl_len < sizeof(run->ctl_line) - 1) {
			run->ctl_line[run->ctl_len++] = c;
		}
	}
	return 0;
}
