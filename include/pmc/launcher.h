/* SPDX-License-Identifier: MIT */
/*
 * The MPI launcher a process runs under, read from its environment (docs/mpi.md): which one,
 * the process's rank among how many, its host and the CPUs it is bound to. Results files
 * carry these tags, and results file names take them (%r, %h, %p).
 */
#ifndef PMC_LAUNCHER_H
#define PMC_LAUNCHER_H

#include <stddef.h>
#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where a rank runs: a small value struct, filled by pmc_launcher_detect(). */
struct pmc_launcher {
	char name[16];	 /* "openmpi", "mpich", "pmix" or "slurm"; "" outside a launcher */
	int rank;	 /* this process's rank, -1 outside a launcher */
	int size;	 /* ranks in the job, -1 when the launcher does not say */
	int local_rank;	 /* rank on this host, -1 when the launcher does not say */
	char host[256];	 /* gethostname(2) */
	char cpus[1024]; /* the CPUs this process may run on, as a list ("0-3,8") */
};

/*
 * Fills l from the environment and the process: Open MPI (OMPI_COMM_WORLD_RANK, _SIZE,
 * _LOCAL_RANK), MPICH's Hydra (PMI_RANK, PMI_SIZE, MPI_LOCALRANKID), PMIx (PMIX_RANK) and
 * Slurm (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID), looked for in that order; a rank that
 * is not a number below 2^31 is no launcher's. Returns 1 under a launcher, 0 outside one
 * (l's host and cpus are filled all the same).
 */
PMC_API int pmc_launcher_detect(struct pmc_launcher *l);

/*
 * Writes pattern into buf[sz] with %r replaced by l's rank, zero-padded to the digits of
 * size - 1 (unpadded when the size is unknown), %h by the host, %p by pid and %% by %.
 * Returns 0; -EINVAL for another % sequence, or %r outside a launcher; -ENAMETOOLONG when
 * buf is too small.
 */
PMC_API int pmc_launcher_expand(const struct pmc_launcher *l, const char *pattern, int pid,
				char *buf, size_t sz);

/*
 * A results file's name for this rank: outside a launcher (l->rank < 0), or when path is a
 * device or a FIFO (/dev/null), path as it is; under one, path expanded by
 * pmc_launcher_expand(), and a path without a % sequence written as PATH.rank-%r, so that no
 * rank's file is another's. Returns as pmc_launcher_expand().
 */
PMC_API int pmc_launcher_path(const struct pmc_launcher *l, const char *path, int pid, char *buf,
			      size_t sz);

#ifdef __cplusplus
}
#endif
#endif /* PMC_LAUNCHER_H */
