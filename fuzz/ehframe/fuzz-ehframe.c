// SPDX-License-Identifier: MIT
/* libFuzzer harness for .eh_frame function extents (pmc annotate on stripped objects): the
 * input is an ELF file, opened by libelf from memory; extents looked up around its bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/ehframe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct pmc__dw_api *dw = pmc__dw_api();
	uint64_t probes[4] = {0, 0x4000b0, 0x4000b5, UINT64_MAX}, start, end;
	char *copy;
	Elf *elf;

	if (!dw || !(copy = malloc(size ? size : 1)))
		return 0;
	dw->elf_version(EV_CURRENT); /* libdwfl would have called it: elf_memory needs it */
	memcpy(copy, data, size);
	if (size >= 8)
		memcpy(&probes[0], data + size - 8, 8);
	elf = dw->elf_memory(copy, size);
	for (int i = 0; elf && i < 4; i++)
		pmc__ehframe_range(dw, elf, probes[i], &start, &end);
	if (elf)
		dw->elf_end(elf);
	free(copy);
	return 0;
}
