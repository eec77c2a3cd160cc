! SPDX-License-Identifier: MIT
! MPI workload in Fortran (cli.test-mpi), linked with libpmc-mpi: N MPI_ALLREDUCE calls of one
! integer through mpif.h (N = 7), whose sums it checks; stops with 1 when one is wrong.
program allreduce7
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nranks, i, one, total, bad

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  bad = 0
  do i = 1, 7
    one = 1
    call MPI_ALLREDUCE(one, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (total /= nranks) bad = 1
  end do
  call MPI_FINALIZE(ierr)
  if (bad /= 0) stop 1
end program allreduce7
