// SPDX-License-Identifier: MIT
/*
 * What libpmc-mpi adds to an 8-byte MPI_Allreduce (issue 19): ROUNDS rounds of N calls
 * (argv[1], argv[2]; 9 and 20000), after 1000 unmeasured; rank 0 prints the median round's
 * nanoseconds per call. Built twice, with and without libpmc-mpi (bench/mpi/run.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 9, n = argc > 2 ? atoi(argv[2]) : 20000, rank;
	double ns[64];
	int64_t one = 1, sum;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rounds < 1 || rounds > 64)
		rounds = 9;
	for (int i = 0; i < 1000; i++)
		MPI_Allreduce(&one, &sum, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
	for (int r = 0; r < rounds; r++) {
		double t0;

		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (int i = 0; i < n; i++)
			MPI_Allreduce(&one, &sum, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
		ns[r] = (MPI_Wtime() - t0) * 1e9 / n;
	}
	qsort(ns, (size_t)rounds, sizeof(ns[0]), cmp);
	if (!rank)
		printf("%.0f\n", ns[rounds / 2]);
	MPI_Finalize();
	return 0;
}
