// SPDX-License-Identifier: MIT
/*
 * Workload for JIT symbols: a "JIT" copies a counting loop into an anonymous executable
 * mapping and runs it, as a JIT compiler runs the code it made; about as long is spent in
 * named_work(), a function of this program. With "map" as its second argument it writes
 * /tmp/perf-PID.map naming the loop jit_loop, as JIT compilers do for perf.
 *
 *   sample-jit ROUNDS [map]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* loop: sub $1,%rdi; jnz loop; ret */
static const unsigned char code[] = {0x48, 0x83, 0xef, 0x01, 0x75, 0xfa, 0xc3};

static volatile unsigned long sink;

__attribute__((noinline)) void named_work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	void (*loop)(unsigned long);
	unsigned char *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED) {
		perror("sample-jit: mmap");
		return 1;
	}
	memcpy(mem + 64, code, sizeof(code));
	loop = (void (*)(unsigned long))(mem + 64);
	if (argc > 2 && !strcmp(argv[2], "map")) {
		char path[64];
		FILE *f;
		snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
		f = fopen(path, "w");
		if (!f) {
			perror(path);
			return 1;
		}
		fprintf(f, "%lx %zx jit_loop\n", (unsigned long)(mem + 64), sizeof(code));
		fclose(f);
	}
	for (unsigned long r = 0; r < rounds; r++) {
		loop(3000000);
		named_work(1000000);
	}
	printf("%lu\n", sink & 1);
	return 0;
}
