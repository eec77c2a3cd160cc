// SPDX-License-Identifier: MIT
/* libzstd loaded on first use: its streaming decompressor, resolved by name. */
#include "core/dynlib.h"
#include "perfdata/zstd-api.h"

static struct pmc__zstd_api api;
static const char *const names[] = {"ZSTD_createDStream", "ZSTD_freeDStream",
				    "ZSTD_initDStream",	  "ZSTD_decompressStream",
				    "ZSTD_isError",	  "ZSTD_getErrorName"};
_Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(api) / sizeof(void *),
	       "one name per function pointer");
static struct pmc__dynlib lib =
	PMC__DYNLIB_INIT(PMC_ZSTD_SONAME, names, &api, sizeof(names) / sizeof(names[0]));

const struct pmc__zstd_api *pmc__zstd_api(const char **why)
{
	if (pmc__dynlib_load(&lib)) {
		*why = lib.why;
		return NULL;
	}
	return &api;
}
