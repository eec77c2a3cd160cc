// SPDX-License-Identifier: MIT
/*
 * Workload of an MPI rank without MPI: its rank from the launcher's environment
 * (OMPI_COMM_WORLD_RANK, else PMI_RANK, else 0), then (rank + 1) * N getppid(2) calls inside
 * region "work" (N = argv[1], default 1000). argv[2], when given, is a rank K and a file F
 * (argv[3]): every other rank flushes its region results, creates F.RANK and waits, up to
 * 60 s, for the launcher to stop it; rank K waits (up to 30 s) for the others' F.RANK, then
 * kills its parent (pmc stat) with SIGKILL and exits, as a rank that dies would.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <pmc/region.h>

static long rank_of(void)
{
	const char *r = getenv("OMPI_COMM_WORLD_RANK");

	if (!r)
		r = getenv("PMI_RANK");
	return r ? strtol(r, NULL, 10) : 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, rank = rank_of();
	char mark[4096];

	pmc_region_begin("work");
	for (long i = 0; i < (rank + 1) * n; i++)
		syscall(SYS_getppid);
	pmc_region_end("work");
	if (argc < 4)
		return 0;
	if (rank == strtol(argv[2], NULL, 10)) {
		/* the others must have counted first, or the launcher stops them before they do */
		long size = strtol(getenv("OMPI_COMM_WORLD_SIZE") ?: "1", NULL, 10);

		for (long r = 0, tries = 0; r < size && tries < 3000; tries++) {
			snprintf(mark, sizeof(mark), "%s.%ld", argv[3], r);
			if (r == rank || !access(mark, F_OK))
				r++;
			else
				usleep(10000);
		}
		kill(getppid(), SIGKILL);
		return 0;
	}
	pmc_region_flush();
	snprintf(mark, sizeof(mark), "%s.%ld", argv[3], rank);
	close(open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	sleep(60);
	return 0;
}
