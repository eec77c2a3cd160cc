// SPDX-License-Identifier: MIT
/* Workload for DWARF unwinding: nearly all time in deep_hot(), called main → deep_a → deep_b. */
#include <stdio.h>
#include <stdlib.h>

/*
 * Built with -fomit-frame-pointer (tests/CMakeLists.txt): %rbp is a general register here,
 * so only the CFI in .eh_frame can name deep_hot()'s callers. Each level keeps a local
 * array on its stack so that the frames have different sizes, and does work after its
 * call so that the call is not a tail call.
 */
static volatile unsigned long sink;

__attribute__((noinline)) unsigned long deep_hot(unsigned long n)
{
	volatile unsigned long pad[3] = {n, n, n};

	for (unsigned long i = 0; i < n; i++)
		sink += i * 7 + pad[i % 3];
	return sink;
}

__attribute__((noinline)) unsigned long deep_b(unsigned long n)
{
	volatile unsigned long pad[5] = {n};

	pad[4] = deep_hot(n);
	return pad[4] + pad[0];
}

__attribute__((noinline)) unsigned long deep_a(unsigned long n)
{
	volatile unsigned long pad[9] = {n};

	pad[8] = deep_b(n);
	return pad[8] ^ pad[0];
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;
	unsigned long acc = 0;

	for (unsigned long r = 0; r < rounds; r++)
		acc += deep_a(1000000);
	printf("%lu\n", acc & 1);
	return 0;
}
