/* SPDX-License-Identifier: MIT */
/* Opening a folder below another one component at a time, never through a symbolic link. */
#ifndef PMC_LIB_CORE_WALKDIR_H
#define PMC_LIB_CORE_WALKDIR_H

#include <sys/types.h>

/*
 * The folder rel ("a/b/c"; empty components and "." skipped, ".." refused) below the folder
 * at, each component opened with O_NOFOLLOW (O_PATH) and, when mode is not 0, made with mode
 * first where missing; each opened component must pass fit (NULL: any), which returns 0 or
 * a negative code. Returns a descriptor of the last one, or a negative code: the failed
 * call's -errno (-ELOOP for a link where a folder was to be, -ENOTDIR for another file),
 * fit's, -EINVAL.
 * at itself is not closed.
 */
int pmc__walk_dir(int at, const char *rel, mode_t mode, int (*fit)(int fd));

#endif /* PMC_LIB_CORE_WALKDIR_H */
