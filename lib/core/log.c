// SPDX-License-Identifier: MIT
/* The print callback and its default, which honours PMC_LOG_LEVEL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/log.h"

static int default_level = -1; /* -1: not yet read from the environment */

static int level_from_env(void)
{
	static const char *const names[] = {"error", "warn", "info", "debug"};
	const char *s = secure_getenv("PMC_LOG_LEVEL");

	if (!s || !*s)
		return PMC_LOG_WARN;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(s, names[i]) || (s[0] == (char)('0' + i) && !s[1]))
			return (int)i;
	return PMC_LOG_WARN;
}

static void default_print(enum pmc_log_level level, const char *fmt, va_list ap)
{
	if (default_level < 0)
		default_level = level_from_env();
	if ((int)level > default_level)
		return;
	vfprintf(stderr, fmt, ap);
}

static pmc_print_fn print_fn = default_print;

pmc_print_fn pmc_set_print(pmc_print_fn fn)
{
	pmc_print_fn old = print_fn;

	print_fn = fn;
	return old;
}

void pmc_set_log_level(enum pmc_log_level level)
{
	default_level = (int)level;
}

void pmc__log(enum pmc_log_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}
