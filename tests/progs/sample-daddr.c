// SPDX-License-Identifier: MIT
/* Workload with a load at a known symbol (daddr_load: rax = *(rdi + rsi*8 + 16)) for reconstruction
 * tests. */
#include <stdio.h>

__asm__(".text\n"
	".globl daddr_load\n"
	".type daddr_load, @function\n"
	"daddr_load:\n"
	"	movq 16(%rdi,%rsi,8), %rax\n"
	"	ret\n"
	".size daddr_load, .-daddr_load\n");

long daddr_load(const long *base, long idx);

static long table[64];

int main(void)
{
	long sum = 0;

	for (long i = 0; i < 1000000; i++)
		sum += daddr_load(table, i & 31);
	printf("%ld\n", sum);
	return 0;
}
