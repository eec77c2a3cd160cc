// SPDX-License-Identifier: MIT
/* libFuzzer harness for the perf.data reader: open, iterate, decode every sample. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc__perfdata *f;
	struct pmc__perfdata_event ev;
	struct pmc_file_error err;
	/* A private copy: the reader may keep pointers into the buffer while it is open. */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (pmc__perfdata_open_mem(copy, size, &f, &err) == 0) {
		while (pmc__perfdata_next(f, &ev, &err) == 1) {
			struct pmc__sample s;
			if (ev.hdr->type == PERF_RECORD_SAMPLE)
				pmc__perfdata_sample(f, &ev, &s, &err);
			else if (ev.hdr->type < 64)
				pmc__sample_decode_id(pmc__perfdata_attr(f, ev.attr_idx), ev.hdr,
						      ev.hdr->size, &s);
		}
		pmc__perfdata_close(f);
	}
	free(copy);
	return 0;
}
