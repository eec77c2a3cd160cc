// SPDX-License-Identifier: MIT
/* Workload for sampling tests: about three quarters of its time in hot(), a quarter in cold(). */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

/*
 * hot() and cold() call this after their loops so that they are not leaf functions: gcc
 * then gives them a frame pointer, and frame-pointer call chains name their caller.
 */
__attribute__((noinline)) void note(unsigned long n)
{
	sink ^= n;
}

/* Both loops have the same body; hot() runs three times the iterations of cold(). */
__attribute__((noinline)) void hot(unsigned long n)
{
	for (unsigned long i = 0; i < 3 * n; i++)
		sink += i * 7;
	note(n);
}

__attribute__((noinline)) void cold(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
	note(n);
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 400;

	for (unsigned long r = 0; r < rounds; r++) {
		hot(500000);
		cold(500000);
	}
	printf("%lu\n", sink & 1);
	return 0;
}
