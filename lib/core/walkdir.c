// SPDX-License-Identifier: MIT
/* Opening a folder below another one component at a time, never through a symbolic link. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "core/walkdir.h"

/* name in dir, a folder, not through a link (-ELOOP for one: O_PATH says only -ENOTDIR). */
static int open_one(int dir, const char *name)
{
	int fd = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), err = errno;
	struct stat st;

	if (fd >= 0)
		return fd;
	if (err == ENOTDIR && !fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
		return -ELOOP;
	return -err;
}

int pmc__walk_dir(int at, const char *rel, mode_t mode, int (*fit)(int fd))
{
	char name[256];
	int fd = fcntl(at, F_DUPFD_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	while (*rel) {
		size_t n = strcspn(rel, "/");
		int next;

		if (n >= sizeof(name) || (n == 2 && !strncmp(rel, "..", 2))) {
			close(fd);
			return -EINVAL;
		}
		memcpy(name, rel, n);
		name[n] = 0;
		rel += n + (rel[n] == '/');
		if (!n || !strcmp(name, "."))
			continue;
		if (mode && mkdirat(fd, name, mode) && errno != EEXIST)
			next = -errno;
		else
			next = open_one(fd, name);
		close(fd);
		if (next >= 0 && fit) {
			int err = fit(next);

			if (err) {
				close(next);
				next = err;
			}
		}
		if (next < 0)
			return next;
		fd = next;
	}
	return fd;
}
