// SPDX-License-Identifier: MIT
/*
 * MPI workload of exact counts (cli.test-mpi), linked with libpmc-mpi: rank r makes
 * (r + 1) * N getppid(2) calls inside region "work" (N = argv[1], default 1000), then K
 * MPI_Allreduce calls of one 8-byte integer (K = argv[2], default 7), whose sum it checks.
 * Exits 1 when a sum is wrong. With argv[3] = a rank D and argv[4] = a file F, after "work"
 * every other rank creates F.RANK and waits in MPI_Barrier for D, which never comes: D waits
 * (up to 30 s) for the others' F.RANK, then dies of SIGKILL, as a rank that crashes would.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <mpi.h>
#include <pmc/region.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	long k = argc > 2 ? strtol(argv[2], NULL, 10) : 7;
	int rank, size, bad = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	pmc_region_begin("work");
	for (long i = 0; i < (rank + 1) * n; i++)
		syscall(SYS_getppid);
	pmc_region_end("work");
	if (argc > 4) {
		char mark[4096];

		if (rank != strtol(argv[3], NULL, 10)) {
			snprintf(mark, sizeof(mark), "%s.%d", argv[4], rank);
			close(open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
			MPI_Barrier(MPI_COMM_WORLD);
			return 1; /* not reached: the launcher stops this rank */
		}
		for (int r = 0, tries = 0; r < size && tries < 3000; tries++) {
			snprintf(mark, sizeof(mark), "%s.%d", argv[4], r);
			if (r == rank || !access(mark, F_OK))
				r++;
			else
				usleep(10000);
		}
		raise(SIGKILL);
	}
	for (long i = 0; i < k; i++) {
		int64_t one = 1, sum = 0;

		MPI_Allreduce(&one, &sum, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
		bad |= sum != size;
	}
	MPI_Finalize();
	return bad;
}
