/* SPDX-License-Identifier: MIT */
/*
 * The results file's object (include/pmc/outfile.h), shared by where it goes (outfile.c:
 * the target's folder, links, descriptors named in /proc) and how it is written
 * (outfile-write.c: the stream, appends under a lock, the first write error).
 */
#ifndef PMC_CORE_OUTFILE_H
#define PMC_CORE_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <pmc/outfile.h>

struct pmc_outfile {
	int fd;
	FILE *stream;
	int dirfd;    /* the target's folder, while a temporary file is open in it */
	char *name;   /* the target's name in dirfd */
	char *tmp;    /* the temporary file's name in dirfd */
	bool probe;   /* pmc_outfile__check(): nothing is opened in place */
	bool aborted; /* what the stream still holds is dropped */
	char *buf;    /* append: the whole output, written at the commit */
	size_t len, cap;
	int err; /* the first write error, a negative errno */
	struct pmc_outfile_opts opts;
};

/* The same at offset off (pwrite(2)); off < 0: write(2) at the file's position. */
int pmc__outfile_pwrite_all(int fd, const void *buf, size_t len, off_t off);

/* The stream over o's descriptor (or, for an append, its buffer); NULL when out of memory. */
FILE *pmc__outfile_stream(struct pmc_outfile *o);

/* An append's buffer written in one write(2) at the file's end, under flock(2). */
int pmc__outfile_append(struct pmc_outfile *o);

#endif /* PMC_CORE_OUTFILE_H */
