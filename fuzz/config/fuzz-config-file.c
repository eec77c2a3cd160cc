// SPDX-License-Identifier: MIT
/* libFuzzer harness: pmc stat --config files through cli_config_merge() (tools/pmc/config.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1; /* the file lives in memory: the parser opens it by path */
	char path[64], *argv[] = {"stat", "-e", "cycles", NULL}, **out;
	int argc = 3, n, bad_line;

	if (fd < 0 && (fd = memfd_create("fuzz-config", MFD_CLOEXEC)) < 0)
		abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (cli_config_merge(path, argc, argv, &n, &out, &bad_line)) {
		if (bad_line < 1)
			abort(); /* every failure but I/O names the line */
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
