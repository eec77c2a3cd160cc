// SPDX-License-Identifier: MIT
/* cli_print_parse_error(): an event-string error as perf prints it, with a caret under the fault.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Inputs longer than this are shown as a window around the fault, as perf does. */
#define WINDOW 60

void cli_print_parse_error(const char *cmd, const char *input, const struct pmc_parse_error *err)
{
	cli_print_parse_error_hint(cmd, input, err, "run 'pmc list' for the events known here");
}

void cli_print_parse_error_hint(const char *cmd, const char *input,
				const struct pmc_parse_error *err, const char *hint)
{
	int len = (int)strlen(input), off = err->offset, start = 0, shown;
	char *before, *after;

	if (off < 0)
		off = 0;
	if (off > len)
		off = len;
	if (off > WINDOW - 10)
		start = off - (WINDOW - 10);
	shown = len - start < WINDOW ? len - start : WINDOW;
	fprintf(stderr, "%s: %s\n", cmd,
		err->msg[0] ? cli_show(err->msg) : "event string does not parse");
	/* Shown escaped (cli_show()), the caret under the escaped fault. */
	before = strndup(input + start, (size_t)(off - start));
	after = strndup(input + off, (size_t)(start + shown - off));
	if (before && after) {
		const char *b = cli_show(before);

		fprintf(stderr, "  %s%s%s%s\n", start ? "..." : "", b, cli_show(after),
			start + shown < len ? "..." : "");
		fprintf(stderr, "  %*s^\n", (start ? 3 : 0) + (int)strlen(b), "");
	}
	free(before);
	free(after);
	for (int i = 0; i < err->nr_suggest && i < 3; i++)
		fprintf(stderr, "  did you mean '%s'?\n", cli_show(err->suggest[i]));
	if (!err->nr_suggest)
		fprintf(stderr, "  %s\n", hint);
}
