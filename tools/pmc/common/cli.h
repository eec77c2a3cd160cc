/* SPDX-License-Identifier: MIT */
/* Helpers shared by the pmc subcommands (CLI only; the library never prints). */
#ifndef PMC_TOOLS_CLI_H
#define PMC_TOOLS_CLI_H

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
 * One table per command names its options once: the parser (cli_parse()), --help, the man page
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

/* Where cli_parse() puts an option's value (struct cli_opt's target). */
enum cli_kind {
	CLI_K_CALL,   /* nowhere: the command's callback gets the key and the value */
	CLI_K_TRUE,   /* a switch: the bool at off is set; --no-NAME clears it */
	CLI_K_COUNT,  /* a repeatable switch (-vv): the int at off counts; --no-NAME: 0 */
	CLI_K_STR,    /* the const char * at off is the value (the last one given) */
	CLI_K_INT,    /* the int at off is the value, a number in [min, max] */
	CLI_K_CHOICE, /* the int (an enum) at off is the value's index in choices */
	CLI_K_SKIP,   /* nothing: read before the parse (--config) */
	CLI_K_HELP,   /* --help: the usage on stdout, and the command exits 0 */
};

struct cli_opt {
	const char *name; /* long name; NULL for a short-only option */
	int key;	  /* the callback's key: a letter is also the short option */
	const char *arg;  /* the value's name in the help ("EVENTS"); NULL for a switch */
	enum cli_value value;
	const char *choices; /* CLI_V_CHOICES: the values, space-separated */
	const char *help;    /* one paragraph, wrapped when printed */
	enum cli_kind kind;  /* the target: where the value goes (CLI_K_CALL: the callback) */
	size_t off;	     /* the target's offset in the command's options struct */
	long min, max;	     /* CLI_K_INT: the range */
	const char *takes;   /* CLI_K_INT: "OPT takes TAKES, not 'VALUE'" when out of range */
};

/*
 * A row's target, after its help: {"all", 'a', NULL, CLI_V_NONE, NULL, "...", CLI_TRUE(type,
 * field)}; CLI_CALL for an option the command's callback takes.
 */
#define CLI_TRUE(type, field) .kind = CLI_K_TRUE, .off = offsetof(type, field)
#define CLI_COUNT(type, field) .kind = CLI_K_COUNT, .off = offsetof(type, field)
#define CLI_STR(type, field) .kind = CLI_K_STR, .off = offsetof(type, field)
#define CLI_INT(type, field, lo, hi, what) \
	.kind = CLI_K_INT, .off = offsetof(type, field), .min = (lo), .max = (hi), .takes = (what)
#define CLI_CHOICE(type, field) .kind = CLI_K_CHOICE, .off = offsetof(type, field)
#define CLI_SKIP .kind = CLI_K_SKIP
#define CLI_CALL .kind = CLI_K_CALL
#define CLI_SHOW_HELP .kind = CLI_K_HELP

/* Keys of options without a short form start here (above every letter). */
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
 * (pmc stat's --config).
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
 * A CLI_K_CALL option's value (NULL for a switch) for the command's options struct opts.
 * Returns 0, or the exit status of a bad value (2, said) or a failure (1).
 */
typedef int (*cli_apply_fn)(void *opts, int key, const char *arg);

/* What cli_parse() returns after printing --help: the command exits 0. */
#define CLI_HELP (-1)

/*
 * Parses argv[1..argc) with perf's conventions (cli-parse.c): a long option by a unique
 * prefix too, --no-NAME for a CLI_K_TRUE or CLI_K_COUNT switch, --name=VALUE, --name VALUE,
 * -xVALUE, -x VALUE, grouped short flags, "--" ending the options; options after operands
 * unless cmd->stop_at_operand, the operands moved after them. Each value goes to its row's
 * target in opts, or to apply. *first_operand: argv's first operand (argc when none).
 * Returns 0, CLI_HELP (--help printed), or an exit status (2: a usage error, said as "pmc
 * CMD: unknown option '--x'", "option '-o' needs a value", "Ambiguous option: ...", with
 * "see 'pmc CMD --help'").
 */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, void *opts, cli_apply_fn apply,
	      int *first_operand);

/*
 * Option values: the whole string is one number in [min, max] (an unsigned one may not
 * start with '-' or a space; a double must be finite). Returns 0 and *out, or -EINVAL /
 * -ERANGE; the caller names the option and the range in its message.
 */

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
