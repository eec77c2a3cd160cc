// SPDX-License-Identifier: MIT
/*
 * libpmc-mpi at MPI_Finalize (docs/mpi.md): each rank writes its own regions file first (the
 * fall-back that needs nothing of the others), then sends it to rank 0 over MPI itself, with
 * non-blocking collectives polled for at most PMC_MPI_TIMEOUT_S seconds, and rank 0 writes
 * the merged statistics (pmc_merge), so that no shared file system is needed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <mpi.h>
#include <pmc/pmc.h>
#include "pmc-mpi.h"

#define DEFAULT_TIMEOUT_S 10.0

static double timeout_s(void)
{
	const char *v = getenv("PMC_MPI_TIMEOUT_S");
	double t = v ? strtod(v, NULL) : DEFAULT_TIMEOUT_S;

	return t > 0 ? t : DEFAULT_TIMEOUT_S;
}

/* Polls req until it completes (1) or the deadline passes (0). */
static int poll_until(MPI_Request *req, double deadline)
{
	struct timespec nap = {0, 1000000};
	int done = 0;

	while (!done && PMPI_Wtime() < deadline) {
		if (PMPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return 0;
		if (!done)
			nanosleep(&nap, NULL);
	}
	return done;
}

/* This rank's own file, whole; NULL (len 0) when it cannot be read. */
static char *read_own(const char *output, int *len)
{
	struct pmc_launcher l;
	char path[4096], *buf = NULL;
	size_t n = 0;
	FILE *f;

	*len = 0;
	pmc_launcher_detect(&l);
	if (pmc_launcher_path(&l, output, (int)getpid(), path, sizeof(path)) ||
	    pmc_fopen_input(path, &f))
		return NULL;
	if (!fseek(f, 0, SEEK_END) && ftell(f) > 0 && ftell(f) < (1L << 30)) {
		n = (size_t)ftell(f);
		buf = malloc(n);
		rewind(f);
		if (buf && fread(buf, 1, n, f) != n) {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	*len = buf ? (int)n : 0;
	return buf;
}

/* Rank 0: every rank's file merged into PMC_MPI_OUTPUT, or PMC_OUTPUT.merged. */
static void write_merged(const char *output, const char *all, const int *lens, int size)
{
	const char *target = getenv("PMC_MPI_OUTPUT");
	char path[4096], name[32], why[1024];
	struct pmc_outfile *out;
	struct pmc_merge *m;
	size_t at = 0;
	int err;

	if (!target) {
		snprintf(path, sizeof(path), "%s.merged", output);
		target = path;
	}
	if (pmc_merge__new(&m))
		return;
	for (int r = 0; r < size; at += (size_t)lens[r], r++) {
		snprintf(name, sizeof(name), "rank %d", r);
		if (lens[r] && pmc_merge__add(m, name, all + at, (size_t)lens[r], why, sizeof(why)))
			fprintf(stderr, "libpmc-mpi: %s\n", why);
	}
	err = pmc_outfile__open(target, &out);
	if (!err)
		err = pmc_merge__write(m, pmc_outfile__stream(out), PMC_MERGE_FORMAT_JSON);
	if (!err)
		err = pmc_outfile__commit(out);
	else
		pmc_outfile__abort(out);
	if (err)
		fprintf(stderr, "libpmc-mpi: cannot write %s: %s\n", target, pmc_strerror(err));
	pmc_merge__delete(m);
}

/* Every rank's file to rank 0: the lengths, then the bytes, each polled up to the deadline. */
static void gather(const char *output)
{
	double deadline = PMPI_Wtime() + timeout_s();
	int rank, size, len, *lens = NULL, *displs = NULL, total = 0, ok;
	char *mine = read_own(output, &len), *all = NULL;
	MPI_Request req;

	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!rank) {
		lens = calloc((size_t)size, sizeof(int));
		displs = calloc((size_t)size, sizeof(int));
	}
	ok = PMPI_Igather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD, &req) ==
		     MPI_SUCCESS &&
	     poll_until(&req, deadline);
	for (int r = 0; ok && !rank && r < size; r++) {
		displs[r] = total;
		total += lens[r];
	}
	if (ok && !rank)
		all = malloc(total ? (size_t)total : 1);
	ok = ok &&
	     PMPI_Igatherv(mine, len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, MPI_COMM_WORLD,
			   &req) == MPI_SUCCESS &&
	     poll_until(&req, deadline);
	if (!ok)
		fprintf(stderr,
			"libpmc-mpi: rank %d: the gather to rank 0 did not finish in %g s "
			"(PMC_MPI_TIMEOUT_S): each rank's own file stands; merge them with pmc "
			"merge\n",
			rank, timeout_s());
	else if (!rank && all)
		write_merged(output, all, lens, size);
	free(mine);
	free(all);
	free(lens);
	free(displs);
}

void pmc__mpi_before_finalize(void)
{
	const char *output = getenv("PMC_OUTPUT");

	/* Under pmc stat (PMC_REGION_FD) the regions go to pmc stat, which writes the file. */
	pmc_region_flush();
	if (output && getenv("PMC_EVENTS") && !getenv("PMC_REGION_FD"))
		gather(output);
}

int MPI_Finalize(void)
{
	pmc__mpi_before_finalize();
	return PMPI_Finalize();
}
