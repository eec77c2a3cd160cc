/* SPDX-License-Identifier: MIT */
/* pmc's cache folder, ${XDG_CACHE_HOME:-~/.cache}/pmc, and the folders under it. */
#ifndef PMC_LIB_CORE_CACHEDIR_H
#define PMC_LIB_CORE_CACHEDIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The folder sub ("vdso/ID", or "" for the cache folder itself) of the cache folder, into buf
 * (filled whenever there is a base, even when the folder is refused or missing).
 * The base is $XDG_CACHE_HOME where that is absolute, else $HOME/.cache (made 0700 with make);
 * it may be a symbolic link of the caller's own, no one else's. Every folder from the base on
 * must be the caller's and writable by no one else, and from pmc on is opened without
 * following a symbolic link (each made 0700 with make), as the data folder's rules
 * (docs/security.md): a cache in another user's folder, as root with that user's
 * environment, is not used. Returns 0; -ENOENT (no home, or a folder missing without make),
 * -PMC_E_UNSAFELINK, -EPERM, -ENAMETOOLONG or the failed call's negative errno.
 */
int pmc__cache_dir(const char *sub, bool make, char *buf, size_t len);

#endif /* PMC_LIB_CORE_CACHEDIR_H */
