// SPDX-License-Identifier: MIT
/*
 * pmc __man [CMD]: the generated part of a manual page, in scdoc's syntax (scdoc(5)): the
 * name, synopsis, description and every option, from the command's table. The build appends
 * the page's prose (docs/man/pmc-CMD.scd) and runs scdoc (docs/man/README.md).
 */
#include <errno.h>
#include <string.h>
#include <pmc/pmc.h>
#include "cli.h"

/* scdoc's formatting characters written as themselves. */
static void text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '*' || *s == '_' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void option(FILE *f, const struct cli_opt *o)
{
	if (o->key < CLI_LONG_ONLY)
		fprintf(f, "*-%c*%s", o->key, o->name ? ", " : "");
	if (o->name) {
		fprintf(f, "*--");
		text(f, o->name);
		fprintf(f, "*");
	}
	if (o->arg) {
		fprintf(f, "%s%s_", o->value == CLI_V_OPTIONAL ? "[" : "", o->name ? "=" : " ");
		text(f, o->arg);
		fprintf(f, "_%s", o->value == CLI_V_OPTIONAL ? "]" : "");
	}
	fprintf(f, "\n\t");
	text(f, o->help);
	fprintf(f, "\n\n");
}

/* The part every page has: name, synopsis, description and options. */
static void page(FILE *f, const struct cli_cmd *cmd, const char *page)
{
	const char *line = cmd->synopsis;

	fprintf(f, "%s(1) \"pmc %s\"\n\n# NAME\n\n%s - ", page, pmc_version(), page);
	text(f, cmd->summary);
	fprintf(f, "\n\n# SYNOPSIS\n\n");
	for (size_t n; *line; line += n + (line[n] == '\n')) {
		n = strcspn(line, "\n");
		fprintf(f, "*pmc%s%s* ", cmd == &cli_top_doc ? "" : " ",
			cmd == &cli_top_doc ? "" : cmd->name);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s%c", strchr("*_\\", line[i]) ? "\\" : "", line[i]);
		fprintf(f, "%s\n", line[n] ? "++" : "");
	}
	fprintf(f, "\n# DESCRIPTION\n\n");
	text(f, cmd->about);
	fprintf(f, "\n\n# OPTIONS\n\n");
	for (const struct cli_opt *o = cmd->opts; o->key; o++)
		option(f, o);
}

static void commands(FILE *f)
{
	fprintf(f, "# COMMANDS\n\n");
	for (size_t i = 0; i < cli_nr_commands; i++) {
		const struct cli_command *c = &cli_commands[i];

		if (!c->fn || !c->doc)
			continue;
		fprintf(f, "*pmc-%s*(1)\n\t", c->name);
		text(f, c->doc->summary);
		fprintf(f, "\n\n");
	}
}

int cli_man(const char *name, FILE *f)
{
	const struct cli_command *c = name ? cli_find_cmd(name) : NULL;

	if (name && (!c || !c->doc || !c->fn)) {
		fprintf(stderr, "pmc __man: no command '%s' in this build\n", cli_show(name));
		return -ENOENT;
	}
	if (c) {
		char title[64];

		snprintf(title, sizeof(title), "pmc-%s", c->name);
		page(f, c->doc, title);
	} else {
		page(f, &cli_top_doc, "pmc");
		commands(f);
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}
