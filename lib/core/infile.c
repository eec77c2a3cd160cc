// SPDX-License-Identifier: MIT
/* Files named by users or inside other files, opened for reading only when regular. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pmc/error.h>
#include <pmc/infile.h>

int pmc_open_input(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -PMC_E_NOTREG;
	else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		err = -errno;
	else
		return fd;
	close(fd);
	return err;
}

int pmc_fopen_input(const char *path, FILE **out)
{
	int fd = pmc_open_input(path);

	*out = NULL;
	if (fd < 0)
		return fd;
	*out = fdopen(fd, "re");
	if (!*out) {
		int err = -errno;

		close(fd);
		return err;
	}
	return 0;
}
