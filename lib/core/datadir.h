/* SPDX-License-Identifier: MIT */
/* pmc's data folder, ${XDG_DATA_HOME:-~/.local/share}/pmc: its files' paths and its checks. */
#ifndef PMC_LIB_CORE_DATADIR_H
#define PMC_LIB_CORE_DATADIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The data folder: $XDG_DATA_HOME/pmc where that is an absolute path (the XDG base directory
 * spec ignores a relative one), else $HOME/.local/share/pmc, else the same under the
 * account's home in the password database. Returns 0, -ENOENT without any home, or
 * -ENAMETOOLONG.
 */
int pmc__data_dir(char *buf, size_t len);

/*
 * A file of this machine in the data folder, "<folder>/<stem>-<hostname>.json", or the path in
 * the environment variable env where it is set and not empty. Caller frees; NULL when out of
 * memory or when there is no home to put it in.
 */
char *pmc__data_file(const char *env, const char *stem);

/* mkdir -p dir, each folder made 0700; an existing one keeps its mode (the XDG spec). */
int pmc__make_folders(char *dir);

/*
 * Reads the JSON file at path: the data folder's default file (is_default) only where
 * pmc__data_dir_check() passes it (a missing folder reads as a missing file), a FIFO or a
 * device refused rather than waited on. Returns 0 with *root (the caller's reference), or a
 * negative errno or -PMC_E_FORMAT with why (len bytes) saying what failed.
 */
struct json_t;
int pmc__data_json_load(const char *path, bool is_default, struct json_t **root, char *why,
			size_t len);

#endif
