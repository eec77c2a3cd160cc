// SPDX-License-Identifier: MIT
/* pmc's commands, in pmc --help's order, each in its folder (stat/, record/, ...), and pmc's own
 * options. */
#include <stddef.h>
#include "common/cli.h"
#include "common/cmd.h"

#define COMMAND(name)                                \
	{                                            \
#name, &cmd_##name##_doc, cmd_##name \
	}

const struct cli_command cli_commands[] = {
	COMMAND(list),	    COMMAND(stat),     COMMAND(record),	 COMMAND(report), COMMAND(annotate),
	COMMAND(calibrate), COMMAND(validate), COMMAND(metrics), COMMAND(doctor), COMMAND(merge),
};
const size_t cli_nr_commands = sizeof(cli_commands) / sizeof(cli_commands[0]);

static const struct cli_opt top_options[] = {
	{"help", 'h', NULL, CLI_V_NONE, NULL,
	 "the commands; 'pmc help COMMAND' or 'pmc COMMAND --help': a command's options",
	 CLI_SHOW_HELP},
	{"version", CLI_LONG_ONLY, NULL, CLI_V_NONE, NULL, "pmc's version ('pmc version' too)",
	 CLI_CALL},
	{0},
};

const struct cli_cmd cli_top_doc = {
	.name = "pmc",
	.summary = "performance-monitoring counters, measured properly",
	.synopsis = "[--version] [--help] COMMAND [ARGS]",
	.about = "pmc counts and samples what a processor's performance-monitoring unit and the "
		 "kernel can count, and says how far the numbers can be trusted. Its commands "
		 "follow; each has a page of its own.",
	.opts = top_options,
};
