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
#include <sys/syscall.h>

/*
 * The syscall instruction itself, its result ignored: libc's wrappers take another path when
 * a call fails (errno), so which descriptors happened to be open (one the runner left, say)
 * changed the program's instruction count from one run to the next (by 26, seen under load).
 */
static inline void raw_syscall(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	(void)ret;
}

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
		raw_syscall(SYS_write, fd, (long)junk, sizeof(junk));
		raw_syscall(SYS_close, fd, 0, 0);
	}
	loop(strtol(argv[1], NULL, 10));
	return 0;
}
