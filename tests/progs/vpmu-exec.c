// SPDX-License-Identifier: MIT
/*
 * Workload that execs, for following exec under vpmu:
 *   vpmu-exec N [-f] PROG ARGS...   N x {nop; add; dec; jnz} (4 instructions), then execv PROG
 * With -f it first tries to exec a path that does not exist (the call fails and the program
 * goes on), then PROG. Runs of different N with the same number of digits take the same
 * path everywhere else, so differences between two runs are exactly 4 x the difference of N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static __attribute__((noinline)) void loop(long n)
{
	__asm__ volatile("test %0,%0; jz 2f; 1: nop; add $1,%%rax; dec %0; jnz 1b; 2:"
			 : "+r"(n)
			 :
			 : "rax", "cc");
}

int main(int argc, char **argv)
{
	char *none[] = {"vpmu-exec-none", NULL};
	int i = 2;

	if (argc < 3)
		return 2;
	loop(strtol(argv[1], NULL, 10));
	if (!strcmp(argv[i], "-f")) {
		execv("/nonexistent/vpmu-exec-none", none);
		i++;
	}
	if (i >= argc)
		return 2;
	execv(argv[i], argv + i);
	perror("vpmu-exec: execv");
	return 127;
}
