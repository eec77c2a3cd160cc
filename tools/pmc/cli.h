/* SPDX-License-Identifier: MIT */
/* Helpers shared by the pmc subcommands (CLI only; the library never prints). */
#ifndef PMC_TOOLS_CLI_H
#define PMC_TOOLS_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pmc/pmc.h>

/*
 * Prints a parse error for input to stderr, perf-style: the message, the input with a
 * caret under err->offset, and "did you mean" lines for err->suggest.
 */
void cli_print_parse_error(const char *cmd, const char *input, const struct pmc_parse_error *err);
/* The same, with hint in place of "run 'pmc list' ..." when there is no closest name. */
void cli_print_parse_error_hint(const char *cmd, const char *input,
				const struct pmc_parse_error *err, const char *hint);

struct cli_cmd;

/* Where a parameter file went wrong: its line (0 for I/O errors) and what was wrong. */
struct cli_config_error {
	int line;
	char msg[160];
};

/*
 * Reads a run_p5mon-style parameter file of "key = value" lines ('#' comments) and
 * returns a new argv: argv[0], one option per line, then argv[1..]; options given on the
 * command line come later and so win. Keys are the command's long options ('_' or
 * '-'): one that takes a value becomes "--key=value" (an empty value is an error); a switch
 * takes yes/true/on/1 ("--key") or no/false/off/0 (nothing: switches are off by default),
 * and anything else is an error. Returns 0, or -errno / -PMC_E_CONFIG with *err filled.
 */
int cli_config_merge(const char *path, const struct cli_cmd *cmd, int argc, char **argv,
		     int *new_argc, char ***new_argv, struct cli_config_error *err);

/*
 * One table per command names its options once: getopt's tables, --help, the man page
 * (pmc __man) and bash completion (pmc __complete) are all made from it (docs/man/).
 */
enum cli_value {
	CLI_V_NONE,	/* a switch, or a value nothing can suggest (a number, a CPU list) */
	CLI_V_EVENTS,	/* event names, comma-separated */
	CLI_V_FILE,	/* a path */
	CLI_V_PROGRAM,	/* a program on PATH */
	CLI_V_PID,	/* a running process */
	CLI_V_CHOICES,	/* one of cli_opt.choices */
	CLI_V_OPTIONAL, /* a value that may be left out: --name or --name=VALUE, long only */
};

struct cli_opt {
	const char *name; /* long name; NULL for a short-only option */
	int key;	  /* what cli_getopt() returns: a letter is also the short option */
	const char *arg;  /* the value's name in the help ("EVENTS"); NULL for a switch */
	enum cli_value value;
	const char *choices; /* CLI_V_CHOICES: the values, space-separated */
	const char *help;    /* one paragraph, wrapped when printed */
};

/* Keys of options without a short form start here (getopt_long returns them as is). */
#define CLI_LONG_ONLY 256

struct cli_cmd {
	const char *name;	    /* "stat" */
	const char *summary;	    /* one line, for pmc --help and the page's NAME */
	const char *synopsis;	    /* usage lines after "pmc NAME ", '\n'-separated */
	const char *about;	    /* paragraphs ("\n\n" between them), wrapped when printed */
	const struct cli_opt *opts; /* ends with a {0} entry */
	enum cli_value operands;    /* what the words after the options are */
	bool stop_at_operand;	    /* the first operand ends pmc's options (a command follows) */
};

/*
 * The commands, in pmc --help's order (main.c); one that is not part of this build has a
 * NULL entry point and doc (cmd.h). cli_find_cmd() returns NULL for an unknown name.
 */
struct cli_command {
	const char *name;
	const struct cli_cmd *doc; /* NULL when not built */
	int (*fn)(int argc, char **argv);
};
extern const struct cli_command cli_commands[];
extern const struct cli_cmd cli_top_doc; /* pmc's own options, for pmc(1) and completion */
extern const size_t cli_nr_commands;
static inline const struct cli_command *cli_find_cmd(const char *name)
{
	for (size_t i = 0; name && i < cli_nr_commands; i++)
		if (!strcmp(cli_commands[i].name, name))
			return &cli_commands[i];
	return NULL;
}

/*
 * Writes text to f from column col on (the cursor's), wrapped at width with continuation lines
 * indented to indent, and a newline; "\n\n" starts a new paragraph. A word longer than the
 * room left stays whole.
 */
void cli_wrap(FILE *f, const char *text, int col, int indent, int width);
/* --help: the usage lines, the about text and the options, wrapped to 80 columns. */
void cli_usage(const struct cli_cmd *cmd, FILE *f);

/*
 * The value of the last option key in argv, found silently before the options are parsed
 * (pmc stat's --config); optind is reset for the real pass.
 */
const char *cli_option_value(const struct cli_cmd *cmd, int argc, char **argv, int key);

/* The option whose long name is name, or NULL. */
const struct cli_opt *cli_find_opt(const struct cli_cmd *cmd, const char *name);

/* Whether an option word ("-e", "--event", "-ecycles") takes the next word as its value. */
bool cli_takes_next(const struct cli_cmd *cmd, const char *word);

/* pmc __man [CMD]: the scdoc source of the page's generated part (cli-man.c). */
int cli_man(const char *cmd, FILE *f);

/* pmc __complete LINE: candidates for the last word of LINE (cli-complete.c). */
int cli_complete(const char *line, FILE *f);

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
int cli_getopt(const struct cli_cmd *cmd, int argc, char **argv);

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

/*
 * Says on stderr that pmc CMD cannot write path ("-": stdout) for err (a negative errno:
 * "no space left on PATH" for ENOSPC, "cannot write PATH: WHY" otherwise). Returns 1.
 */
int cli_say_unwritable(const char *cmd, const char *path, int err);

/* The name of signal sig ("SIGSEGV"). */
const char *cli_signame(int sig);

#endif /* PMC_TOOLS_CLI_H */
