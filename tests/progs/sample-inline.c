// SPDX-License-Identifier: MIT
/*
 * Workload for inlined frames: nearly all its time is in spin(), which the compiler inlines
 * into outer() (always_inline), so a sample's address is in outer() and its source line
 * in spin(). Runs about N milliseconds of CPU time (argument, default 300).
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 3;
}

__attribute__((noinline)) void outer(unsigned long n)
{
	spin(n);
	sink ^= n;
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300, start = cpu_ms();

	while (cpu_ms() - start < ms)
		outer(1000000);
	return 0;
}
