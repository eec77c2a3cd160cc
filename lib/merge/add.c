// SPDX-License-Identifier: MIT
/* pmc merge's input: a rank's results file, read whole and added to the merge (doc.c, read.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include "core/grow.h"
#include "merge/merge.h"

int pmc_merge__add(struct pmc_merge *m, const char *name, const char *buf, size_t len, char *why,
		   size_t why_len)
{
	struct merge_file f = {0};
	char bad[64] = "";
	int err;

	if (why && why_len)
		why[0] = '\0';
	if (PMC_ENSURE(m->files, m->cap_files, m->nr_files + 1))
		return -ENOMEM;
	f.path = strdup(name);
	if (!f.path)
		return -ENOMEM;
	err = pmc__merge_read(m, &f, buf, len, why, why_len, bad, sizeof(bad));
	if (err == -PMC_E_FORMAT && why && why_len && !why[0])
		snprintf(why, why_len,
			 "%s: not a pmc stat results file in JSON (pmc stat "
			 "--format json) nor a program's regions (PMC_OUTPUT)%s",
			 name, bad);
	if (err) {
		pmc__merge_file_free(&f);
		if (!m->nr_files)
			pmc__merge_forget(m);
		return err;
	}
	m->files[m->nr_files++] = f;
	return 0;
}

/* The whole of in, into *buf (*len bytes): one read of its size when it has one. */
static int slurp(FILE *in, char **buf, size_t *len)
{
	struct stat st;
	size_t cap = 0, n;
	char *b = NULL, *g;

	if (!fstat(fileno(in), &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 1; /* + 1: the end is seen without another read */
	*len = 0;
	for (;;) {
		if (!b || *len == cap) {
			cap = !b ? (cap ? cap : 65536) : cap * 2;
			if (!(g = realloc(b, cap))) {
				free(b);
				return -ENOMEM;
			}
			b = g;
		}
		n = fread(b + *len, 1, cap - *len, in);
		*len += n;
		if (n == 0)
			break;
	}
	if (ferror(in)) {
		free(b);
		return -EIO;
	}
	*buf = b;
	return 0;
}

int pmc_merge__add_file(struct pmc_merge *m, const char *path, char *why, size_t why_len)
{
	FILE *in;
	char *buf = NULL;
	size_t len = 0;
	int err = pmc_fopen_input(path, &in);

	if (!err) {
		err = slurp(in, &buf, &len);
		fclose(in);
	}
	if (err) {
		if (why && why_len)
			snprintf(why, why_len, "cannot read %s: %s", path, pmc_strerror(err));
		return err;
	}
	err = pmc_merge__add(m, path, buf, len, why, why_len);
	free(buf);
	return err;
}
