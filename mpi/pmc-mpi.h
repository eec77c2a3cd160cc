/* SPDX-License-Identifier: MIT */
/* What libpmc-mpi's C and Fortran entry points share (mpi/). */
#ifndef PMC_MPI_PMC_MPI_H
#define PMC_MPI_PMC_MPI_H

/* sigterm.c: after MPI_Init succeeded: SIGTERM caught where libpmc-mpi writes the file. */
void pmc__mpi_after_init(void);
/* finalize.c: before PMPI_Finalize: the regions flushed, each rank's file gathered to rank 0. */
void pmc__mpi_before_finalize(void);

#endif /* PMC_MPI_PMC_MPI_H */
