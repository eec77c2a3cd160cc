// SPDX-License-Identifier: MIT
/* Workload: T threads (argv[1], default 4) each make N getppid calls (argv[2], default 250). */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

static long n = 250;

static void *worker(void *arg)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return arg;
}

int main(int argc, char **argv)
{
	int t = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t tid[64];

	if (argc > 2)
		n = strtol(argv[2], NULL, 10);
	if (t > 64)
		t = 64;
	for (int i = 0; i < t; i++)
		pthread_create(&tid[i], NULL, worker, NULL);
	for (int i = 0; i < t; i++)
		pthread_join(tid[i], NULL);
	return 0;
}
