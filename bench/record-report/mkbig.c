// SPDX-License-Identifier: MIT
/*
 * Builds a large perf.data for the report benchmark: a recording's samples repeated K times,
 * each repeat shifted later in time and keeping its FINISHED_ROUNDs, as a longer recording
 * of the same program would be.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/perfdata.h"

/* Where a sample's time is: after the identifier, ip and pid/tid words (docs/sample-file.md). */
static size_t time_offset(const struct perf_event_attr *a)
{
	if (!(a->sample_type & PERF_SAMPLE_TIME))
		return 0;
	return 8 + 8 * (size_t)__builtin_popcountll(
			       a->sample_type &
			       (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID));
}

/* The span of the samples' times, so that repeats follow one another. */
static uint64_t time_span(struct pmc__perfdata *f, size_t toff)
{
	struct pmc__perfdata_event ev;
	struct pmc_file_error err;
	uint64_t t, lo = UINT64_MAX, hi = 0;

	while (toff && pmc__perfdata_next(f, &ev, &err) == 1) {
		if (ev.hdr->type != PERF_RECORD_SAMPLE || ev.hdr->size < toff + 8)
			continue;
		memcpy(&t, (const char *)ev.hdr + toff, 8);
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	return hi >= lo ? hi - lo + 1 : 0;
}

int main(int argc, char **argv)
{
	static uint64_t buf[65536 / 8];
	struct pmc__perfdata *f;
	struct pmc__perfdata_writer *w;
	struct pmc__perfdata_event ev;
	struct pmc_file_error err;
	long k = argc > 3 ? atol(argv[3]) : 0;
	size_t toff;
	uint64_t span;

	if (argc < 4 || pmc__perfdata_open(argv[1], &f, &err)) {
		fprintf(stderr, "usage: mkbig IN OUT K (one event per file)\n");
		return 2;
	}
	toff = time_offset(pmc__perfdata_attr(f, 0));
	span = time_span(f, toff);
	if (pmc__perfdata_writer_new(argv[2], &w) ||
	    pmc__perfdata_writer_add_attr(w, pmc__perfdata_attr(f, 0),
					  pmc__perfdata_attr_name(f, 0), NULL, 0) ||
	    pmc__perfdata_writer_begin(w))
		return 1;
	for (long pass = 0; pass < k; pass++) {
		pmc__perfdata_close(f);
		if (pmc__perfdata_open(argv[1], &f, &err))
			return 1;
		while (pmc__perfdata_next(f, &ev, &err) == 1) {
			uint64_t t;
			if (pass && ev.hdr->type != PERF_RECORD_SAMPLE &&
			    ev.hdr->type != PERFDATA_RECORD_FINISHED_ROUND)
				continue;
			memcpy(buf, ev.hdr, ev.hdr->size);
			if (pass && toff && ev.hdr->type == PERF_RECORD_SAMPLE &&
			    ev.hdr->size >= toff + 8) {
				memcpy(&t, (char *)buf + toff, 8);
				t += (uint64_t)pass * span;
				memcpy((char *)buf + toff, &t, 8);
			}
			if (pmc__perfdata_writer_write(w, buf, ev.hdr->size))
				return 1;
		}
	}
	if (pmc__perfdata_writer_finish(w))
		return 1;
	pmc__perfdata_writer_delete(w);
	pmc__perfdata_close(f);
	return 0;
}
