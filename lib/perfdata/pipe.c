// SPDX-License-Identifier: MIT
/*
 * Pipe-mode perf.data (perf record -o -, docs/sample-file.md "Pipe mode"): a stream that is
 * never sought. The 16-byte header {magic, size 16} is followed by records only: the events'
 * attrs (HEADER_ATTR), the feature sections (HEADER_FEATURE), the tracing data
 * (HEADER_TRACING_DATA), then the records of a file's data section. This file writes and
 * reads those header records; the other records are the file format's (write.c, next.c).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <pmc/error.h>
#include "perfdata/reader.h"
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

int pmc__perfdata_writer_round(struct pmc__perfdata_writer *w, bool round)
{
	static const struct perf_event_header rec = {PERFDATA_RECORD_FINISHED_ROUND, 0, 8};
	struct pollfd p = {.fd = w->fd};
	int ret = round ? pmc__perfdata_writer_write(w, &rec, sizeof(rec)) : 0;

	if (ret || !w->pipe)
		return ret;
	/* A pipe or FIFO whose reader closed it polls POLLERR: found even when idle. */
	if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR))
		return -EPIPE;
	return round ? pmc__perfdata_writer_flush(w) : 0;
}

/*
 * The buffer is an anonymous mapping grown by mremap(2): growing moves no bytes (a realloc
 * that copies held the old and new buffers at once: 281 MiB of peak for a 96 MB stream, 115
 * MiB for the same file mapped), and pages past the end are never touched.
 */
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

int pmc__perfdata_read_stream(int fd, uint8_t **out, size_t *len, size_t *cap)
{
	size_t n = 0, c = (size_t)1 << 20;
	uint8_t *buf = mmap(NULL, c, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ret = 0;

	if (buf == MAP_FAILED)
		return -ENOMEM;
	for (;;) {
		ssize_t got = read(fd, buf + n, c - n);
		void *p;
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			ret = got < 0 ? -errno : 0;
			break;
		}
		n += (size_t)got;
		if (n < c)
			continue;
		p = c > SIZE_MAX / 2 ? MAP_FAILED : mremap(buf, c, c * 2, MREMAP_MAYMOVE);
		if (p == MAP_FAILED) {
			ret = -ENOMEM;
			break;
		}
		buf = p;
		c *= 2;
	}
	if (ret) {
		munmap(buf, c);
		return ret;
	}
	*out = buf;
	*len = n;
	*cap = c;
	return 0;
}

uint64_t pmc__perfdata_rec_len(const struct pmc__perfdata *f, const uint8_t *rec,
			       const struct perf_event_header *h)
{
	uint32_t size;

	if (!f->pipe || h->type != PERFDATA_RECORD_HEADER_TRACING_DATA || h->size < 12)
		return h->size;
	memcpy(&size, rec + 8, 4);
	return h->size + ALIGN8((uint64_t)size);
}

/* HEADER_ATTR: the attr (attr.size bytes; 0 means the first version's 64), then its ids. */
static int pipe_attr(struct pmc__perfdata *f, uint64_t off, const struct perf_event_header *h,
		     struct pmc_file_error *err)
{
	uint32_t asz;
	struct perfdata_section ids;

	if (h->size < 8 + PERF_ATTR_SIZE_VER0)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, off,
					  "attr record of %u bytes is too short for an attr",
					  h->size);
	memcpy(&asz, f->buf + off + 8 + offsetof(struct perf_event_attr, size), 4);
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz < PERF_ATTR_SIZE_VER0 || asz % 8 || asz > h->size - 8u)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, off + 12,
					  "attr of %u bytes in an attr record of %u bytes", asz,
					  h->size);
	ids = (struct perfdata_section){off + 8 + asz, ((h->size - 8u - asz) / 8) * 8};
	return pmc__perfdata_add_attr(f, off + 8, asz, &ids, err);
}

static int pipe_record(struct pmc__perfdata *f, uint64_t off, const struct perf_event_header *h,
		       struct pmc_file_error *err)
{
	struct perfdata_section s = {off + 16, h->size >= 16 ? h->size - 16u : 0};
	uint64_t feat;

	switch (h->type) {
	case PERFDATA_RECORD_HEADER_ATTR:
		return pipe_attr(f, off, h, err);
	case PERFDATA_RECORD_HEADER_BUILD_ID: /* one entry of the BUILD_ID feature */
		s = (struct perfdata_section){off, h->size};
		return pmc__perfdata_read_feature(f, PERFDATA_FEAT_BUILD_ID, &s, err);
	case PERFDATA_RECORD_HEADER_FEATURE:
		if (h->size < 16)
			return pmc__perfdata_fail(err, -PMC_E_FORMAT, off,
						  "feature record of %u bytes", h->size);
		memcpy(&feat, f->buf + off + 8, 8);
		return feat < PERFDATA_FEAT_BITS ? pmc__perfdata_read_feature(f, (int)feat, &s, err)
						 : 0;
	}
	return 0;
}

/*
 * The header records are read wherever they are (perf writes them first, and build ids
 * last); the data section is the whole stream after the pipe header, and the readers of
 * records skip the header records by type. A cut stream is read up to its cut.
 */
int pmc__perfdata_pipe_open(struct pmc__perfdata *f, struct pmc_file_error *err)
{
	uint64_t off = PERFDATA_PIPE_HEADER_SIZE;
	struct perf_event_header h;
	int ret = 0;

	f->pipe = true;
	f->h.data = (struct perfdata_section){off, f->len - off};
	while (!ret && f->len - off >= sizeof(h)) {
		uint64_t len;
		memcpy(&h, f->buf + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > f->len - off)
			break; /* next.c says what is wrong, where */
		len = pmc__perfdata_rec_len(f, f->buf + off, &h);
		if (len > f->len - off)
			break;
		ret = pipe_record(f, off, &h, err);
		off += len;
	}
	if (!ret && !f->nr_attrs)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, PERFDATA_PIPE_HEADER_SIZE,
					  "pipe-mode stream has no attr record (type 64) before "
					  "offset %llu",
					  (unsigned long long)off);
	return ret ? ret : pmc__perfdata_check_sample_types(f, err);
}
