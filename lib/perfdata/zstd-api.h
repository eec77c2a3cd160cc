/* SPDX-License-Identifier: MIT */
/*
 * libzstd's streaming decompressor, loaded on first use (core/dynlib.h says why): only
 * sample files recorded with perf record -z need it.
 */
#ifndef PMC_LIB_PERFDATA_ZSTD_API_H
#define PMC_LIB_PERFDATA_ZSTD_API_H

#include <zstd.h>

struct pmc__zstd_api {
	ZSTD_DStream *(*create)(void);
	size_t (*free)(ZSTD_DStream *zds);
	size_t (*init)(ZSTD_DStream *zds);
	size_t (*decompress)(ZSTD_DStream *zds, ZSTD_outBuffer *output, ZSTD_inBuffer *input);
	unsigned (*is_error)(size_t code);
	const char *(*error_name)(size_t code);
};

/*
 * libzstd, loaded on the first call (thread-safe); NULL when it cannot be loaded, with why
 * (dlerror()'s text) pointing into a static buffer.
 */
const struct pmc__zstd_api *pmc__zstd_api(const char **why);

#endif /* PMC_LIB_PERFDATA_ZSTD_API_H */
