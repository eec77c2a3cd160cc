/* SPDX-License-Identifier: MIT */
/*
 * pmc's versioned JSON files (docs/versioning.md): a "schema" key "<family>/<N>", the versions
 * this pmc reads, the checks on read, and writes that leave the file whole or as it was. The
 * calibration file and the trust file go through it.
 */
#ifndef PMC_LIB_CORE_JSONFILE_H
#define PMC_LIB_CORE_JSONFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

/* A kind of file: what it is called and which of its versions this pmc reads. */
struct pmc__jsonfile_kind {
	const char *family;	     /* "pmc-trust": schemas are "pmc-trust/N" */
	const char *name;	     /* "trust file", in messages */
	const char *writer;	     /* the command that writes it, "pmc validate" */
	const char *const *versions; /* the schemas read, newest first; NULL ends the list */
	const char *reads;	     /* the versions read, in words: "pmc-calibrate/1 to /3" */
};

/*
 * Reads the file at path (the data folder's default, is_default, only where
 * pmc__data_dir_check() passes it; a FIFO or device refused) and checks its schema against
 * kind. Returns 0 with *root (the caller's reference) and *version (the index of its schema in
 * kind->versions; may be NULL); a negative errno, -PMC_E_FORMAT ("not a trust file ...") or
 * -PMC_E_VERSION (the version found and those read, and what to run) with why (len bytes).
 */
int pmc__jsonfile_load(const char *path, bool is_default, const struct pmc__jsonfile_kind *kind,
		       json_t **root, size_t *version, char *why, size_t len);

/*
 * What a file at path holds now, for a writer that merges into it: NULL where there is none,
 * it is not a regular file (a FIFO or a device is replaced, not read) or it is no JSON.
 */
json_t *pmc__jsonfile_read_old(const char *path);

/*
 * Writes root to path whole or not at all (a temporary file beside it, renamed at the end;
 * "-": stdout), indented by two, reals with precision digits (0: jansson's default), and a
 * newline. Returns 0 or a negative errno (-ENOSPC, -EACCES, ...); the file is then as it was.
 */
int pmc__jsonfile_write(const char *path, json_t *root, int precision);

#endif /* PMC_LIB_CORE_JSONFILE_H */
