// SPDX-License-Identifier: MIT
/*
 * rusage CMD...: runs CMD (stdout and stderr to /dev/null) and prints "CPU-seconds peak-MiB":
 * its user + system time and maximum resident set, from wait4(2). posix_spawn starts it
 * without a copy of this process, so that neither this program's time nor its memory (which
 * exec would carry into ru_maxrss) counts; a Python or shell wrapper added ~1 ms and ~9 MiB.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char **environ;

int main(int argc, char **argv)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	pid_t pid;
	int status;

	if (argc < 2)
		return 2;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, argv[1], &fa, NULL, argv + 1, environ) ||
	    wait4(pid, &status, 0, &ru) != pid)
		return 1;
	printf("%.4f %.1f\n",
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
	       (double)ru.ru_maxrss / 1024);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}
