/* SPDX-License-Identifier: MIT */
/* pmc record's options (record-args.c), shared with the command itself (cmd-record.c). */
#ifndef PMC_TOOLS_RECORD_H
#define PMC_TOOLS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <pmc/pmc.h>

struct record_cli {
	struct pmc_record_opts ro;
	struct pmc_target t;
	char **events;
	size_t nr_events;
	unsigned priv;
	const char *backend;
	bool quiet, system_wide, dry_run;
	int verbose;
	char rank_output[4096]; /* under an MPI launcher: -o's file named for this rank */
};

/*
 * Parses and checks pmc record's options into c (whose ro and t the caller initialised).
 * Returns 0, -1 after --help, or the exit status of a usage (2) or runtime (1) error; c may
 * hold events taken before the error (free(c->events)).
 */
int record_parse_args(struct record_cli *c, int argc, char **argv);

#endif /* PMC_TOOLS_RECORD_H */
