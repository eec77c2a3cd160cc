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
