// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the perf.data reader: open, iterate, decode every sample and side-band
 * record (records.h), and replay them again in time order through the ordered-events queue.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/ordered.h"
#include "perfdata/records.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int decode(void *arg, const struct pmc__perfdata_event *ev, struct pmc_file_error *err)
{
	struct pmc__perfdata *f = arg;
	struct pmc__sample s;
	struct pmc__record r;

	if (ev->hdr->type == PERF_RECORD_SAMPLE)
		pmc__perfdata_sample(f, ev, &s, err);
	else if (ev->hdr->type < PERFDATA_RECORD_HEADER_ATTR)
		pmc__perfdata_record(f, ev, &r, err);
	return 0;
}

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
		struct pmc__ordered q;
		pmc__ordered_init(&q, f, decode, f);
		while (pmc__perfdata_next(f, &ev, &err) == 1 && !decode(f, &ev, &err))
			if (pmc__ordered_queue(&q, &ev, &err))
				break;
		pmc__ordered_drain(&q, &err);
		pmc__ordered_free(&q);
		pmc__perfdata_close(f);
	}
	free(copy);
	return 0;
}
