// SPDX-License-Identifier: MIT
/* libFuzzer harness for GNU build ids (symbol/buildid.h): the input is an ELF image whose
 * PT_NOTE segments are walked, and, as it stands, a notes blob as /sys/kernel/notes holds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/buildid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char hex[PMC_BUILD_ID_HEX];
	/* an aligned copy: the image is mapped (page-aligned) when pmc reads an object */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!pmc__build_id_of_image(copy, size, hex) && strlen(hex) > 40)
		abort();
	if (!pmc__build_id_of_notes(copy, size, hex) && strlen(hex) > 40)
		abort();
	free(copy);
	return 0;
}
