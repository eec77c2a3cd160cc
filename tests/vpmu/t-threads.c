/* SPDX-License-Identifier: MIT */
/* Per-thread counters: each thread's own loop is counted exactly in that thread, and the
 * --out-fd totals are checked against the per-thread records by stream-check. */
#include <pthread.h>
#include "vpmu-guest.h"

#define NTHREADS 4

static unsigned long loop_delta(long n)
{
	unsigned long a = vp_read(0), b;

	__asm__ volatile("test %0,%0; jz 2f; 1: nop; add $1,%%rax; dec %0; jnz 1b; 2:"
			 : "+r"(n)
			 :
			 : "rax", "cc");
	b = vp_read(0);
	return b - a;
}

static void *worker(void *arg)
{
	long k = (long)arg;
	unsigned long empty = loop_delta(0), d = loop_delta(1000 * k);

	CHECK(d - empty == 4000UL * k, "thread %ld: expected %lu, got %lu", k, 4000UL * k,
	      d - empty);
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREADS];
	unsigned long before;

	vp_require_vpmu();
	before = vp_read(0);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	/* The other threads' loops are not in this thread's counter. */
	CHECK(vp_read(0) - before < 200000, "main thread counted other threads: %lu",
	      vp_read(0) - before);
	CHECK(vp_req(VPMU_REQ_READ_TOTAL, 0, 0, 0, 0) > 40000, "total holds the workers' loops");
	return failures != 0;
}
