// SPDX-License-Identifier: MIT
/*
 * Loads from two heap arrays allocated at two sites (cli.test-vpmu-heap): array_a, of
 * malloc, is read 3 N times, array_b, of calloc, N times, and an array of the brk heap
 * (sbrk, no allocator) N times, one 8-byte load each, by the same loop in walk();
 * N = argv[1]. Under vpmu a sample every P loads of walk() falls on them in the ratio 3:1:1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define LEN 512 /* longs: 4 KiB, L1-resident */

/* n loads of p[0..LEN), in a loop of known instructions: load, add, inc, and, dec, jnz. */
__attribute__((noinline)) long walk(const long *p, long n)
{
	long sum = 0, i = 0;

	__asm__ volatile("test %[n],%[n]; jz 2f\n"
			 "1: add (%[p],%[i],8),%[s]; inc %[i]; and $511,%[i]; dec %[n]; jnz 1b\n"
			 "2:"
			 : [s] "+r"(sum), [i] "+r"(i), [n] "+r"(n)
			 : [p] "r"(p)
			 : "cc", "memory");
	return sum;
}

__attribute__((noinline)) long *array_a(void)
{
	return malloc(LEN * sizeof(long));
}

__attribute__((noinline)) long *array_b(void)
{
	return calloc(LEN, sizeof(long));
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000, s;
	long *a = array_a(), *b = array_b(), *h = sbrk(LEN * sizeof(long));

	if (!a || !b || h == (void *)-1)
		return 1;
	for (int i = 0; i < LEN; i++)
		a[i] = i, h[i] = 1;
	s = walk(a, 3 * n) + walk(b, n) + walk(h, n);
	printf("%ld\n", s);
	free(a);
	free(b);
	return 0;
}
