// SPDX-License-Identifier: MIT
/* pmc: dispatch to the commands of the table (commands.c), each in its folder. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/pmc.h>
#include "common/cli.h"
#include "common/cmd.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: pmc %s\n\ncommands:\n", cli_top_doc.synopsis);
	for (size_t i = 0; i < cli_nr_commands; i++)
		if (cli_commands[i].fn && cli_commands[i].doc)
			fprintf(f, "  %-10s %s\n", cli_commands[i].name,
				cli_commands[i].doc->summary);
	fprintf(f, "\n'pmc COMMAND --help' describes a command; 'man pmc-COMMAND' in more "
		   "detail.\n");
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

/*
 * What the build and bash completion ask of pmc itself (docs/man/README.md): a page's
 * generated part (__man [CMD]) and completion candidates (__complete LINE).
 */
static int internal(int argc, char **argv)
{
	if (!strcmp(argv[1], "__man") && argc <= 3)
		return cli_man(argc == 3 ? argv[2] : NULL, stdout) ? 1 : 0;
	if (!strcmp(argv[1], "__complete") && argc == 3)
		return cli_complete(argv[2], stdout) ? 1 : 0;
	fprintf(stderr, "pmc: '%s' is for pmc's build and completion; see docs/man/README.md\n",
		argv[1]);
	return 2;
}

/*
 * A standard descriptor pmc was started without (">&-") is held by /dev/null, read-only and
 * closed on exec, so that no file pmc opens (a counter, a results file) takes its number:
 * "-o -" then fails (EBADF) instead of writing into that file and exiting 0.
 */
static void hold_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int n;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		n = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (n >= 0 && n != fd)
			close(n);
	}
}

int main(int argc, char **argv)
{
	const struct cli_command *c;

	hold_std_fds();
	pmc_set_print(print_lib);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "help") && argc == 3 && (c = cli_find_cmd(argv[2])) && c->doc) {
		cli_usage(c->doc, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("pmc %s\n", pmc_version());
		return 0;
	}
	if (!strncmp(argv[1], "__", 2))
		return internal(argc, argv);
	c = cli_find_cmd(argv[1]);
	if (!c) {
		fprintf(stderr, "pmc: '%s' is not a pmc command; see 'pmc --help'\n",
			cli_show(argv[1]));
		return 2;
	}
	if (!c->fn) {
		fprintf(stderr, "pmc: '%s' is not part of this build yet\n", argv[1]);
		return 1;
	}
	return c->fn(argc - 1, argv + 1);
}
