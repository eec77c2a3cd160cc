// SPDX-License-Identifier: MIT
/* libFuzzer harness: pmc stat --config files through cli_config_merge()
 * (tools/pmc/common/config.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "common/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1; /* the file lives in memory: the parser opens it by path */
	static const struct cli_opt opts[] = {
		{"event", 'e', "EVENTS", CLI_V_EVENTS, NULL, "events", CLI_CALL},
		{"repeat", 'r', "N", CLI_V_NONE, NULL, "repetitions", CLI_CALL},
		{"no-warmup", CLI_LONG_ONLY, NULL, CLI_V_NONE, NULL, "no warm-up", CLI_CALL},
		{"config", CLI_LONG_ONLY + 1, "FILE", CLI_V_FILE, NULL, "options file", CLI_CALL},
		{0}};
	static const struct cli_cmd cmd = {.name = "stat", .opts = opts};
	char path[64], *argv[] = {"stat", "-e", "cycles", NULL}, **out;
	struct cli_config_error err;
	int argc = 3, n;

	if (fd < 0 && (fd = memfd_create("fuzz-config", MFD_CLOEXEC)) < 0)
		abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (cli_config_merge(path, &cmd, argc, argv, &n, &out, &err)) {
		if (err.line < 1 || !err.msg[0])
			abort(); /* every failure but I/O names the line and says what is wrong */
		return 0;
	}
	/* argv[0], the file's options, then the command line's arguments, NULL-terminated. */
	if (n < argc || out[0] != argv[0] || out[n - 1] != argv[argc - 1] || out[n])
		abort();
	for (int i = 1; i < n - (argc - 1); i++) {
		if (strncmp(out[i], "--", 2))
			abort();
		free(out[i]);
	}
	free(out);
	return 0;
}
