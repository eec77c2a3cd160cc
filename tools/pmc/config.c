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
static int line_to_option(char *line, char **opt)
{
	char *eq, *key, *val;

	*opt = NULL;
	line[strcspn(line, "#\n")] = 0;
	key = trim(line);
	if (!*key)
		return 0;
	eq = strchr(key, '=');
	if (!eq)
		return -PMC_E_CONFIG;
	*eq = 0;
	val = trim(eq + 1);
	key = trim(key);
	if (!*key || strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789-_") != strlen(key))
		return -PMC_E_CONFIG;
	for (char *p = key; *p; p++)
		if (*p == '_')
			*p = '-';
	if (is_false(val))
		return 0;
	if (is_true(val) || !*val)
		return asprintf(opt, "--%s", key) < 0 ? -ENOMEM : 0;
	return asprintf(opt, "--%s=%s", key, val) < 0 ? -ENOMEM : 0;
}

int cli_config_merge(const char *path, int argc, char **argv, int *new_argc, char ***new_argv,
		     int *bad_line)
{
	char *line = NULL, **out;
	size_t cap = 0;
	int n = 1, lineno = 0, err;
	FILE *f;

	*bad_line = 0;
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
		err = line_to_option(line, &opt);
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
		*bad_line = lineno;
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
