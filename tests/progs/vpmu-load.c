// SPDX-License-Identifier: MIT
/*
 * Workload for sampling under vpmu: vpmu-load R walks the array vpmu_array R times with a
 * 64-byte stride in vpmu_walk, whose first instruction is its only load:
 *   vpmu_walk: mov (%rdi),%rax; add $64,%rdi; dec %rsi; jnz vpmu_walk; ret
 * so a precise load sample inside vpmu_walk is at vpmu_walk+0, and its data address lies in
 * vpmu_array (16 MiB: beyond the caches, so loads come from memory).
 */
#include <stdlib.h>

#define ARRAY_BYTES (16l << 20)

char vpmu_array[ARRAY_BYTES] __attribute__((aligned(64)));
void vpmu_walk(const char *p, long lines);

__asm__(".text\n.globl vpmu_walk\n.type vpmu_walk,@function\n"
	"vpmu_walk:\n\tmov (%rdi),%rax\n\tadd $64,%rdi\n\tdec %rsi\n\tjnz vpmu_walk\n\tret\n"
	".size vpmu_walk,.-vpmu_walk\n");

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1;

	for (long r = 0; r < rounds; r++)
		vpmu_walk(vpmu_array, ARRAY_BYTES / 64);
	return 0;
}
