/* SPDX-License-Identifier: MIT */
/* Helpers shared by the pmc subcommands (CLI only; the library never prints). */
#ifndef PMC_TOOLS_CLI_H
#define PMC_TOOLS_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pmc/pmc.h>

/*
 * Prints a parse error for input to stderr, perf-style: the message, the input with a
 * caret under err->offset, and "did you mean" lines for err->suggest.
 */
void cli_print_parse_error(const char *cmd, const char *input, const struct pmc_parse_error *err);

#endif /* PMC_TOOLS_CLI_H */

/* Where a parameter file went wrong: its line (0 for I/O errors) and what was wrong. */
struct cli_config_error {
	int line;
	char msg[160];
};

/*
 * Reads a run_p5mon-style parameter file of "key = value" lines ('#' comments) and
 * returns a new argv: argv[0], one option per line, then argv[1..]; options given on the
 * command line come later and so win. Keys are the command's long options (opts, '_' or
 * '-'): one that takes a value becomes "--key=value" (an empty value is an error); a switch
 * takes yes/true/on/1 ("--key") or no/false/off/0 (nothing: switches are off by default),
 * and anything else is an error. Returns 0, or -errno / -PMC_E_CONFIG with *err filled.
 */
int cli_config_merge(const char *path, const struct option *opts, int argc, char **argv,
		     int *new_argc, char ***new_argv, struct cli_config_error *err);

/*
 * Option values: the whole string is one number in [min, max] (an unsigned one may not
 * start with '-' or a space; a double must be finite). Returns 0 and *out, or -EINVAL /
 * -ERANGE; the caller names the option and the range in its message.
 */
/*
 * getopt_long() for pmc's commands: an unknown option or a missing value is said once, as
 * "CMD: unknown option '--x'" or "CMD: option '-o' needs a value" and where to look, and
 * returned as '?'.
 */
int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *longopts);

int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int cli_parse_long(const char *s, long min, long max, long *out);
int cli_parse_double(const char *s, double min, double max, double *out);

/*
 * RLIMIT_NOFILE: cli_raise_nofile() raises the soft limit to the hard one (true when it
 * rose: an open that failed with EMFILE is worth one more try); cli_say_nofile() says that
 * nr_events did not fit and what to do.
 */
bool cli_raise_nofile(void);
void cli_say_nofile(const char *cmd, size_t nr_events);

/* The least important library message shown (main.c): PMC_LOG_WARN, PMC_LOG_INFO under -v. */
extern enum pmc_log_level cli_log_level;

/*
 * s with control characters and bytes that are not UTF-8 as \xHH (pmc_printable()), for a
 * message on a terminal; valid until eight more calls.
 */
const char *cli_show(const char *s);

/* The name of signal sig ("SIGSEGV"). */
const char *cli_signame(int sig);
