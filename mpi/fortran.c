// SPDX-License-Identifier: MIT
/*
 * libpmc-mpi for Fortran (docs/mpi.md): Open MPI's Fortran bindings (mpif.h and `use mpi`,
 * libmpi_mpifh) call the C library's PMPI_ functions, not its MPI_ ones, so the C wrappers
 * never see a Fortran program's calls. These wrap the Fortran entry points themselves, as
 * gfortran names them (lower case, one trailing underscore): each measured call is the region
 * the C wrapper of the same call would make, around Open MPI's pmpi_X_. Every argument of
 * these calls is passed by reference: the wrappers pass the pointers on untouched.
 */
#include <pmc/region.h>
#include "pmc-mpi.h"

/* void mpi_x_(N pointers) calling pmpi_x_ with them, inside region name. */
#define P1 void *a
#define P2 P1, void *b
#define P3 P2, void *c
#define P4 P3, void *d
#define P6 P4, void *e, void *f
#define P7 P6, void *g
#define P8 P7, void *h
#define P9 P8, void *i
#define P13 P9, void *j, void *k, void *l, void *m
#define A2 a, b
#define A3 A2, c
#define A4 A3, d
#define A6 A4, e, f
#define A7 A6, g
#define A8 A7, h
#define A9 A8, i
#define A13 A9, j, k, l, m
#define FORTRAN(low, name, n)           \
	void pmpi_##low##_(P##n);       \
	void mpi_##low##_(P##n);        \
	void mpi_##low##_(P##n)         \
	{                               \
		pmc_region_begin(name); \
		pmpi_##low##_(A##n);    \
		pmc_region_end(name);   \
	}

FORTRAN(send, "MPI_Send", 7)
FORTRAN(recv, "MPI_Recv", 8)
FORTRAN(sendrecv, "MPI_Sendrecv", 13)
FORTRAN(isend, "MPI_Isend", 8)
FORTRAN(irecv, "MPI_Irecv", 8)
FORTRAN(wait, "MPI_Wait", 3)
FORTRAN(waitall, "MPI_Waitall", 4)
FORTRAN(barrier, "MPI_Barrier", 2)
FORTRAN(bcast, "MPI_Bcast", 6)
FORTRAN(reduce, "MPI_Reduce", 8)
FORTRAN(allreduce, "MPI_Allreduce", 7)
FORTRAN(gather, "MPI_Gather", 9)
FORTRAN(scatter, "MPI_Scatter", 9)
FORTRAN(allgather, "MPI_Allgather", 8)
FORTRAN(alltoall, "MPI_Alltoall", 8)

/* MPI_INIT(IERROR), MPI_INIT_THREAD(REQUIRED, PROVIDED, IERROR), MPI_FINALIZE(IERROR). */
void pmpi_init_(int *ierr);
void pmpi_init_thread_(int *required, int *provided, int *ierr);
void pmpi_finalize_(int *ierr);
void mpi_init_(int *ierr);
void mpi_init_thread_(int *required, int *provided, int *ierr);
void mpi_finalize_(int *ierr);

void mpi_init_(int *ierr)
{
	pmpi_init_(ierr);
	if (!*ierr)
		pmc__mpi_after_init();
}

void mpi_init_thread_(int *required, int *provided, int *ierr)
{
	pmpi_init_thread_(required, provided, ierr);
	if (!*ierr)
		pmc__mpi_after_init();
}

void mpi_finalize_(int *ierr)
{
	pmc__mpi_before_finalize();
	pmpi_finalize_(ierr);
}
