// SPDX-License-Identifier: MIT
/* Workload: exactly N getppid(2) system calls (N = argv[1], default 1000). */
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;

	/* syscall() rather than getppid(): no libc caching can ever elide a call. */
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
