// SPDX-License-Identifier: MIT
/*
 * alternate ROUNDS CMD1 -- CMD2 [-- CMD3 ...]: runs each command once a round, ROUNDS rounds,
 * in an order rotated from round to round (so that no command always follows the same one),
 * and prints one line a run: "ROUND CMD WALL_NS CPU_NS", the wall-clock time from
 * posix_spawn to wait4 and the user + system time of the command and of the children it
 * waited for. Interleaving puts the commands under the same load, so that the difference of
 * two commands in a round is a paired sample (bench/stat/metric-overhead.sh). stdout and
 * stderr of the commands go to /dev/null; a command that fails stops the whole.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* One run of argv: 0 and its times, or -1 when it could not start or did not exit 0. */
static int run(char **argv, posix_spawn_file_actions_t *fa, long long *wall, long long *cpu)
{
	struct timespec t0, t1;
	struct rusage ru;
	pid_t pid;
	int status;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (posix_spawnp(&pid, argv[0], fa, NULL, argv, environ) ||
	    wait4(pid, &status, 0, &ru) != pid)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*wall = ns(&t1) - ns(&t0);
	*cpu = tv_ns(&ru.ru_utime) + tv_ns(&ru.ru_stime);
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
			long long wall, cpu;

			if (run(cmd[c], &fa, &wall, &cpu)) {
				fprintf(stderr, "alternate: command %d failed in round %d\n", c, r);
				return 1;
			}
			printf("%d %d %lld %lld\n", r, c, wall, cpu);
		}
	}
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
