// SPDX-License-Identifier: MIT
/*
 * One option parser for every pmc command, with perf's conventions (its parse-options):
 * a long option by its name or a unique prefix of it ("--rep" for --repeat; an ambiguous
 * one is refused with both candidates), --no-NAME for a switch, --name=VALUE and
 * --name VALUE, -xVALUE and -x VALUE, grouped short flags (-vv, -aA), "--" ending the
 * options. A command that runs a program stops at its first operand; the others take
 * options anywhere, and their operands are moved after them (as getopt_long does).
 * An option with a target in its row (cli.h: CLI_TRUE, CLI_STR, ...) is stored here; the
 * others go to the command's callback.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

struct parser {
	const struct cli_cmd *cmd;
	void *opts;
	cli_apply_fn apply;
	int argc;
	char **argv;
	int i;		   /* the word being read */
	bool quiet;	   /* cli_option_value(): no messages, no callbacks */
	int want;	   /* cli_option_value(): the key looked for ... */
	const char *found; /* ... and its last value */
};

static int say(const struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->quiet)
		return 2;
	fprintf(stderr, "pmc %s: ", p->cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'pmc %s --help'\n", p->cmd->name);
	return 2;
}

/* The option as a message names it: its short form when it has one. */
static const char *opt_name(const struct cli_opt *o, char *buf, size_t len)
{
	if (o->key < CLI_LONG_ONLY)
		snprintf(buf, len, "-%c", o->key);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}

static bool negatable(const struct cli_opt *o)
{
	return o->kind == CLI_K_TRUE || o->kind == CLI_K_COUNT;
}

static int store_int(const struct parser *p, const struct cli_opt *o, const char *arg)
{
	char name[72];
	long n;

	if (cli_parse_long(arg, o->min, o->max, &n))
		return say(p, "%s takes %s, not '%s'", opt_name(o, name, sizeof(name)), o->takes,
			   cli_show(arg));
	*(int *)((char *)p->opts + o->off) = (int)n;
	return 0;
}

/* The index of arg in o->choices, or a message naming them: "text, csv or json". */
static int store_choice(const struct parser *p, const struct cli_opt *o, const char *arg)
{
	char list[256] = "";
	size_t len = strlen(arg), at = 0;
	int i = 0;

	for (const char *c = o->choices; *c; i++) {
		size_t n = strcspn(c, " ");

		if (n == len && !strncmp(c, arg, n)) {
			*(int *)((char *)p->opts + o->off) = i;
			return 0;
		}
		c += n;
		c += strspn(c, " ");
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%.*s",
				       !i   ? ""
				       : *c ? ", "
					    : " or ",
				       (int)n, c - n - (*c ? 1 : 0));
		if (at >= sizeof(list))
			at = sizeof(list) - 1;
	}
	return say(p, "--%s is %s, not '%s'", o->name, list, cli_show(arg));
}

/* Stores the option's value in its target, or hands it to the command's callback. */
static int store(struct parser *p, const struct cli_opt *o, const char *arg, bool unset)
{
	char *t = (char *)p->opts + o->off;

	if (p->quiet) {
		if (o->key == p->want)
			p->found = arg;
		return 0;
	}
	switch (o->kind) {
	case CLI_K_HELP:
		cli_usage(p->cmd, stdout);
		return CLI_HELP;
	case CLI_K_TRUE:
		*(bool *)t = !unset;
		return 0;
	case CLI_K_COUNT:
		*(int *)t = unset ? 0 : *(int *)t + 1;
		return 0;
	case CLI_K_STR:
		*(const char **)t = arg;
		return 0;
	case CLI_K_INT:
		return store_int(p, o, arg);
	case CLI_K_CHOICE:
		return store_choice(p, o, arg);
	case CLI_K_SKIP:
		return 0;
	case CLI_K_CALL:
	default:
		return p->apply ? p->apply(p->opts, o->key, arg) : 2;
	}
}

static bool takes_value(const struct cli_opt *o)
{
	return o->arg && o->value != CLI_V_OPTIONAL;
}

/* The option that name (len bytes) is or begins; *unset for --no-NAME of a switch. */
static int match_long(const struct parser *p, const char *name, size_t len,
		      const struct cli_opt **out, bool *unset)
{
	const struct cli_opt *hit = NULL, *other = NULL;
	bool hit_unset = false, other_unset = false;
	bool no = len > 3 && !strncmp(name, "no-", 3);

	if (!len) /* "--=VALUE" */
		return say(p, "unknown option '--%s'", cli_show(name));
	for (const struct cli_opt *o = p->cmd->opts; o->key; o++) {
		bool exact = o->name && strlen(o->name) == len && !strncmp(o->name, name, len);
		bool exact_no = o->name && no && negatable(o) && strlen(o->name) == len - 3 &&
				!strncmp(o->name, name + 3, len - 3);

		if (exact || exact_no) {
			*out = o;
			*unset = exact_no;
			return 0;
		}
	}
	for (const struct cli_opt *o = p->cmd->opts; o->key; o++) {
		bool u;

		if (o->name && !strncmp(o->name, name, len))
			u = false;
		else if (o->name && no && negatable(o) && !strncmp(o->name, name + 3, len - 3))
			u = true;
		else
			continue;
		if (hit && !other) {
			other = o;
			other_unset = u;
		} else if (!hit) {
			hit = o;
			hit_unset = u;
		}
	}
	if (other)
		return say(p, "Ambiguous option: %.*s (could be --%s%s or --%s%s)", (int)len,
			   cli_show(name), hit_unset ? "no-" : "", hit->name,
			   other_unset ? "no-" : "", other->name);
	if (!hit)
		return say(p, "unknown option '--%.*s'", (int)len, cli_show(name));
	*out = hit;
	*unset = hit_unset;
	return 0;
}

static int parse_long(struct parser *p, const char *word)
{
	const char *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	const struct cli_opt *o;
	bool unset;
	int rc = match_long(p, word, len, &o, &unset);

	if (rc)
		return rc;
	if (eq && (!o->arg || unset))
		return say(p, "option '--%s%s' takes no value", unset ? "no-" : "", o->name);
	if (eq || !takes_value(o))
		return store(p, o, eq ? eq + 1 : NULL, unset);
	if (p->i + 1 >= p->argc)
		return say(p, "option '--%s' needs a value", o->name);
	return store(p, o, p->argv[++p->i], false);
}

static const struct cli_opt *find_short(const struct cli_cmd *cmd, int c)
{
	for (const struct cli_opt *o = cmd->opts; o->key; o++)
		if (o->key == c && c < CLI_LONG_ONLY)
			return o;
	return NULL;
}

/* "-vv", "-ofile", "-o file": letters until one that takes a value, which takes the rest. */
static int parse_short(struct parser *p, const char *word)
{
	for (const char *s = word; *s; s++) {
		const struct cli_opt *o = find_short(p->cmd, (unsigned char)*s);
		int rc;

		if (!o)
			return say(p, "unknown option '-%s'", cli_show((char[]){*s, 0}));
		if (!takes_value(o)) {
			rc = store(p, o, NULL, false);
		} else if (s[1]) {
			return store(p, o, s + 1, false);
		} else {
			if (p->i + 1 >= p->argc)
				return say(p, "option '-%c' needs a value", *s);
			return store(p, o, p->argv[++p->i], false);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* Moves the operands (marked in is_op) after the options, each group in its order. */
static void move_operands(int argc, char **argv, const bool *is_op, char **tmp)
{
	int n = 1;

	for (int pass = 0; pass < 2; pass++)
		for (int i = 1; i < argc; i++)
			if (is_op[i] == (pass == 1))
				tmp[n++] = argv[i];
	memcpy(argv + 1, tmp + 1, (size_t)(argc - 1) * sizeof(*argv));
}

static int parse_words(struct parser *p, bool *is_op)
{
	int rc = 0;

	for (p->i = 1; p->i < p->argc && !rc; p->i++) {
		const char *w = p->argv[p->i];

		if (!strcmp(w, "--")) {
			for (int k = p->i + 1; k < p->argc; k++)
				is_op[k] = true;
			break;
		}
		if (w[0] != '-' || !w[1]) {
			if (p->cmd->stop_at_operand) {
				for (int k = p->i; k < p->argc; k++)
					is_op[k] = true;
				break;
			}
			is_op[p->i] = true;
			continue;
		}
		rc = w[1] == '-' ? parse_long(p, w + 2) : parse_short(p, w + 1);
	}
	return rc;
}

static int run_parser(struct parser *p, int *first_operand)
{
	bool *is_op = calloc((size_t)p->argc + 1, sizeof(*is_op));
	char **tmp = calloc((size_t)p->argc + 1, sizeof(*tmp));
	int rc, nr = 0;

	if (!is_op || !tmp) {
		free(is_op);
		free(tmp);
		fprintf(stderr, "pmc %s: out of memory\n", p->cmd->name);
		return 1;
	}
	rc = parse_words(p, is_op);
	for (int i = 1; i < p->argc; i++)
		nr += is_op[i];
	if (!rc)
		move_operands(p->argc, p->argv, is_op, tmp);
	free(is_op);
	free(tmp);
	if (first_operand)
		*first_operand = p->argc - nr;
	return rc;
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, void *opts, cli_apply_fn apply,
	      int *first_operand)
{
	struct parser p = {.cmd = cmd, .opts = opts, .apply = apply, .argc = argc, .argv = argv};

	return run_parser(&p, first_operand);
}

const char *cli_option_value(const struct cli_cmd *cmd, int argc, char **argv, int key)
{
	char **copy = calloc((size_t)argc + 1, sizeof(*copy));
	struct parser p = {.cmd = cmd, .argc = argc, .argv = copy, .quiet = true, .want = key};

	if (!copy)
		return NULL;
	memcpy(copy, argv, (size_t)argc * sizeof(*copy));
	run_parser(&p, NULL);
	free(copy);
	return p.found;
}
