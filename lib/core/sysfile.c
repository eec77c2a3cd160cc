// SPDX-License-Identifier: MIT
/* Small readers of /proc and /sys files, and the one place the sysfs root is chosen. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/sysfile.h"

static char sysfs_root[PATH_MAX] = "/sys";
static pthread_once_t root_once = PTHREAD_ONCE_INIT;

/* PMC_SYSFS_ROOT points pmc at another machine's recorded sysfs tree; read once. */
static void root_init(void)
{
	const char *env = secure_getenv("PMC_SYSFS_ROOT");

	if (env && *env)
		snprintf(sysfs_root, sizeof(sysfs_root), "%s", env);
}

const char *pmc__sysfs_root(void)
{
	pthread_once(&root_once, root_init);
	return sysfs_root;
}

void pmc__sysfs_set_root(const char *root)
{
	pthread_once(&root_once, root_init);
	snprintf(sysfs_root, sizeof(sysfs_root), "%s", root ? root : "/sys");
}

int pmc__sysfs_path(char *buf, size_t len, const char *fmt, ...)
{
	int n = snprintf(buf, len, "%s/", pmc__sysfs_root()), m;
	va_list ap;

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return m < 0 || (size_t)m >= len - (size_t)n ? -ENAMETOOLONG : 0;
}

int pmc__sysfs_read(const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	int err = pmc__sysfs_path(path, sizeof(path), "%s", rel);

	return err ? err : pmc__sysfile_read(path, buf, len);
}

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
