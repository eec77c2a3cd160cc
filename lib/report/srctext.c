// SPDX-License-Identifier: MIT
/* The text of a source file, read once under the caps of docs/security.md, by line number. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include "core/readall.h"
#include "report/srctext.h"

struct pmc__srctext {
	char *text;  /* the file, each line's newline replaced by a NUL */
	char **line; /* line[i]: line i + 1 */
	int nr;
};

/* Reads fd whole (as large as it was at fstat) into a new buffer of *len bytes plus a NUL. */
static int read_all(int fd, char **out, size_t *len)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_size > (off_t)PMC__SRCTEXT_MAX_FILE)
		return -EFBIG;
	return pmc__read_upto(fd, (size_t)st.st_size, out, len);
}

/* Splits t->text into lines in place; a line longer than the cap is cut there. */
static int split(struct pmc__srctext *t, size_t len)
{
	size_t nr = 0, i;

	for (i = 0; i < len; i++)
		nr += t->text[i] == '\n';
	nr += len && t->text[len - 1] != '\n';
	t->line = calloc(nr ? nr : 1, sizeof(*t->line));
	if (!t->line)
		return -ENOMEM;
	for (i = 0; i < len;) {
		char *s = t->text + i, *nl = memchr(s, '\n', len - i);
		size_t n = nl ? (size_t)(nl - s) : len - i;
		i += n + 1;
		if (n > PMC__SRCTEXT_MAX_COLS)
			n = PMC__SRCTEXT_MAX_COLS;
		s[n] = 0;
		t->line[t->nr++] = s;
	}
	return 0;
}

int pmc__srctext_parse(const char *bytes, size_t len, struct pmc__srctext **out)
{
	struct pmc__srctext *t = calloc(1, sizeof(*t));
	int err;

	*out = NULL;
	if (!t || !(t->text = malloc(len + 1))) {
		free(t);
		return -ENOMEM;
	}
	memcpy(t->text, bytes, len);
	t->text[len] = 0;
	err = split(t, len);
	if (err) {
		pmc__srctext_free(t);
		return err;
	}
	*out = t;
	return 0;
}

int pmc__srctext_load(const char *path, struct pmc__srctext **out)
{
	char *buf = NULL;
	size_t len = 0;
	int fd, err;

	*out = NULL;
	/* A FIFO or a device planted under the name is refused, not read (docs/security.md). */
	fd = pmc_open_input(path);
	if (fd < 0)
		return fd;
	err = read_all(fd, &buf, &len);
	close(fd);
	if (!err)
		err = pmc__srctext_parse(buf, len, out);
	free(buf);
	return err;
}

const char *pmc__srctext_line(const struct pmc__srctext *t, int line)
{
	return t && line >= 1 && line <= t->nr ? t->line[line - 1] : NULL;
}

int pmc__srctext_nr_lines(const struct pmc__srctext *t)
{
	return t ? t->nr : 0;
}

const char *pmc__srctext_why(int err)
{
	switch (err) {
	case -ENOENT:
		return "the source file is not there";
	case -PMC_E_NOTREG:
		return "the source file is not a regular file (a FIFO, device or folder): not read";
	case -EFBIG:
		return "the source file is larger than 8 MiB: not read";
	default:
		return "the source file cannot be read here";
	}
}

void pmc__srctext_free(struct pmc__srctext *t)
{
	if (t) {
		free(t->text);
		free(t->line);
		free(t);
	}
}
