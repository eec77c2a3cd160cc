// SPDX-License-Identifier: MIT
/* libFuzzer harness: the vpmu --out-fd stream, summed for counting and converted for sampling. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/log.h>
#include "backend/vpmu/sample.h"
#include "backend/vpmu/vpmu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The sample_type bits sample.c lets through to the converter. */
#define ALL_TYPES                                                                       \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |  \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |        \
	 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)

/* attrs[0] asks for every field the converter fills (the largest records), attrs[1] little. */
static const struct perf_event_attr attrs[2] = {
	{.sample_type = ALL_TYPES,
	 .sample_id_all = 1,
	 .sample_regs_user = 0xffffff,
	 .sample_regs_intr = 0xffffff,
	 .branch_sample_type = ~0ull},
	{.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID},
};
static const uint64_t ids[2] = {1, 2};

static int sink(const void *rec, size_t len, void *arg)
{
	if (len > CONV_MAX_RECORD || len % 8 ||
	    ((const struct perf_event_header *)rec)->size != len)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vpmu_conv cv = {.attrs = attrs,
			       .ids = ids,
			       .side_id = 1,
			       .sink = sink,
			       .attr_of_ctr = {0, 1, -1, -1, 0, 1, -1, -1}};
	struct vpmu_counting vc = {.rd_fd = -1, .wake_fd = {-1, -1}, .ctr_used = {true}};
	size_t off = 0;

	pmc_set_print(NULL);
	vc.stream = malloc(size ? size : 1); /* exact size: ASan sees a read past the stream */
	if (!vc.stream)
		return 0;
	memcpy(vc.stream, data, size);
	vc.stream_len = size;
	/* The framing of sample.c's convert_buffered(): whole, well-formed records. */
	while (size - off >= sizeof(struct vpmu_hdr)) {
		const struct vpmu_hdr *h = (const void *)(vc.stream + off);

		if (h->magic != VPMU_MAGIC_RECORD || h->version != VPMU_PROTO_VERSION ||
		    h->size < sizeof(*h) || h->size % 8 || h->size > size - off)
			break;
		pmc__vpmu_convert(&cv, h);
		off += h->size;
	}
	pmc__vpmu_heap_free(&cv); /* as pmc__vpmu_sample_close() frees its converter's */
	pmc__vpmu_stream_finish(&vc);
	pmc__vpmu_stream_close(&vc);
	return 0;
}
