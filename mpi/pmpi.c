// SPDX-License-Identifier: MIT
/*
 * libpmc-mpi's wrappers (docs/mpi.md): each MPI call below is measured as a region named as
 * the call, through the MPI standard's profiling interface (the program's MPI_X is ours, the
 * library's is PMPI_X). Regions count what pmc stat or PMC_EVENTS asks for, beside the
 * program's own regions; with neither, a marker costs one load and a branch.
 */
#include <mpi.h>
#include <pmc/region.h>

/* The call between the begin and the end of its region; its return value passed on. */
#define MEASURED(name, call)             \
	do {                             \
		int rc_;                 \
		pmc_region_begin(#name); \
		rc_ = call;              \
		pmc_region_end(#name);   \
		return rc_;              \
	} while (0)

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	MEASURED(MPI_Send, PMPI_Send(buf, count, type, dest, tag, comm));
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	     MPI_Status *status)
{
	MEASURED(MPI_Recv, PMPI_Recv(buf, count, type, source, tag, comm, status));
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
		 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
		 MPI_Status *status)
{
	MEASURED(MPI_Sendrecv, PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
					     source, rtag, comm, status));
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	      MPI_Request *req)
{
	MEASURED(MPI_Isend, PMPI_Isend(buf, count, type, dest, tag, comm, req));
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	      MPI_Request *req)
{
	MEASURED(MPI_Irecv, PMPI_Irecv(buf, count, type, source, tag, comm, req));
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	MEASURED(MPI_Wait, PMPI_Wait(req, status));
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
	MEASURED(MPI_Waitall, PMPI_Waitall(count, reqs, statuses));
}

int MPI_Barrier(MPI_Comm comm)
{
	MEASURED(MPI_Barrier, PMPI_Barrier(comm));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	MEASURED(MPI_Bcast, PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
	       MPI_Comm comm)
{
	MEASURED(MPI_Reduce, PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm));
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
		  MPI_Comm comm)
{
	MEASURED(MPI_Allreduce, PMPI_Allreduce(sbuf, rbuf, count, type, op, comm));
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
	       MPI_Datatype rtype, int root, MPI_Comm comm)
{
	MEASURED(MPI_Gather, PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		MPI_Datatype rtype, int root, MPI_Comm comm)
{
	MEASURED(MPI_Scatter, PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		  MPI_Datatype rtype, MPI_Comm comm)
{
	MEASURED(MPI_Allgather, PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		 MPI_Datatype rtype, MPI_Comm comm)
{
	MEASURED(MPI_Alltoall, PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}
