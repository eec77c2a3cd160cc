/* SPDX-License-Identifier: MIT */
/* The subcommands of the pmc CLI: a folder each (stat/cmd-stat.c, ...), dispatched from main.c. */
#ifndef PMC_TOOLS_CMD_H
#define PMC_TOOLS_CMD_H

/*
 * Each returns the process exit status: 0 ok, 1 failure, 2 usage error; pmc stat and
 * pmc record return the measured program's status (128+signal when it was killed).
 * Each comes with its options and documentation (cmd_NAME_doc, cli.h). Weak, so that the
 * table in commands.c names every command and says which are built.
 */
struct cli_cmd;
#define PMC_CMD(name)                                                \
	int cmd_##name(int argc, char **argv) __attribute__((weak)); \
	extern const struct cli_cmd cmd_##name##_doc __attribute__((weak));
PMC_CMD(list)
PMC_CMD(stat)
PMC_CMD(record)
PMC_CMD(report)
PMC_CMD(annotate)
PMC_CMD(calibrate)
PMC_CMD(validate)
PMC_CMD(metrics)
PMC_CMD(doctor)
PMC_CMD(merge)
#undef PMC_CMD

#endif /* PMC_TOOLS_CMD_H */
