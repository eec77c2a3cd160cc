/* SPDX-License-Identifier: MIT */
/* Reading an opened input file whole, up to a size known beforehand (readall.c). */
#ifndef PMC_LIB_CORE_READALL_H
#define PMC_LIB_CORE_READALL_H

#include <stddef.h>

/*
 * Reads at most size bytes of fd (the size fstat gave: a file that grows meanwhile is read
 * as it was) into a new buffer with a NUL after them (free() it). Returns 0 with *out and
 * *len, or -ENOMEM or the read's negative errno.
 */
int pmc__read_upto(int fd, size_t size, char **out, size_t *len);
/*
 * Reads fd to its end into a new buffer with a NUL after the bytes (free() it), with large
 * read(2)s: /proc files have no size. The buffer, with *len, or NULL on ENOMEM or a failed
 * read.
 */
char *pmc__read_all(int fd, size_t *len);

#endif /* PMC_LIB_CORE_READALL_H */
