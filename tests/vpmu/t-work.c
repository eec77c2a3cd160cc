/* SPDX-License-Identifier: MIT */
/* A small deterministic workload touching every vpmu detector (FP/SIMD, multiply/divide,
 * every branch kind, misaligned and split accesses, cache and TLB misses, dirty write-backs,
 * REP strings, system calls), run under vpmu by golden.sh to pin every counter value.  The
 * counters are reset when main starts and stopped when its work is done: the dynamic loader's
 * start-up before (it walks the kernel's auxiliary vector and vDSO, which differ between
 * kernels) and the exit after are not counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <valgrind.h>
#include <vpmu/protocol.h>

#define BIG (24u << 20) /* larger than every modelled LLC, so lines are evicted dirty */

static double a[64][64], b[64][64], c[64][64];
static float fv[1024];
static unsigned char big[BIG];

static int cmp(const void *x, const void *y)
{
	unsigned p = *(const unsigned *)x, q = *(const unsigned *)y;

	return p < q ? -1 : p > q;
}

/* A switch dense enough for a jump table: an indirect jump per call. */
static __attribute__((noinline)) unsigned step(unsigned op, unsigned v)
{
	switch (op & 7) {
	case 0:
		return v + 3;
	case 1:
		return v * 7;
	case 2:
		return v ^ 0x55;
	case 3:
		return v / 3 + 1;
	case 4:
		return v - 9;
	case 5:
		return v % 13 + v;
	case 6:
		return v << 1;
	default:
		return v >> 1;
	}
}

static __attribute__((noinline)) unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void fp_work(void)
{
	long double x = 1;
	float s = 0;
	int i, j, k;

	for (i = 0; i < 64; i++)
		for (j = 0; j < 64; j++)
			a[i][j] = i + j, b[i][j] = i - j;
	for (i = 0; i < 64; i++)
		for (k = 0; k < 64; k++)
			for (j = 0; j < 64; j++)
				c[i][j] += a[i][k] * b[k][j];
	for (i = 0; i < 1024; i++)
		fv[i] = (float)i * 0.5f;
	for (i = 0; i < 1024; i++)
		s += fv[i] / (fv[(i * 7) & 1023] + 1.0f);
	for (i = 1; i < 200; i++)
		x = x * 1.0001L + (long double)i / 7;
	printf("%f %f %Lf\n", c[5][9], (double)s, x);
}

static void mem_work(void)
{
	static unsigned char buf[4096 + 64];
	unsigned long sum = 0, i;
	unsigned *v;

	for (i = 0; i < BIG; i += 64) /* streaming stores: misses and dirty evictions */
		big[i] = (unsigned char)i;
	for (i = 0; i < BIG; i += 4096 + 64) /* page-striding loads: DTLB misses */
		sum += big[i];
	for (i = 0; i < 4000; i++) { /* misaligned and line-split accesses */
		unsigned off = (unsigned)(i * 13) % 4000;
		unsigned long w;

		memcpy(&w, buf + off + 1, sizeof(w));
		w += i;
		memcpy(buf + off + 3, &w, sizeof(w));
		sum += w;
	}
	memset(buf, (int)sum, sizeof(buf)); /* REP STOS or vector stores, as glibc chooses */
	v = malloc(sizeof(*v) * 20000);
	for (i = 0; i < 20000; i++)
		v[i] = (unsigned)(i * 2654435761u) >> 5;
	qsort(v, 20000, sizeof(*v), cmp); /* indirect calls */
	printf("%lu %u %u\n", sum, v[7], buf[9]);
	free(v);
}

int main(void)
{
	unsigned v = 1, i;

	VALGRIND_DO_CLIENT_REQUEST_STMT(VPMU_REQ_RESET, VPMU_ALL_COUNTERS, 0, 0, 0, 0);
	fp_work();
	mem_work();
	for (i = 0; i < 20000; i++)
		v = step(i * 2654435761u >> 7, v);
	printf("%u %u %d\n", v, fib(18), getpid() > 0);
	fflush(stdout);
	VALGRIND_DO_CLIENT_REQUEST_STMT(VPMU_REQ_STOP, VPMU_ALL_COUNTERS, 0, 0, 0, 0);
	return 0;
}
