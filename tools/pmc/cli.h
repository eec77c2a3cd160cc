/* SPDX-License-Identifier: MIT */
/* Helpers shared by the pmc subcommands (CLI only; the library never prints). */
#ifndef PMC_TOOLS_CLI_H
#define PMC_TOOLS_CLI_H

#include <stdio.h>
#include <pmc/pmc.h>

/*
 * Prints a parse error for input to stderr, perf-style: the message, the input with a
 * caret under err->offset, and "did you mean" lines for err->suggest.
 */
void cli_print_parse_error(const char *cmd, const char *input, const struct pmc_parse_error *err);

#endif /* PMC_TOOLS_CLI_H */

/*
 * Reads a run_p5mon-style parameter file of "key = value" lines ('#' comments) and
 * returns a new argv: argv[0], one "--key=value" (or "--key" for yes/true) per line,
 * then argv[1..]. Options given on the command line come later and so win.
 * Returns 0 or -errno / -PMC_E_CONFIG with the line number in *bad_line.
 */
int cli_config_merge(const char *path, int argc, char **argv, int *new_argc, char ***new_argv,
		     int *bad_line);

/* The name of signal sig ("SIGSEGV"). */
const char *cli_signame(int sig);
