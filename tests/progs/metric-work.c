// SPDX-License-Identifier: MIT
/*
 * Workloads whose top-down answer is known, for the metric tests under vpmu
 * (tests/unit/test-metric-vpmu.c):
 *   metric-work chase     a dependent pointer chase over 64 MiB: each 64-byte line is written
 *                         once (its pointer) and read once, 4,099 lines (256 KiB) after the
 *                         one before, so every read misses the caches and the DTLB: back-end
 *                         (memory) bound
 *   metric-work branches N  N conditional branches on the bits of a xorshift generator: half of
 *                         them mispredicted, whatever the predictor: bad speculation
 *   metric-work alu N     N iterations of 8 independent register adds, a decrement and a
 *                         predicted loop branch: retiring
 * The branches and the loops are written in assembly so that the compiler keeps them as they
 * are (no conditional moves, no vectorising).
 */
#include <stdlib.h>
#include <string.h>

#define CHASE_BYTES (64l << 20)
#define LINE 64
#define NR_LINES (CHASE_BYTES / LINE)
#define STRIDE 4099 /* lines: odd, so coprime with NR_LINES (a power of 2): one cycle */

static long chase(void)
{
	char *buf = malloc(CHASE_BYTES);
	long i, nr = 0;
	void **p;

	if (!buf)
		return -1;
	for (i = 0; i < NR_LINES; i++)
		*(void **)(buf + i * LINE) = buf + ((i + STRIDE) % NR_LINES) * LINE;
	p = (void **)buf;
	do {
		p = (void **)*p;
		nr++;
	} while (p != (void **)buf);
	free(buf);
	return nr == NR_LINES ? 0 : -1;
}

static __attribute__((noinline)) void branches(long n)
{
	unsigned long x = 88172645463325252ul;

	__asm__ volatile("test %0,%0; jz 3f\n"
			 "1: mov %1,%%rax; shl $13,%%rax; xor %%rax,%1\n"
			 "mov %1,%%rax; shr $7,%%rax; xor %%rax,%1\n"
			 "mov %1,%%rax; shl $17,%%rax; xor %%rax,%1\n"
			 "test $1,%1; jz 2f; nop\n"
			 "2: dec %0; jnz 1b\n"
			 "3:"
			 : "+r"(n), "+r"(x)
			 :
			 : "rax", "cc");
}

static __attribute__((noinline)) void alu(long n)
{
	__asm__ volatile("test %0,%0; jz 2f\n"
			 "1: add $1,%%rax; add $1,%%rbx; add $1,%%rcx; add $1,%%rdx\n"
			 "add $1,%%rsi; add $1,%%rdi; add $1,%%r8; add $1,%%r9\n"
			 "dec %0; jnz 1b\n"
			 "2:"
			 : "+r"(n)
			 :
			 : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "cc");
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 0;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "chase"))
		return chase() ? 1 : 0;
	if (!strcmp(argv[1], "branches"))
		branches(n);
	else if (!strcmp(argv[1], "alu"))
		alu(n);
	else
		return 2;
	return 0;
}
