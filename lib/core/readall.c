// SPDX-License-Identifier: MIT
/* Reading an opened input file whole: up to the size it had when it was opened, or to its end. */
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

char *pmc__read_all(int fd, size_t *len)
{
	size_t cap = 1 << 22, n = 0;
	char *buf = malloc(cap + 1), *v;
	ssize_t got;

	while (buf) {
		if (n == cap) {
			v = realloc(buf, (cap *= 2) + 1);
			if (!v)
				break;
			buf = v;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got < 0)
				break;
			buf[n] = 0;
			*len = n;
			return buf;
		}
		n += (size_t)got;
	}
	free(buf);
	return NULL;
}
