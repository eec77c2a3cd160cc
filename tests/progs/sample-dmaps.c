// SPDX-License-Identifier: MIT
/*
 * Workload for data symbols: first touches of three kinds of memory, one page fault per
 * page: dm_global (a 64 KiB global, 16 pages), 64 KiB from malloc (the brk heap, [heap]),
 * and 1 MiB of anonymous mmap (256 pages).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

char dm_global[64 << 10];

static void touch(volatile char *p, size_t len)
{
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 1;
}

int main(void)
{
	char *heap = malloc(64 << 10); /* under the mmap threshold: from brk */
	char *anon =
		mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (!heap || anon == MAP_FAILED)
		return 1;
	touch(dm_global, sizeof(dm_global));
	touch(heap, 64 << 10);
	touch(anon, 1 << 20);
	printf("%d\n", heap[0] + anon[0] + dm_global[0]);
	return 0;
}
