/* SPDX-License-Identifier: MIT */
/*
 * libprotobuf-c and zlib, loaded on first use (core/dynlib.h says why): only pmc report's
 * pprof export calls them. The code protoc-c generated from profile.proto calls
 * libprotobuf-c's functions by name; pprof-api.c defines those names (hidden, as every
 * symbol of libpmc but its API) over the loaded library.
 */
#ifndef PMC_LIB_REPORT_PPROF_API_H
#define PMC_LIB_REPORT_PPROF_API_H

#include <protobuf-c/protobuf-c.h>
#include <zlib.h>

struct pmc__z_api {
	int (*deflate_init2)(z_streamp strm, int level, int method, int window_bits, int mem_level,
			     int strategy, const char *version, int stream_size);
	int (*deflate)(z_streamp strm, int flush);
	int (*deflate_end)(z_streamp strm);
};

/*
 * Loads libprotobuf-c and zlib on the first call (thread-safe). Returns 0, or -ENOENT /
 * -ENOSYS with why naming the library that could not be loaded.
 */
int pmc__pprof_api_load(const char **why);
/* zlib's functions; valid once pmc__pprof_api_load() returned 0. */
const struct pmc__z_api *pmc__z_api(void);

#endif /* PMC_LIB_REPORT_PPROF_API_H */
