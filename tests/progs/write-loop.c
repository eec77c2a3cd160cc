// SPDX-License-Identifier: MIT
/* Workload: exactly N write(2) system calls of one byte to /dev/null (N = argv[1], default 100). */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100;
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return 1;
	/* syscall() rather than write(): nothing in libc can merge or skip a call. */
	for (long i = 0; i < n; i++)
		syscall(SYS_write, fd, "x", 1);
	return 0;
}
