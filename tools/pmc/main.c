// SPDX-License-Identifier: MIT
/* pmc: the command table and dispatch to one cmd-<name>.c per subcommand. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/pmc.h>
#include "cli.h"
#include "cmd.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"list", cmd_list, "list the events pmc knows and whether they can be counted here"},
	{"stat", cmd_stat, "count events while running a command, with repetitions and statistics"},
	{"record", cmd_record, "sample events while running a command into a perf.data file"},
	{"report", cmd_report, "summarise a perf.data file by symbol, line, data address, ..."},
	{"annotate", cmd_annotate, "disassemble a function with samples per instruction"},
	{"calibrate", cmd_calibrate, "measure what measuring costs on this machine"},
	{"validate", cmd_validate, "check counts against predicted values of micro-benchmarks"},
	{"doctor", cmd_doctor, "explain what can be measured on this machine and why not"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: pmc [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].fn)
			fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'pmc COMMAND --help' describes a command.\n");
}

enum pmc_log_level cli_log_level = PMC_LOG_WARN;

/*
 * Library messages reach the user as pmc's own, without the "libpmc: " prefix; one that
 * already names its command ("pmc stat: ...", from the runner's opts.who) is shown as is.
 * Information is shown under -v (cli_log_level) or PMC_LOG_LEVEL.
 */
static void print_lib(enum pmc_log_level level, const char *fmt, va_list ap)
{
	static const char prefix[] = "libpmc: ";
	char buf[1024];
	const char *msg = buf;

	if (level > cli_log_level && !getenv("PMC_LOG_LEVEL"))
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (!strncmp(buf, prefix, sizeof(prefix) - 1))
		msg += sizeof(prefix) - 1;
	fprintf(stderr, "%s", strncmp(msg, "pmc ", 4) ? "pmc: " : "");
	/* A message names things (programs, files, events): shown a line at a time, escaped. */
	for (const char *nl; *msg; msg = nl + 1) {
		char line[sizeof(buf)];
		size_t n;

		nl = strchr(msg, '\n');
		n = nl ? (size_t)(nl - msg) : strlen(msg);
		memcpy(line, msg, n);
		line[n] = 0;
		fprintf(stderr, "%s%s", cli_show(line), nl ? "\n" : "");
		if (!nl)
			break;
	}
}

int main(int argc, char **argv)
{
	pmc_set_print(print_lib);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("pmc %s\n", pmc_version());
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (!commands[i].fn) {
			fprintf(stderr, "pmc: '%s' is not part of this build yet\n", argv[1]);
			return 1;
		}
		return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "pmc: '%s' is not a pmc command; see 'pmc --help'\n", cli_show(argv[1]));
	return 2;
}
