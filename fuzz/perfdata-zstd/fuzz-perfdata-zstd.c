// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for perf record -z files' compressed records (lib/perfdata/compressed.c).
 * Random bytes rarely make a whole perf.data header, so the harness makes it: one attr
 * (a sample of ip, tid, time and period), then a data section whose records come from the
 * input, each [u8 kind][u16 length][length bytes]: kind 0 a PERF_RECORD_COMPRESSED (81) with
 * those bytes as its zstd payload, 1 a COMPRESSED2 (83, a data_size from the input), 2 the
 * bytes as a plain record. The file is opened (which inflates), iterated and every sample
 * decoded. Seeds: zstd frames of real records (corpus/).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HDR_SIZE sizeof(struct perfdata_file_header)
#define ATTR_ENTRY (sizeof(struct perf_event_attr) + 16)

static size_t head(uint8_t *buf)
{
	struct perfdata_file_header h = {
		.magic = PERFDATA_MAGIC2,
		.size = HDR_SIZE,
		.attr_size = ATTR_ENTRY,
		.attrs = {HDR_SIZE, ATTR_ENTRY},
		.data = {HDR_SIZE + ATTR_ENTRY, 0},
	};
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000,
		.sample_type =
			PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
	};

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + HDR_SIZE, &a, sizeof(a));
	memset(buf + HDR_SIZE + sizeof(a), 0, 16); /* no ids */
	return HDR_SIZE + ATTR_ENTRY;
}

/* Appends the input's records; returns the data section's size. */
static size_t records(const uint8_t *data, size_t size, uint8_t *out)
{
	size_t n = 0;

	while (size >= 3) {
		uint8_t kind = data[0] % 3;
		uint16_t len;
		struct perf_event_header h = {kind == 1 ? 83 : 81, 0, 0};
		size_t extra = kind == 1 ? 8 : 0, hl;

		memcpy(&len, data + 1, 2);
		data += 3, size -= 3;
		if (len > size)
			len = (uint16_t)size;
		hl = kind == 2 ? 0 : sizeof(h) + extra;
		if (hl + len > UINT16_MAX)
			len = (uint16_t)(UINT16_MAX - hl);
		if (kind != 2) {
			h.size = (uint16_t)(hl + len);
			memcpy(out + n, &h, sizeof(h));
			if (extra) { /* data_size: the input's first byte decides over or under */
				uint64_t ds =
					len ? (uint64_t)len - (data[0] & 1) + (data[0] & 2) : 0;
				memcpy(out + n + sizeof(h), &ds, 8);
			}
		}
		memcpy(out + n + hl, data, len);
		n += hl + len;
		data += len, size -= len;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc__perfdata *f;
	struct pmc__perfdata_event ev;
	struct pmc_file_error err;
	/* Each input byte becomes at most one byte, plus at most 16 per 3 bytes of framing. */
	uint8_t *buf = malloc(HDR_SIZE + ATTR_ENTRY + size * 7 + 8);
	struct perfdata_file_header *h = (struct perfdata_file_header *)buf;
	size_t off, n;

	if (!buf)
		return 0;
	off = head(buf);
	n = records(data, size, buf + off);
	h->data.size = n ? n : 1; /* 0 would mean an interrupted recording: read to the end */
	if (!n)
		buf[off++] = 0;
	if (pmc__perfdata_open_mem(buf, off + n, &f, &err) == 0) {
		while (pmc__perfdata_next(f, &ev, &err) == 1) {
			struct pmc__sample s;
			if (ev.hdr->type == PERF_RECORD_SAMPLE)
				pmc__perfdata_sample(f, &ev, &s, &err);
		}
		pmc__perfdata_close(f);
	}
	free(buf);
	return 0;
}
