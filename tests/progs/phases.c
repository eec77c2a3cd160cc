// SPDX-License-Identifier: MIT
/*
 * Workload in phases, for counting that is switched while a program runs (pmc stat -D,
 * --control). Each step, in order:
 *   getppid N         N getppid(2) calls
 *   write FD N        N one-byte write(2) calls to descriptor FD
 *   ctl CTL ACK WORD  WORD and a newline on the FIFO CTL, then waits for "ack\n" on ACK
 *                     (perf's control protocol: the counters are switched when it returns)
 *   wait FIFO         waits until a byte can be read from FIFO
 *   mark FILE         creates FILE (a point the test waits for)
 * Exits 2 on a bad step, 3 when a FIFO fails.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

static int ctl_fd = -1, ack_fd = -1;

static int say(const char *ctl, const char *ack, const char *word)
{
	char buf[4];
	size_t got = 0;

	if (ctl_fd < 0)
		ctl_fd = open(ctl, O_WRONLY | O_CLOEXEC);
	if (ack_fd < 0)
		ack_fd = open(ack, O_RDONLY | O_CLOEXEC);
	if (ctl_fd < 0 || ack_fd < 0)
		return 3;
	if (syscall(SYS_write, ctl_fd, word, strlen(word)) < 0 ||
	    syscall(SYS_write, ctl_fd, "\n", 1) != 1)
		return 3;
	while (got < sizeof(buf)) {
		long n = syscall(SYS_read, ack_fd, buf + got, sizeof(buf) - got);

		if (n <= 0)
			return 3;
		got += (size_t)n;
	}
	return memcmp(buf, "ack\n", 4) ? 3 : 0;
}

static int wait_fifo(const char *path)
{
	char c;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long n = fd < 0 ? -1 : syscall(SYS_read, fd, &c, 1);

	if (fd >= 0)
		close(fd);
	return n == 1 ? 0 : 3;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc;) {
		const char *s = argv[i];
		int rc = 0;

		if (!strcmp(s, "getppid") && i + 1 < argc) {
			for (long k = strtol(argv[i + 1], NULL, 10); k > 0; k--)
				syscall(SYS_getppid);
			i += 2;
		} else if (!strcmp(s, "write") && i + 2 < argc) {
			int fd = atoi(argv[i + 1]);

			for (long k = strtol(argv[i + 2], NULL, 10); k > 0; k--)
				syscall(SYS_write, fd, "x", 1);
			i += 3;
		} else if (!strcmp(s, "ctl") && i + 3 < argc) {
			rc = say(argv[i + 1], argv[i + 2], argv[i + 3]);
			i += 4;
		} else if (!strcmp(s, "wait") && i + 1 < argc) {
			rc = wait_fifo(argv[i + 1]);
			i += 2;
		} else if (!strcmp(s, "mark") && i + 1 < argc) {
			int fd = open(argv[i + 1], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

			rc = fd < 0 ? 3 : close(fd);
			i += 2;
		} else {
			return 2;
		}
		if (rc)
			return rc;
	}
	return 0;
}
