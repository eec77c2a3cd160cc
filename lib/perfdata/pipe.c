// SPDX-License-Identifier: MIT
/*
 * Pipe-mode perf.data (perf record -o -, docs/sample-file.md "Pipe mode"): a stream that is
 * never sought. The 16-byte header {magic, size 16} is followed by records only: the events'
 * attrs (HEADER_ATTR), the feature sections (HEADER_FEATURE), the tracing data
 * (HEADER_TRACING_DATA), then the records of a file's data section. This file writes those
 * header records (pipe-read.c reads them); the other records are the file format's (write.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/writer.h"

#define ALIGN8(x) (((x) + 7) & ~(uint64_t)7)
#define MAX_RECORD 65535 /* a record's size is a u16 */

/* The header records of the stream, from the pipe header to the first data record. */
static int put_record(struct pmc__fbuf *b, uint32_t type, const void *body, size_t len,
		      const void *more, size_t more_len)
{
	struct perf_event_header h = {type, 0, (uint16_t)(sizeof(h) + len + more_len)};

	if (sizeof(h) + len + more_len > MAX_RECORD)
		return -E2BIG;
	pmc__fput(b, &h, sizeof(h));
	pmc__fput(b, body, len);
	pmc__fput(b, more, more_len);
	return 0;
}

/*
 * Tracepoints' formats, for perf script and perf report: a TRACING_DATA record whose u32 size
 * is that of the bytes after it, tracing-data.c's padded with zeros to 8 (as perf writes it).
 */
static void put_tracing_data(struct pmc__perfdata_writer *w, struct pmc__fbuf *b)
{
	static const uint8_t zero[8];
	uint64_t padded = ALIGN8((uint64_t)w->tracing_data_len);
	uint32_t body[2] = {(uint32_t)padded, 0};

	if (padded > UINT32_MAX) {
		b->oom = true;
		return;
	}
	put_record(b, PERFDATA_RECORD_HEADER_TRACING_DATA, body, sizeof(body), NULL, 0);
	pmc__fput(b, w->tracing_data, w->tracing_data_len);
	pmc__fput(b, zero, padded - w->tracing_data_len);
}

static int put_features(struct pmc__perfdata_writer *w, struct pmc__fbuf *b)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < PERFDATA_NR_WFEATS; i++) {
		uint64_t feat = (uint64_t)pmc__perfdata_wfeats[i];
		struct pmc__fbuf fb = {0};

		/* carried as records of their own (put_tracing_data, pipe_finish) */
		if (feat != PERFDATA_FEAT_TRACING_DATA && feat != PERFDATA_FEAT_BUILD_ID &&
		    pmc__perfdata_build_feature(w, (int)feat, &fb))
			ret = fb.oom ? -ENOMEM
				     : put_record(b, PERFDATA_RECORD_HEADER_FEATURE, &feat, 8, fb.p,
						  fb.len);
		free(fb.p);
	}
	return ret;
}

/*
 * Each event's name as an EVENT_UPDATE record (type 2, NAME; the event's first id): perf's
 * pipe-mode readers name events from these (a tracepoint without one is "unknown
 * tracepoint" in perf script), as perf record writes them after the features.
 */
static int put_names(struct pmc__perfdata_writer *w, struct pmc__fbuf *b)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < w->nr_attrs; i++) {
		size_t n = strlen(w->attrs[i].name);
		uint64_t body[2] = {2, w->attrs[i].nr_ids ? w->attrs[i].ids[0] : 0};
		char *name = n ? calloc(1, ALIGN8(n + 1)) : NULL; /* NUL-padded to 8 */

		if (n && !name)
			return -ENOMEM;
		if (n)
			ret = put_record(b, PERFDATA_RECORD_EVENT_UPDATE, body, sizeof(body),
					 memcpy(name, w->attrs[i].name, n), ALIGN8(n + 1));
		free(name);
	}
	return ret;
}

int pmc__perfdata_pipe_begin(struct pmc__perfdata_writer *w)
{
	const uint64_t head[2] = {PERFDATA_MAGIC2, PERFDATA_PIPE_HEADER_SIZE};
	struct pmc__fbuf b = {0};
	int ret = 0;

	pmc__fput(&b, head, sizeof(head));
	for (size_t i = 0; !ret && i < w->nr_attrs; i++)
		ret = put_record(&b, PERFDATA_RECORD_HEADER_ATTR, &w->attrs[i].attr,
				 w->attrs[i].attr.size, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
	if (!ret && w->tracing_data)
		put_tracing_data(w, &b);
	if (!ret)
		ret = put_features(w, &b);
	if (!ret)
		ret = put_names(w, &b);
	if (!ret && b.oom)
		ret = -ENOMEM;
	if (!ret)
		ret = pmc__perfdata_write_all(w->fd, b.p, b.len);
	free(b.p);
	return ret;
}

/*
 * The build ids, known at the end (the objects with samples): each BUILD_ID feature entry
 * as a HEADER_BUILD_ID record, the last records of the stream.
 */
int pmc__perfdata_pipe_finish(struct pmc__perfdata_writer *w)
{
	size_t n = pmc__perfdata_build_ids_size(&w->build_ids);
	struct perf_event_header h;
	uint8_t *p;
	int ret;

	if (!n)
		return 0;
	p = malloc(n);
	if (!p)
		return -ENOMEM;
	pmc__perfdata_build_ids_encode(&w->build_ids, p);
	for (size_t off = 0; off + sizeof(h) <= n; off += h.size) {
		memcpy(&h, p + off, sizeof(h));
		h.type = PERFDATA_RECORD_HEADER_BUILD_ID;
		memcpy(p + off, &h, sizeof(h));
	}
	ret = pmc__perfdata_write_all(w->fd, p, n);
	free(p);
	return ret;
}
