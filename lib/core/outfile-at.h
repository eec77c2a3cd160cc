/* SPDX-License-Identifier: MIT */
/* Results files made in a folder already opened (outfile.c), for caches walked by descriptor. */
#ifndef PMC_LIB_CORE_OUTFILE_AT_H
#define PMC_LIB_CORE_OUTFILE_AT_H

#include <pmc/outfile.h>

/*
 * pmc_outfile__open_opts() of name in the folder dirfd (which the caller keeps): written
 * to a temporary file there and renamed over name on commit. A link, a folder or anything
 * but a regular file at name is refused (-ELOOP, -EISDIR, -PMC_E_NOTREG): nothing is
 * followed. 0, or a negative errno.
 */
int pmc__outfile_openat(int dirfd, const char *name, const struct pmc_outfile_opts *opts,
			struct pmc_outfile **out);

#endif /* PMC_LIB_CORE_OUTFILE_AT_H */
