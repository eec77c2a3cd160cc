// SPDX-License-Identifier: MIT
/* Reading an opened input file whole, up to the size it had when it was opened. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "core/readall.h"

int pmc__read_upto(int fd, size_t size, char **out, size_t *len)
{
	char *buf = malloc(size + 1);
	size_t n = 0;

	if (!buf)
		return -ENOMEM;
	while (n < size) {
		ssize_t r = read(fd, buf + n, size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;
			free(buf);
			return err;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}
