// SPDX-License-Identifier: MIT
/*
 * Workload for sampling tests: about three quarters of its time in hot(), a quarter in cold().
 * At exit it says on stderr which share of the two functions' CPU time hot() took, as the
 * thread's own clock measured it ("sample-split: hot 77.21%"): a sampler's split is checked
 * against that, not against 75 (the two loops' costs differ by a few points with the code
 * the compiler makes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

static double thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 400;
	double hot_ns = 0, cold_ns = 0;

	for (unsigned long r = 0, seed = 1; r < rounds; r++) {
		double t0 = thread_ns(), t1, t2;
		/*
		 * Each round's length varies (0.5 to 1.5 times 500,000 iterations, the same for
		 * both): a round of fixed length is a whole number of sampling periods at some
		 * rates (2 ms at -F 2000), and the samples then land at the same phase of every
		 * round, so the split a sampler saw depended on that phase, not on the time spent.
		 */
		unsigned long n;

		seed = seed * 6364136223846793005ul + 1442695040888963407ul;
		n = 250000 + (seed >> 33) % 500000;
		hot(n);
		t1 = thread_ns();
		cold(n);
		t2 = thread_ns();
		hot_ns += t1 - t0;
		cold_ns += t2 - t1;
	}
	printf("%lu\n", sink & 1);
	if (hot_ns + cold_ns > 0)
		fprintf(stderr, "sample-split: hot %.2f%%\n", 100 * hot_ns / (hot_ns + cold_ns));
	return 0;
}
