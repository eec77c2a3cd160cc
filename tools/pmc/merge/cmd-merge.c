// SPDX-License-Identifier: MIT
/* pmc merge: the results files of an MPI job's ranks, merged into statistics over the ranks. */
#include <errno.h>
#include <string.h>
#include "common/cli.h"

enum { O_FORMAT = CLI_LONG_ONLY };

/* What the options set. */
struct merge_args {
	const char *output;
	enum pmc_merge_format fmt; /* the index of --format's value in its choices */
};

static const struct cli_opt options[] = {
	{"output", 'o', "FILE", CLI_V_FILE, NULL, "write the merged results to FILE (- for stdout)",
	 CLI_STR(struct merge_args, output)},
	{"format", O_FORMAT, "FMT", CLI_V_CHOICES, "text csv json",
	 "text (default), csv, or json (schema pmc-merge/1, with every rank's values and "
	 "provenance)",
	 CLI_CHOICE(struct merge_args, fmt)},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text", CLI_SHOW_HELP},
	{0},
};

const struct cli_cmd cmd_merge_doc = {
	.name = "merge",
	.summary = "merge the results files of many ranks into statistics over the ranks",
	.synopsis = "[options] FILE...",
	.about = "Reads the results files that pmc stat --format json wrote in each rank of an "
		 "MPI job (one per rank, named by -o's %r) and prints, per event, per metric and "
		 "per region, the sum, the minimum and the maximum with the rank that has each, "
		 "the mean, the standard deviation, the coefficient of variation, the imbalance "
		 "(max / mean), the load balance (mean / max) and percentiles. Ranks below the "
		 "job's size that no file has are named as missing; ranks stopped early are named "
		 "and merged. Files of different events, pmc versions, backends or jobs are "
		 "refused.",
	.opts = options,
	.operands = CLI_V_FILE,
};

static int usage_error(const char *msg)
{
	fprintf(stderr, "pmc merge: %s; see pmc merge --help\n", msg);
	return 2;
}

static int parse(int argc, char **argv, struct merge_args *a, int *first)
{
	int rc = cli_parse(&cmd_merge_doc, argc, argv, a, NULL, first);

	if (!rc && *first >= argc)
		return usage_error("no results files to merge (pmc stat --format json -o "
				   "NAME.rank-%r in each rank writes them)");
	return rc;
}

static int write_out(struct pmc_merge *m, const char *output, enum pmc_merge_format fmt)
{
	struct pmc_outfile *out;
	FILE *f;
	int err = pmc_outfile__open(output ? output : "-", &out);

	if (err)
		return cli_say_unwritable("merge", output, err);
	f = pmc_outfile__stream(out);
	err = f ? pmc_merge__write(m, f, fmt) : -ENOMEM;
	err = err ? pmc_outfile__fail(out, err) : pmc_outfile__commit(out);
	return err ? cli_say_unwritable("merge", output, err) : 0;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_args a = {.fmt = PMC_MERGE_FORMAT_TEXT};
	struct pmc_merge *m;
	char why[1024];
	int first, rc = parse(argc, argv, &a, &first), err;

	if (rc)
		return rc < 0 ? 0 : rc;
	if (pmc_merge__new(&m)) {
		fprintf(stderr, "pmc merge: out of memory\n");
		return 1;
	}
	for (int i = first; i < argc && !rc; i++) {
		err = pmc_merge__add_file(m, argv[i], why, sizeof(why));
		if (err) {
			fprintf(stderr, "pmc merge: %s\n", why[0] ? why : pmc_strerror(err));
			rc = 1;
		}
	}
	if (!rc)
		rc = write_out(m, a.output, a.fmt);
	pmc_merge__delete(m);
	return rc;
}
