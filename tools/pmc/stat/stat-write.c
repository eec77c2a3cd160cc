// SPDX-License-Identifier: MIT
/*
 * Where pmc stat's outputs go (docs/stat-output.md): the summary, or perf's -x/-j lines in its
 * place, on stderr or --log-fd, never on the measured program's stdout; the results file to
 * -o (whole or not at all, --append adding -x/-j lines whole) or, without -o, beside the
 * summary's place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "common/cli.h"
#include "stat.h"

/* What goes into -o's file or the log: the -x/-j lines, or a results file (--format). */
static int write_data(FILE *f, const struct stat_run *run)
{
	const struct stat_opts *o = run->opts;
	unsigned flags = o->all_results ? PMC_RUN_ALL_RESULTS : 0;

	if (o->csv_sep || o->json_lines) {
		stat_print_machine(f, run, o->json_lines ? NULL : o->csv_sep);
		return ferror(f) ? -EIO : 0;
	}
	return pmc_run__write(run->runner, f,
			      o->format == FMT_JSON   ? PMC_RUN_FORMAT_JSON
			      : o->format == FMT_HTML ? PMC_RUN_FORMAT_HTML
			      : o->format == FMT_CSV  ? PMC_RUN_FORMAT_CSV
						      : PMC_RUN_FORMAT_TEXT,
			      flags);
}

/*
 * -o's file, whole or not at all; --append's lines are added to it in one write under its
 * lock (pmc_outfile's append), so that concurrent runs' lines never mix.
 */
static int write_output(const struct stat_run *run)
{
	const struct stat_opts *o = run->opts;
	const struct pmc_outfile_opts oo = {.sz = sizeof(oo), .append = o->append};
	struct pmc_outfile *out;
	FILE *f;
	int err = pmc_outfile__open_opts(o->output, &oo, &out);

	if (err)
		return cli_say_unwritable("stat", o->output, err);
	f = pmc_outfile__stream(out);
	err = f ? write_data(f, run) : -ENOMEM;
	err = err ? pmc_outfile__fail(out, err) : pmc_outfile__commit(out);
	return err ? cli_say_unwritable("stat", o->output, err) : 0;
}

FILE *stat_log_open(const struct stat_opts *o)
{
	int fd;
	FILE *f;

	if (o->log_fd < 0)
		return stderr;
	fd = dup(o->log_fd);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "pmc stat: cannot write to --log-fd %d: %s\n", o->log_fd,
			strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

int stat_log_close(FILE *log, const struct stat_opts *o)
{
	int bad = fflush(log) || ferror(log);

	if (log != stderr && fclose(log))
		bad = 1;
	if (bad && o->log_fd >= 0)
		fprintf(stderr, "pmc stat: cannot write to --log-fd %d: %s\n", o->log_fd,
			strerror(errno ? errno : EIO));
	return bad && o->log_fd >= 0;
}

int stat_write(const struct stat_run *run)
{
	const struct stat_opts *o = run->opts;
	bool machine = o->csv_sep || o->json_lines;
	FILE *log = stat_log_open(o);
	struct stat_numfmt nf;
	int rc = 0;

	if (!log)
		return 1;
	/* The summary, unless -x/-j replace it or a results format takes its place. */
	if (!machine && (o->output || o->format == FMT_TEXT)) {
		stat_numfmt__init(&nf, o->big_num != 0);
		stat_print_summary(log, run, &nf);
	}
	if (o->output)
		rc = write_output(run);
	else if (machine || o->format != FMT_TEXT)
		rc = write_data(log, run) ? 1 : 0;
	return stat_log_close(log, o) || rc;
}
