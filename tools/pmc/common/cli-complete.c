// SPDX-License-Identifier: MIT
/*
 * pmc __complete LINE: what bash completion offers for the last word of LINE (the command
 * line up to the cursor), from the command table and the option tables, so completion
 * cannot drift from what pmc accepts. The answer (docs/man/README.md): a line naming the
 * kind (words, choices, files, commands or none), a line with the word being completed,
 * then the candidates when the kind is words or choices (an option's fixed values).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/pmc.h>
#include "cli.h"

#define MAX_WORDS 256

struct line {
	char *w[MAX_WORDS];
	int nr; /* the last one is the word being completed */
};

/* Words separated by blanks; a blank at the end starts an empty word. */
static void split(char *s, struct line *l)
{
	l->nr = 0;
	for (;;) {
		s += strspn(s, " \t\n");
		if (!*s || l->nr == MAX_WORDS - 1)
			break;
		l->w[l->nr++] = s;
		s += strcspn(s, " \t\n");
		if (!*s)
			return;
		*s++ = 0;
	}
	l->w[l->nr++] = s + strlen(s);
}

static void say(FILE *f, const char *kind, const char *word)
{
	fprintf(f, "%s\n%s\n", kind, word);
}

static void candidate(FILE *f, const char *word, const char *pre, const char *add)
{
	size_t n = strlen(word);
	char buf[512];

	snprintf(buf, sizeof(buf), "%s%s", pre, add);
	if (!strncmp(buf, word, n))
		fprintf(f, "%s\n", buf);
}

static void commands(FILE *f, const char *word)
{
	say(f, "words", word);
	for (size_t i = 0; i < cli_nr_commands; i++)
		if (cli_commands[i].fn)
			candidate(f, word, "", cli_commands[i].name);
	candidate(f, word, "", "help");
}

struct events_ctx {
	FILE *f;
	const char *word, *tail;
	char head[256];
};

static int on_event(const struct pmc_event_info *info, void *arg)
{
	struct events_ctx *ctx = arg;

	/* A form (mem:ADDR[/LEN]:w) is syntax to read, not a word to complete. */
	if (!info->example && !strncmp(info->name, ctx->tail, strlen(ctx->tail)))
		fprintf(ctx->f, "%s%s\n", ctx->head, info->name);
	return 0;
}

/* Event names for the last element of a comma-separated list, of the line's backend. */
static void events(FILE *f, const struct line *l, const char *pre, const char *value)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo)};
	struct events_ctx ctx = {.f = f, .word = l->w[l->nr - 1]};
	const char *comma = strrchr(value, ',');
	struct pmc_evlist *el;

	for (int i = 1; i < l->nr - 1; i++)
		if (!strncmp(l->w[i], "--backend=", 10))
			eo.backend = l->w[i] + 10;
		else if (!strcmp(l->w[i], "--backend"))
			eo.backend = l->w[i + 1];
	ctx.tail = comma ? comma + 1 : value;
	snprintf(ctx.head, sizeof(ctx.head), "%s%.*s", pre, (int)(ctx.tail - value), value);
	say(f, "words", ctx.word);
	if (pmc_evlist__new(&eo, &el))
		return;
	pmc_evlist__for_each_known(el, on_event, &ctx);
	pmc_evlist__delete(el);
}

static void pids(FILE *f, const char *word, const char *pre)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	say(f, "words", word);
	while (d && (e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]))
			candidate(f, word, pre, e->d_name);
	if (d)
		closedir(d);
}

/* The value of option o: pre is what precedes it in the word ("--format=" or ""). */
static void value(FILE *f, const struct line *l, const struct cli_opt *o, const char *pre)
{
	const char *word = l->w[l->nr - 1], *val = word + strlen(pre);

	switch (o->value) {
	case CLI_V_EVENTS:
		events(f, l, pre, val);
		return;
	case CLI_V_FILE:
		say(f, "files", val);
		return;
	case CLI_V_PROGRAM:
		say(f, "commands", val);
		return;
	case CLI_V_PID:
		pids(f, word, pre);
		return;
	case CLI_V_CHOICES:
		say(f, "choices", word);
		for (const char *c = o->choices; *c;) {
			size_t n = strcspn(c, " ");
			char one[64];

			snprintf(one, sizeof(one), "%.*s", (int)n, c);
			candidate(f, word, pre, one);
			c += n + (c[n] == ' ');
		}
		return;
	case CLI_V_NONE:
	case CLI_V_OPTIONAL:
		break;
	}
	say(f, "none", word);
}

static void options(FILE *f, const struct cli_cmd *cmd, const char *word)
{
	say(f, "words", word);
	for (const struct cli_opt *o = cmd->opts; o->key; o++) {
		char s[3] = {'-', (char)o->key, 0};

		if (o->name) {
			char name[96];

			snprintf(name, sizeof(name), "--%s%s", o->name, o->arg ? "=" : "");
			candidate(f, word, "", name);
		}
		if (o->key < CLI_LONG_ONLY && strncmp(word, "--", 2))
			candidate(f, word, "", s);
	}
}

/* The option a word that takes the next one as its value names: "--event" or "-ve". */
static const struct cli_opt *option_of(const struct cli_cmd *cmd, const char *w)
{
	if (!strncmp(w, "--", 2))
		return cli_find_opt(cmd, w + 2);
	for (const struct cli_opt *o = cmd->opts; o->key; o++)
		if (o->key == (unsigned char)w[strlen(w) - 1])
			return o;
	return NULL;
}

static void in_command(FILE *f, const struct cli_cmd *cmd, const struct line *l)
{
	const char *word = l->w[l->nr - 1], *prev = l->w[l->nr - 2];
	const struct cli_opt *o;
	int i;

	/* Where pmc's options end: after "--", or at the first operand of a command that runs
	 * one; from there on the words are the measured command line. */
	for (i = 2; i < l->nr - 1; i++) {
		const char *w = l->w[i];

		if (!strcmp(w, "--") || (cmd->stop_at_operand && (w[0] != '-' || !w[1])))
			break;
		if (cli_takes_next(cmd, w))
			i++;
	}
	if (i < l->nr - 1 && cmd->stop_at_operand) {
		i += !strcmp(l->w[i], "--");
		return say(f, i == l->nr - 1 ? "commands" : "files", word);
	}
	if (l->nr > 3 && cli_takes_next(cmd, prev) && (o = option_of(cmd, prev)))
		return value(f, l, o, "");
	if (!strncmp(word, "--", 2) && strchr(word, '=')) {
		char name[64];
		size_t n = strcspn(word + 2, "=");

		snprintf(name, sizeof(name), "%.*s", (int)n, word + 2);
		o = cli_find_opt(cmd, name);
		if (o && o->arg) {
			char pre[80];

			snprintf(pre, sizeof(pre), "--%s=", name);
			return value(f, l, o, pre);
		}
		return say(f, "none", word);
	}
	if (word[0] == '-')
		return options(f, cmd, word);
	if (cmd->operands == CLI_V_EVENTS)
		return events(f, l, "", word);
	say(f, cmd->operands == CLI_V_PROGRAM ? "commands" : "none", word);
}

int cli_complete(const char *text, FILE *f)
{
	char *copy = strdup(text);
	const struct cli_command *c;
	struct line l;

	if (!copy)
		return -ENOMEM;
	split(copy, &l);
	if (l.nr < 2)
		say(f, "none", "");
	else if (l.nr == 2 && l.w[1][0] == '-')
		options(f, &cli_top_doc, l.w[1]);
	else if (l.nr == 2 || (l.nr == 3 && !strcmp(l.w[1], "help")))
		commands(f, l.w[l.nr - 1]);
	else if ((c = cli_find_cmd(l.w[1])) && c->doc && c->fn)
		in_command(f, c->doc, &l);
	else
		say(f, "none", l.w[l.nr - 1]);
	free(copy);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
