// SPDX-License-Identifier: MIT
/* run_p5mon's parameter file: "key = value" lines turned into long options. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

static bool is_false(const char *v)
{
	return !strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcasecmp(v, "off") ||
	       !strcmp(v, "0");
}

static bool is_true(const char *v)
{
	return !strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on") ||
	       !strcmp(v, "1");
}

/* Turns one "key = value" line into an option, or NULL for a line that adds nothing. */
static int line_to_option(char *line, const struct cli_cmd *cmd, char **opt,
			  struct cli_config_error *err)
{
	const struct cli_opt *o;
	char *eq, *key, *val;

	*opt = NULL;
	line[strcspn(line, "#\n")] = 0;
	key = trim(line);
	if (!*key)
		return 0;
	eq = strchr(key, '=');
	if (!eq) {
		snprintf(err->msg, sizeof(err->msg), "expected 'key = value'");
		return -PMC_E_CONFIG;
	}
	*eq = 0;
	val = trim(eq + 1);
	key = trim(key);
	for (char *p = key; *p; p++)
		if (*p == '_')
			*p = '-';
	o = *key ? cli_find_opt(cmd, key) : NULL;
	if (!o || !strcmp(key, "config") || !strcmp(key, "help")) {
		snprintf(err->msg, sizeof(err->msg),
			 "unknown key '%.60s' (the keys are the long options)", key);
		return -PMC_E_CONFIG;
	}
	/* A config file is data (docs/security.md): it never runs a command. */
	if (!strcmp(key, "pre") || !strcmp(key, "post")) {
		snprintf(err->msg, sizeof(err->msg),
			 "'%s' runs a command, and a config file never runs one: give --%s on "
			 "the command line",
			 key, key);
		return -PMC_E_CONFIG;
	}
	if (!o->arg) {
		if (is_true(val))
			return asprintf(opt, "--%s", key) < 0 ? -ENOMEM : 0;
		if (is_false(val))
			return 0;
		snprintf(err->msg, sizeof(err->msg), "'%s' is a switch: yes or no, not '%.40s'",
			 key, val);
		return -PMC_E_CONFIG;
	}
	if (!*val && o->value == CLI_V_OPTIONAL)
		return asprintf(opt, "--%s", key) < 0 ? -ENOMEM : 0;
	if (!*val) {
		snprintf(err->msg, sizeof(err->msg), "'%s' needs a value", key);
		return -PMC_E_CONFIG;
	}
	return asprintf(opt, "--%s=%s", key, val) < 0 ? -ENOMEM : 0;
}

int cli_config_merge(const char *path, const struct cli_cmd *cmd, int argc, char **argv,
		     int *new_argc, char ***new_argv, struct cli_config_error *cerr)
{
	char *line = NULL, **out;
	size_t cap = 0;
	int n = 1, lineno = 0, err;
	FILE *f;

	cerr->line = 0;
	cerr->msg[0] = 0;
	err = pmc_fopen_input(path, &f); /* a FIFO, /dev/zero or a folder is refused */
	if (err)
		return err;
	out = calloc((size_t)argc + 1, sizeof(*out));
	if (!out) {
		fclose(f);
		return -ENOMEM;
	}
	out[0] = argv[0];
	/* getline: a line of any length is one line (fgets into a fixed buffer read the tail of
	 * a long comment as an option of its own). */
	while (!err && getline(&line, &cap, f) >= 0) {
		char *opt, **grown;

		lineno++;
		err = line_to_option(line, cmd, &opt, cerr);
		if (err || !opt)
			continue;
		grown = realloc(out, ((size_t)argc + (size_t)n + 2) * sizeof(*out));
		if (!grown) {
			free(opt);
			err = -ENOMEM;
			break;
		}
		out = grown;
		out[n++] = opt;
	}
	free(line);
	fclose(f);
	if (err) {
		cerr->line = lineno;
		for (int i = 1; i < n; i++)
			free(out[i]);
		free(out);
		return err;
	}
	for (int i = 1; i < argc; i++)
		out[n++] = argv[i];
	out[n] = NULL;
	*new_argc = n;
	*new_argv = out;
	return 0;
}

const char *cli_signame(int sig)
{
	static char buf[32];
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}
