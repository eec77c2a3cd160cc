// SPDX-License-Identifier: MIT
/*
 * perf record -z: the data section's PERF_RECORD_COMPRESSED records, inflated at open.
 *
 * perf compresses what it copies out of the ring buffers as one zstd stream, flushed at
 * the end of each record and never ended (tools/perf/util/zstd.c); the records' payloads,
 * decompressed in file order through one zstd stream as perf report does, are the records
 * perf would have written without -z. So a stream cut short is not an error here: its
 * records up to the cut are read, and a record cut in half is reported by next.c. At open, a file
 * with such records gets a heap copy of itself up to the data section, followed by the data section
 * with each compressed record replaced by what it inflates to; records stay in file order,
 * so the ordered replay (report.c) and every reader after open see a plain file. Offsets in
 * later errors are offsets in that copy: the same as the file's up to the first compressed
 * record.
 *
 * The bytes are untrusted (docs/security.md): every length is checked against what is left,
 * and the data inflate to at most PERFDATA_INFLATE_RATIO times their compressed size
 * (plus PERFDATA_INFLATE_SLACK), so a small file cannot ask for gigabytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "perfdata/reader.h"
#include "perfdata/zstd-api.h"

struct inflater {
	uint8_t *buf;
	size_t len, cap, limit;
	const struct pmc__zstd_api *z;
	ZSTD_DStream *ds;
};

static int reserve(struct inflater *in, size_t more)
{
	size_t cap = in->cap ? in->cap : 1 << 16;
	uint8_t *b;

	if (more > in->limit - in->len)
		return -E2BIG;
	while (cap - in->len < more)
		cap = cap > in->limit / 2 ? in->limit : cap * 2;
	if (cap == in->cap)
		return 0;
	b = realloc(in->buf, cap);
	if (!b)
		return -ENOMEM;
	in->buf = b;
	in->cap = cap;
	return 0;
}

static int append(struct inflater *in, const void *p, size_t n)
{
	int ret = reserve(in, n);

	if (!ret) {
		memcpy(in->buf + in->len, p, n);
		in->len += n;
	}
	return ret;
}

/* The payload of one compressed record: type 81's bytes after the header, or type 83's
 * (perf 6.8's COMPRESSED2) after its u64 data_size, which says how many are zstd's. */
static int payload(const uint8_t *rec, const struct perf_event_header *h, uint64_t off,
		   ZSTD_inBuffer *src, struct pmc_file_error *err)
{
	uint64_t data_size;

	if (h->type == PERFDATA_RECORD_COMPRESSED) {
		*src = (ZSTD_inBuffer){rec + sizeof(*h), h->size - sizeof(*h), 0};
		return 0;
	}
	if (h->size < sizeof(*h) + 8)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, off,
					  "compressed record of %u bytes is too short for its "
					  "16-byte header",
					  h->size);
	memcpy(&data_size, rec + sizeof(*h), 8);
	if (data_size > h->size - sizeof(*h) - 8u)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, off + sizeof(*h),
					  "compressed record of %u bytes declares %llu bytes of "
					  "data",
					  h->size, (unsigned long long)data_size);
	*src = (ZSTD_inBuffer){rec + sizeof(*h) + 8, (size_t)data_size, 0};
	return 0;
}

static int inflate_record(struct inflater *in, const uint8_t *rec,
			  const struct perf_event_header *h, uint64_t off,
			  struct pmc_file_error *err)
{
	ZSTD_inBuffer src;
	ZSTD_outBuffer dst = {NULL, 0, 0};
	int ret = payload(rec, h, off, &src, err);

	/* Until the input is used up and zstd no longer fills all the room it was given. */
	while (!ret && (src.pos < src.size || dst.pos == dst.size)) {
		if ((ret = reserve(in, 1 << 16)) != 0)
			break;
		dst = (ZSTD_outBuffer){in->buf + in->len, in->cap - in->len, 0};
		size_t zret = in->z->decompress(in->ds, &dst, &src);
		if (in->z->is_error(zret))
			return pmc__perfdata_fail(err, -PMC_E_FORMAT, off,
						  "compressed record does not inflate: zstd "
						  "says '%s'",
						  in->z->error_name(zret));
		in->len += dst.pos;
	}
	if (ret == -E2BIG)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, off,
					  "compressed records inflate to more than %zu bytes, %d "
					  "times their size (a decompression bomb?)",
					  in->limit, PERFDATA_INFLATE_RATIO);
	return ret;
}

static bool is_compressed(uint32_t type)
{
	return type == PERFDATA_RECORD_COMPRESSED || type == PERFDATA_RECORD_COMPRESSED2;
}

/* Is there a compressed record among the well-formed records of the data section? */
static bool has_compressed(struct pmc__perfdata *f, uint64_t *nr_bytes)
{
	struct perf_event_header h;
	bool any = false;

	*nr_bytes = 0;
	for (uint64_t pos = f->pos, len; f->data_end - pos >= sizeof(h); pos += len) {
		memcpy(&h, f->buf + pos, sizeof(h));
		len = pmc__perfdata_rec_len(f, pos, &h);
		if (h.size < sizeof(h) || len > f->data_end - pos)
			break; /* next.c says what is wrong, where */
		if (is_compressed(h.type)) {
			any = true;
			*nr_bytes += h.size;
		}
		pmc__perfdata_release_behind(f, pos);
	}
	f->released = 0; /* the records are read again from the start */
	return any;
}

static int inflate_all(struct pmc__perfdata *f, struct inflater *in, struct pmc_file_error *err)
{
	struct perf_event_header h;
	uint64_t pos = f->pos;
	int ret = append(in, f->buf, (size_t)f->pos);

	for (uint64_t len; !ret && f->data_end - pos >= sizeof(h); pos += len) {
		memcpy(&h, f->buf + pos, sizeof(h));
		len = pmc__perfdata_rec_len(f, pos, &h);
		if (h.size < sizeof(h) || len > f->data_end - pos)
			break;
		if (is_compressed(h.type))
			ret = inflate_record(in, f->buf + pos, &h, pos, err);
		else
			ret = append(in, f->buf + pos, len);
	}
	/* What is left (a malformed record, a cut tail) is kept for next.c to report. */
	if (!ret)
		ret = append(in, f->buf + pos, (size_t)(f->data_end - pos));
	if (ret == -ENOMEM || ret == -E2BIG)
		ret = pmc__perfdata_fail(err, ret == -E2BIG ? -PMC_E_FORMAT : -ENOMEM, pos,
					 "cannot hold the inflated records (%zu bytes)", in->len);
	return ret;
}

int pmc__perfdata_inflate(struct pmc__perfdata *f, struct pmc_file_error *err)
{
	struct inflater in = {0};
	uint64_t nr_bytes;
	const char *why = "";
	int ret;

	if (!has_compressed(f, &nr_bytes))
		return 0;
	in.z = pmc__zstd_api(&why);
	if (!in.z)
		return pmc__perfdata_fail(err, -ENOSYS, f->pos,
					  "the file has compressed records (perf record -z), and "
					  "libzstd cannot be loaded (%s): install libzstd1",
					  why);
	in.ds = in.z->create();
	if (!in.ds || in.z->is_error(in.z->init(in.ds))) {
		if (in.ds)
			in.z->free(in.ds);
		return -ENOMEM;
	}
	in.limit = f->data_end - nr_bytes;
	if (nr_bytes > (SIZE_MAX - in.limit - PERFDATA_INFLATE_SLACK) / PERFDATA_INFLATE_RATIO)
		in.limit = SIZE_MAX;
	else
		in.limit += nr_bytes * PERFDATA_INFLATE_RATIO + PERFDATA_INFLATE_SLACK;
	ret = inflate_all(f, &in, err);
	in.z->free(in.ds);
	if (ret) {
		free(in.buf);
		return ret;
	}
	f->file_buf = f->buf;
	f->file_len = f->len;
	f->inflated = in.buf;
	f->buf = in.buf;
	f->len = in.len;
	f->data_end = in.len;
	return 0;
}
