// SPDX-License-Identifier: MIT
/*
 * pmc stat inside an MPI rank (docs/mpi.md): the program runs once (a launcher cannot start
 * a rank's program again), and the results file is named per rank.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stat.h"

/* "under mpirun (openmpi: rank 2 of 4)" for messages. */
static void where(const struct stat_opts *o, char *buf, size_t sz)
{
	const struct pmc_launcher *l = &o->launcher;

	if (l->size > 0)
		snprintf(buf, sz, "under an MPI launcher (%s: rank %d of %d)", l->name, l->rank,
			 l->size);
	else
		snprintf(buf, sz, "under an MPI launcher (%s: rank %d)", l->name, l->rank);
}

/* -o's file named for this rank (pmc_launcher_path()), so that no rank's file is another's. */
static int rank_output(struct stat_opts *o)
{
	char buf[4096];
	int err;

	if (!o->output || !strcmp(o->output, "-"))
		return 0;
	err = pmc_launcher_path(&o->launcher, o->output, (int)getpid(), buf, sizeof(buf));
	if (err) {
		fprintf(stderr,
			"pmc stat: -o %s: %s; %%r is the rank, %%h the host, %%p the pid, %%%% a "
			"%%\n",
			o->output, pmc_strerror(err));
		return 2;
	}
	o->output_owned = strdup(buf);
	if (!o->output_owned)
		return 1;
	o->output = o->output_owned;
	return 0;
}

int stat_mpi_apply(struct stat_opts *o)
{
	char at[128];

	if (pmc_launcher_detect(&o->launcher) != 1)
		return 0;
	o->under_launcher = true;
	where(o, at, sizeof(at));
	if (o->repeat > 1) {
		fprintf(stderr,
			"pmc stat: -r %d: %s the program runs once, as an MPI job cannot start a "
			"rank's program again; run mpirun %d times and merge the files (pmc "
			"merge), or drop -r\n",
			o->repeat, at, o->repeat);
		return 2;
	}
	o->no_warmup = true;
	return rank_output(o);
}

/*
 * Per-host events (uncore, RAPL) are counted by the host's lowest local rank only: refused
 * with the reason in the others (pmc_evlist__mpi_per_host(), docs/mpi.md "Per-host events").
 */
int stat_mpi_per_host(const struct stat_opts *o, struct pmc_evlist *evlist)
{
	int n;

	if (!o->under_launcher)
		return 0;
	n = pmc_evlist__mpi_per_host(evlist, &o->launcher);
	if (n < 0) {
		fprintf(stderr, "pmc stat: %s\n", pmc_strerror(n));
		return 1;
	}
	return 0;
}

int stat_mpi_check_passes(const struct stat_opts *o, int nr_passes)
{
	char at[128];

	if (!o->under_launcher || nr_passes < 2 || o->multiplex)
		return 0;
	where(o, at, sizeof(at));
	fprintf(stderr,
		"pmc stat: the events take %d passes, and %s the program runs once; count them "
		"in one run with --multiplex, or count fewer events per mpirun and merge the "
		"files (pmc merge)\n",
		nr_passes, at);
	return 2;
}
