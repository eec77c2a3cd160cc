// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: pmc merge's reader (lib/merge/read.c). The input is one or two results
 * files (split at the first NUL byte), added as two ranks; what was accepted is written in
 * every format.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pmc/error.h>
#include <pmc/merge.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	const char *buf = (const char *)data, *nul = memchr(data, 0, size);
	size_t first = nul ? (size_t)(nul - buf) : size;
	struct pmc_merge *m;
	char why[512];
	int added = 0, err;

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	if (pmc_merge__new(&m))
		abort();
	err = pmc_merge__add(m, "a", buf, first, why, sizeof(why));
	if (err && (err == -ENOMEM || !why[0]))
		abort(); /* every refusal says why */
	added += !err;
	if (nul) {
		err = pmc_merge__add(m, "b", nul + 1, size - first - 1, why, sizeof(why));
		if (err && (err == -ENOMEM || !why[0]))
			abort();
		added += !err;
	}
	for (int fmt = PMC_MERGE_FORMAT_TEXT; fmt <= PMC_MERGE_FORMAT_JSON; fmt++)
		if (pmc_merge__write(m, null, (enum pmc_merge_format)fmt) != (added ? 0 : -EINVAL))
			abort();
	pmc_merge__delete(m);
	return 0;
}
