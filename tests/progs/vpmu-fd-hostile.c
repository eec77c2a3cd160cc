// SPDX-License-Identifier: MIT
/*
 * A program hostile to descriptors it did not open, for the vpmu tool's --out-fd stream:
 *   vpmu-fd-hostile N    writes bytes that are no stream record to every descriptor from 3
 *                        to 64 past its limit of open files and closes each, then runs
 *                        N x {nop; add; dec; jnz} (4 instructions)
 * Under the tool the stream must stay whole and the counts exact.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

static __attribute__((noinline)) void loop(long n)
{
	__asm__ volatile("test %0,%0; jz 2f; 1: nop; add $1,%%rax; dec %0; jnz 1b; 2:"
			 : "+r"(n)
			 :
			 : "rax", "cc");
}

int main(int argc, char **argv)
{
	struct rlimit rl;
	char junk[64];
	long max = 1024;

	if (argc != 2)
		return 2;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536)
		max = (long)rl.rlim_cur;
	signal(SIGPIPE, SIG_IGN); /* a pipe without a reader is refused (EPIPE), not fatal */
	memset(junk, 'Z', sizeof(junk));
	for (long fd = 3; fd < max + 64; fd++) {
		if (write((int)fd, junk, sizeof(junk)) < 0) {
			/* not open, or refused: close it all the same */
		}
		close((int)fd);
	}
	loop(strtol(argv[1], NULL, 10));
	return 0;
}
