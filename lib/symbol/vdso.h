/* SPDX-License-Identifier: MIT */
/*
 * The vDSO image, saved at record time and read at report time (vdso.c): the kernel maps
 * it into every process and no file holds it, so a report cannot name its code otherwise.
 */
#ifndef PMC_LIB_SYMBOL_VDSO_H
#define PMC_LIB_SYMBOL_VDSO_H

#include <stddef.h>
#include "symbol/buildid.h"

/*
 * Where the image of build id (hex) is kept: "$XDG_CACHE_HOME/pmc/vdso/ID/[vdso]", or
 * under "$HOME/.cache" without XDG_CACHE_HOME. 0, or -ENOENT without either variable,
 * -ENAMETOOLONG.
 */
int pmc__vdso_cache_path(const char *build_id, char *buf, size_t len);
/*
 * Saves this process's vDSO (the same image as every process's under this kernel) in the
 * cache, unless it is there already, and gives its build id (hex). 0, or a negative errno
 * (-ENOENT when there is no vDSO or it has no build id).
 */
int pmc__vdso_save(char build_id[PMC_BUILD_ID_HEX]);

#endif /* PMC_LIB_SYMBOL_VDSO_H */
