// SPDX-License-Identifier: MIT
/*
 * Workload: makes 100 getppid calls, then ends as told: "exit N" exits with status N,
 * "signal N" raises signal N (after restoring its default action), "sleep S" sleeps S
 * seconds first (for Ctrl-C tests).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	for (int i = 0; i < 100; i++)
		syscall(SYS_getppid);
	for (int i = 1; i + 1 < argc; i += 2) {
		int v = atoi(argv[i + 1]);

		if (!strcmp(argv[i], "sleep"))
			sleep((unsigned)v);
		else if (!strcmp(argv[i], "signal")) {
			signal(v, SIG_DFL);
			raise(v);
		} else if (!strcmp(argv[i], "exit"))
			return v;
	}
	return 0;
}
