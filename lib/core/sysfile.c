// SPDX-License-Identifier: MIT
/* Small readers of /proc and /sys files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/sysfile.h"

int pmc__sysfile_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return (int)n;
}

int pmc__sysfile_read_long(const char *path, long *out)
{
	char buf[64], *end;
	int err = pmc__sysfile_read(path, buf, sizeof(buf));

	if (err < 0)
		return err;
	errno = 0;
	*out = strtol(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

long pmc__sysfile_status_field(const char *name)
{
	char line[256];
	size_t n = strlen(name);
	long v = -1;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}
