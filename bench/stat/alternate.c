// SPDX-License-Identifier: MIT
/*
 * alternate ROUNDS CMD1 -- CMD2 [-- CMD3 ...]: runs each command once a round, ROUNDS rounds,
 * in an order rotated from round to round (so that no command always follows the same one),
 * and prints one line a run: "ROUND CMD WALL_NS CPU_NS SELF_NS SELF_MINFLT": the wall-clock
 * time from posix_spawn to its exit; the user + system time of the command and of the
 * children it waited for (wait4); and of the command's own process alone, its run time
 * (/proc/PID/schedstat, in ns) and minor page faults (/proc/PID/stat), read while it is a
 * zombie (waitid with WNOWAIT), -1 where unreadable. Interleaving puts the commands under the
 * same load, so that the difference of two commands in a round is a paired sample
 * (bench/stat/metric-overhead.sh). stdout and stderr of the commands go to /dev/null; a
 * command that fails stops the whole.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#define MAX_CMDS 16

extern char **environ;

static long long ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static long long tv_ns(const struct timeval *t)
{
	return (long long)t->tv_sec * 1000000000LL + (long long)t->tv_usec * 1000;
}

/* The zombie pid's own run time (ns) and minor faults, or -1. */
static void self_times(pid_t pid, long long *run_ns, long long *minflt)
{
	char path[64], buf[1024], *p;
	FILE *f;

	*run_ns = *minflt = -1;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%lld", run_ns) != 1)
			*run_ns = -1;
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return;
	/* after "(comm)": state ppid pgrp session tty_nr tpgid flags minflt */
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %lld", minflt) != 1)
		*minflt = -1;
	fclose(f);
}

/* One run of argv: 0 and its times, or -1 when it could not start or did not exit 0. */
static int run(char **argv, posix_spawn_file_actions_t *fa, long long *t)
{
	struct timespec t0, t1;
	struct rusage ru;
	siginfo_t si;
	pid_t pid;
	int status;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (posix_spawnp(&pid, argv[0], fa, NULL, argv, environ) ||
	    waitid(P_PID, pid, &si, WEXITED | WNOWAIT))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	self_times(pid, &t[2], &t[3]);
	if (wait4(pid, &status, 0, &ru) != pid)
		return -1;
	t[0] = ns(&t1) - ns(&t0);
	t[1] = tv_ns(&ru.ru_utime) + tv_ns(&ru.ru_stime);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

int main(int argc, char **argv)
{
	char **cmd[MAX_CMDS];
	posix_spawn_file_actions_t fa;
	int nr = 0, rounds = argc > 2 ? atoi(argv[1]) : 0;

	/* Each "--" becomes the NULL that ends the command before it; argv[argc] ends the last. */
	for (int i = 2; i < argc && nr < MAX_CMDS; i++) {
		if (i == 2 || !argv[i - 1])
			cmd[nr++] = &argv[i];
		if (!strcmp(argv[i], "--"))
			argv[i] = NULL;
	}
	for (int k = 0; k < nr; k++)
		if (!cmd[k][0])
			rounds = 0; /* an empty command: "-- --" */
	if (rounds <= 0 || nr < 2) {
		fprintf(stderr, "usage: alternate ROUNDS CMD1 -- CMD2 [-- CMD3 ...]\n");
		return 2;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < nr; k++) {
			int c = (k + r) % nr;
			long long t[4];

			if (run(cmd[c], &fa, t)) {
				fprintf(stderr, "alternate: command %d failed in round %d\n", c, r);
				return 1;
			}
			printf("%d %d %lld %lld %lld %lld\n", r, c, t[0], t[1], t[2], t[3]);
		}
	}
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
