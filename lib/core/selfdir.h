/* SPDX-License-Identifier: MIT */
/* Where libpmc's own code lies, so that an installed tree finds its parts relative to itself. */
#ifndef PMC_LIB_CORE_SELFDIR_H
#define PMC_LIB_CORE_SELFDIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The folder, without symlinks, of the file that holds libpmc's code: libpmc.so when the
 * library is shared, or the executable a static libpmc is linked into (read from
 * /proc/self/exe: for the main program the dynamic linker knows only argv[0]). *is_exe says
 * which, since an install puts the two in different folders (bindir, libdir). Returns 0, or
 * a negative errno when the file cannot be named (dir is then empty).
 */
int pmc__selfdir(char *dir, size_t len, bool *is_exe);

#endif
