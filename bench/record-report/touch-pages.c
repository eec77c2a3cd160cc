// SPDX-License-Identifier: MIT
/*
 * touch-pages FILE: maps FILE and reads one byte of each 4 KiB page, the least that a reader
 * of every record of a mapped perf.data file does: its CPU time (run it under rusage.c) is
 * the file's own I/O floor for pmc report (bench/RESULTS.md, "DWARF call chains: the fast
 * path"). Build: gcc -O2 -o touch-pages touch-pages.c
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const unsigned char *p;
	unsigned long sum = 0;
	struct stat st;
	int fd;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st))
		return 2;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	for (off_t i = 0; i < st.st_size; i += 4096)
		sum += p[i];
	printf("%lu\n", sum);
	return 0;
}
