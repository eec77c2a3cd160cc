// SPDX-License-Identifier: MIT
/*
 * Workload: N threads (the main one among them) that each spin on the clock for MS
 * milliseconds, so that the process keeps up to N CPUs busy: spin-threads N MS.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;
static long spin_ms;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *spin(void *arg)
{
	double end = now_ms() + (double)spin_ms;

	while (now_ms() < end)
		sink++;
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pthread_t t[64];
	int started = 0;

	spin_ms = argc > 2 ? atol(argv[2]) : 500;
	if (n < 1 || n > 64 || spin_ms < 0)
		return 2;
	while (started < n - 1 && !pthread_create(&t[started], NULL, spin, NULL))
		started++;
	spin(NULL);
	while (started)
		pthread_join(t[--started], NULL);
	return 0;
}
