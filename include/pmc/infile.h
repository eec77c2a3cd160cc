/* SPDX-License-Identifier: MIT */
/* Opening the files users name, and the files named inside other files, for reading. */
#ifndef PMC_INFILE_H
#define PMC_INFILE_H

#include <stdio.h>
#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Opens path for reading if it is a regular file (symbolic links followed). A FIFO, a
 * device, a socket or a folder under that name is refused, so that a name someone planted
 * (a FIFO as a mapped object of a sample file, /dev/zero as --kallsyms) can neither hang
 * the reader nor feed it without end. The open itself does not block: it is made with
 * O_NONBLOCK, cleared once the file is known to be regular.
 * Returns the descriptor (O_CLOEXEC; the caller closes it), or a negative errno
 * (-ENOENT, -EACCES, ...) or -PMC_E_NOTREG.
 */
PMC_API int pmc_open_input(const char *path);

/*
 * pmc_open_input() as a stdio stream for reading. Returns 0 and the stream in *out (the
 * caller fcloses it), or the negative code of pmc_open_input() with *out NULL.
 */
PMC_API int pmc_fopen_input(const char *path, FILE **out);

#ifdef __cplusplus
}
#endif
#endif /* PMC_INFILE_H */
