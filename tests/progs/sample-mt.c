// SPDX-License-Identifier: MIT
/*
 * Workload for time-ordering tests: P processes (fork, no exec) each start waves of named
 * threads that burn CPU in mt_burn(); threads are born and die throughout the run.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static long burn_ms = 20;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Not a leaf, so that frame-pointer chains name its caller (as sample-split's note()). */
__attribute__((noinline)) void mt_note(unsigned long n)
{
	sink ^= n;
}

__attribute__((noinline)) void mt_burn(long ms)
{
	double end = now_ms() + (double)ms;

	while (now_ms() < end)
		for (unsigned long i = 0; i < 20000; i++)
			sink += i * 7;
	mt_note((unsigned long)ms);
}

/* Each thread names itself before it burns: every mt_burn() sample belongs to "mt-w*". */
static void *worker(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "mt-w%ld", (long)(size_t)arg);
	pthread_setname_np(pthread_self(), name);
	mt_burn(burn_ms);
	return NULL;
}

static void waves(int proc, int nwaves)
{
	for (int w = 0; w < nwaves; w++) {
		pthread_t t[2];
		for (int i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, worker,
				       (void *)(size_t)(proc * 1000 + w * 2 + i));
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	}
}

/* Usage: sample-mt [PROCS [WAVES [MS]]]: PROCS processes, WAVES waves of 2 threads of MS ms. */
int main(int argc, char **argv)
{
	int procs = argc > 1 ? atoi(argv[1]) : 2;
	int nwaves = argc > 2 ? atoi(argv[2]) : 10;

	if (argc > 3)
		burn_ms = atol(argv[3]);
	for (int p = 1; p < procs; p++) {
		if (fork() == 0) {
			waves(p, nwaves);
			_exit(0);
		}
	}
	waves(0, nwaves);
	while (wait(NULL) > 0)
		;
	printf("%lu\n", sink & 1);
	return 0;
}
