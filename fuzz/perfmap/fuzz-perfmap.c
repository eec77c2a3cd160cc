// SPDX-License-Identifier: MIT
/* libFuzzer harness for JIT symbol files (/tmp/perf-PID.map): parse, then look addresses up. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "symbol/perfmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc__symtab *st;
	struct pmc__perfmap *pm;

	if (pmc__symtab_new(NULL, &st))
		return 0;
	if (pmc__perfmap_parse(st, (const char *)data, size, &pm) == 0) {
		/* Addresses around the input's own bytes read as numbers, and the extremes. */
		uint64_t probes[6] = {0, 1, UINT64_MAX, 0x7f0000000000, 0, 0};
		const char *name;
		uint64_t start, len;
		if (size >= 16) {
			memcpy(&probes[4], data, 8);
			memcpy(&probes[5], data + size - 8, 8);
		}
		for (int i = 0; i < 6; i++)
			pmc__perfmap_find(pm, probes[i], &name, &start, &len);
		pmc__perfmap_free(pm);
	}
	pmc__symtab_delete(st);
	return 0;
}
