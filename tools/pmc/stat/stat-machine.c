// SPDX-License-Identifier: MIT
/*
 * pmc stat -x SEP and -j: perf stat's CSV and JSON lines, written by libpmc
 * (pmc_run__write_perf(), docs/stat-output.md, "-x and -j"); the CLI gives its options and the
 * summary's header, which the CSV lines carry as a '#' line.
 */
#include <stdlib.h>
#include "stat.h"

static struct pmc_run_perf_opts perf_opts(const struct stat_run *run, const char *sep)
{
	return (struct pmc_run_perf_opts){.sep = sep, .merge = stat_merge_by(run->opts)};
}

/* The summary's header, as text of one's own to free, or NULL. */
static char *header_text(const struct stat_run *run)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	stat_print_header(m, run);
	if (fclose(m)) {
		free(text);
		return NULL;
	}
	return text;
}

void stat_print_machine(FILE *f, const struct stat_run *run, const char *sep)
{
	struct pmc_run_perf_opts o = perf_opts(run, sep);
	char *header = sep ? header_text(run) : NULL;

	o.header = header;
	if (pmc_run__write_perf(run->runner, f, &o))
		fprintf(stderr, "pmc stat: cannot print the results: out of memory\n");
	free(header);
}

void stat_print_machine_interval(FILE *f, struct stat_run *run, const struct pmc_run_interval *iv,
				 const char *sep)
{
	struct pmc_run_perf_opts o = perf_opts(run, sep);

	if (pmc_run__write_perf_interval(run->runner, f, iv, &o, &run->iv_metric_header))
		fprintf(stderr, "pmc stat: cannot print the results: out of memory\n");
}
