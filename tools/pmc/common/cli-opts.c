// SPDX-License-Identifier: MIT
/*
 * A command's option table (cli.h) turned into the --help text; the lookups that completion
 * and parameter files share (the parser is cli-parse.c).
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#define HELP_WIDTH 80
#define HELP_COLUMN 26

const struct cli_opt *cli_find_opt(const struct cli_cmd *cmd, const char *name)
{
	for (const struct cli_opt *o = cmd->opts; o->key; o++)
		if (o->name && !strcmp(o->name, name))
			return o;
	return NULL;
}

static const struct cli_opt *find_short(const struct cli_cmd *cmd, int c)
{
	for (const struct cli_opt *o = cmd->opts; o->key; o++)
		if (o->key == c && c < CLI_LONG_ONLY)
			return o;
	return NULL;
}

bool cli_takes_next(const struct cli_cmd *cmd, const char *word)
{
	const struct cli_opt *o;

	if (!strncmp(word, "--", 2))
		return word[2] && !strchr(word, '=') && (o = cli_find_opt(cmd, word + 2)) &&
		       o->arg && o->value != CLI_V_OPTIONAL;
	if (word[0] != '-' || !word[1])
		return false;
	/* "-vvo FILE": the last letter of a cluster decides, unless a value is attached */
	for (const char *p = word + 1; *p; p++) {
		o = find_short(cmd, (unsigned char)*p);
		if (!o)
			return false;
		if (o->arg)
			return !p[1];
	}
	return false;
}

void cli_wrap(FILE *f, const char *text, int col, int indent, int width)
{
	const char *p = text;

	while (*p) {
		size_t word = strcspn(p, " \n");

		if (col > indent && col + 1 + (int)word > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)word, p);
		col += (int)word;
		p += word;
		if (!strncmp(p, "\n\n", 2)) {
			fprintf(f, "\n\n%*s", indent, "");
			col = indent;
		}
		p += strspn(p, " \n");
	}
	fputc('\n', f);
}

void cli_usage(const struct cli_cmd *cmd, FILE *f)
{
	const char *line = cmd->synopsis;
	bool first = true;

	for (size_t n; *line; line += n + (line[n] == '\n'), first = false) {
		n = strcspn(line, "\n");
		fprintf(f, "%s pmc %s %.*s\n", first ? "usage:" : "      ", cmd->name, (int)n,
			line);
	}
	if (cmd->about) {
		fputc('\n', f);
		cli_wrap(f, cmd->about, 0, 0, HELP_WIDTH);
	}
	fputc('\n', f);
	for (const struct cli_opt *o = cmd->opts; o->key; o++) {
		char head[96], sh[8] = "    ";
		int len;

		if (o->key < CLI_LONG_ONLY)
			snprintf(sh, sizeof(sh), "-%c%s", o->key, o->name ? ", " : "");
		if (o->name)
			len = snprintf(head, sizeof(head), "  %s--%s%s%s%s%s", sh, o->name,
				       o->value == CLI_V_OPTIONAL ? "[" : "", o->arg ? "=" : "",
				       o->arg ? o->arg : "", o->value == CLI_V_OPTIONAL ? "]" : "");
		else
			len = snprintf(head, sizeof(head), "  %s%s%s", sh, o->arg ? " " : "",
				       o->arg ? o->arg : "");
		if (len + 1 > HELP_COLUMN)
			fprintf(f, "%s\n%*s", head, HELP_COLUMN, "");
		else
			fprintf(f, "%-*s", HELP_COLUMN, head);
		cli_wrap(f, o->help, HELP_COLUMN, HELP_COLUMN, HELP_WIDTH);
	}
}
