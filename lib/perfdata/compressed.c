// SPDX-License-Identifier: MIT
/*
 * perf record -z: the data section's PERF_RECORD_COMPRESSED records, inflated as they are read.
 *
 * perf compresses what it copies out of the ring buffers as one zstd stream, flushed at
 * the end of each record and never ended (tools/perf/util/zstd.c); the records' payloads,
 * decompressed in file order through one zstd stream as perf report does, are the records
 * perf would have written without -z. So a stream cut short is not an error here: its
 * records up to the cut are read, and a record cut in half is reported by next.c.
 *
 * The records are read from the *inflated data*: the data section with each compressed record
 * replaced by what it inflates to, records in file order, at offsets that are the file's up to
 * the first compressed record. next.c asks for its bytes (pmc__perfdata_zstream_get) and this
 * file inflates them then, into a window that holds the inflated data from the oldest record
 * the reader's user still holds (pmc__perfdata_keep) or the record being read, to what was
 * inflated: the window is compacted when half of it is behind that, so each byte is moved at
 * most about once and the work is linear in the inflated size. What is resident is the window,
 * not the inflated data (which was held whole until 2026: 1.2 GB for a 5.9 MB file).
 *
 * The bytes are untrusted (docs/security.md): every length is checked against what is left,
 * and the data inflate to at most PERFDATA_INFLATE_RATIO times their compressed size
 * (plus PERFDATA_INFLATE_SLACK), which bounds the work a small file can ask for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "perfdata/reader.h"
#include "perfdata/zstd-api.h"

#define CHUNK ((size_t)1 << 16)	     /* bytes inflated or copied at a time */
#define WINDOW_MIN ((size_t)1 << 18) /* the window is not shrunk below this */

struct pmc__perfdata_zstream {
	const struct pmc__zstd_api *z;
	ZSTD_DStream *ds;
	uint64_t src;		 /* the file's next record to read */
	uint64_t raw, raw_end;	 /* file bytes being copied as they are (plain records) */
	ZSTD_inBuffer in;	 /* the compressed record being inflated */
	uint64_t in_off;	 /* its offset in the file */
	bool inflating, pending; /* in a compressed record; zstd may hold more of its output */
	bool done;		 /* every byte of the data section was read */
	bool checking;		 /* the first pass, at open: plain bytes are not copied */
	uint8_t *win;
	size_t cap;
	uint64_t base, end; /* the inflated data's offsets of win[0] and past its last byte */
	uint64_t keep;	    /* the user asks for no record before this again */
	uint64_t total, limit;
	int failed; /* an error, said again to a reader that reads on (fail) */
	struct pmc_file_error fail;
};

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

static bool is_compressed(uint32_t type)
{
	return type == PERFDATA_RECORD_COMPRESSED || type == PERFDATA_RECORD_COMPRESSED2;
}

/*
 * Room for CHUNK more bytes after the window's end. Bytes before from (the oldest the user
 * holds, or the record being read) are dropped when they are half the window; the window
 * grows by half when that is not enough, and shrinks when it is four times what it holds.
 */
static int make_room(struct pmc__perfdata_zstream *zs, uint64_t from)
{
	size_t used = (size_t)(zs->end - zs->base), cap = zs->cap, drop = 0;
	uint8_t *w;

	if (cap - used >= CHUNK)
		return 0;
	if (from > zs->base) /* by a multiple of 8: records keep their alignment */
		drop = (size_t)((from - zs->base) & ~(uint64_t)7);
	if (drop && drop >= cap / 2) {
		memmove(zs->win, zs->win + drop, used - drop);
		zs->base += drop;
		used -= drop;
	}
	while (cap - used < CHUNK)
		cap = cap < WINDOW_MIN ? WINDOW_MIN : cap + cap / 2;
	if (cap == zs->cap && (used + CHUNK) * 4 >= cap)
		return 0;
	if ((used + CHUNK) * 4 < cap)
		cap = (used + CHUNK) * 2 > WINDOW_MIN ? (used + CHUNK) * 2 : WINDOW_MIN;
	w = realloc(zs->win, cap);
	if (!w)
		return -ENOMEM;
	zs->win = w;
	zs->cap = cap;
	return 0;
}

/* The limit reached: said as the whole-file inflater said it, with the record's offset. */
static int bomb(const struct pmc__perfdata_zstream *zs, uint64_t off, struct pmc_file_error *err)
{
	return pmc__perfdata_fail(
		err, -PMC_E_FORMAT, off,
		"compressed records inflate to more than %llu bytes, %d times their "
		"size (a decompression bomb?)",
		(unsigned long long)zs->limit, PERFDATA_INFLATE_RATIO);
}

/* Some bytes of the compressed record being read, inflated to the window's end. */
static int inflate_some(struct pmc__perfdata_zstream *zs, struct pmc_file_error *err)
{
	size_t room = zs->cap - (size_t)(zs->end - zs->base), zret;
	ZSTD_outBuffer dst;

	if (zs->limit - zs->total < room)
		room = (size_t)(zs->limit - zs->total);
	if (!room)
		return bomb(zs, zs->in_off, err);
	dst = (ZSTD_outBuffer){zs->win + (zs->end - zs->base), room, 0};
	zret = zs->z->decompress(zs->ds, &dst, &zs->in);
	if (zs->z->is_error(zret))
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, zs->in_off,
					  "compressed record does not inflate: zstd says '%s'",
					  zs->z->error_name(zret));
	zs->end += dst.pos;
	zs->total += dst.pos;
	/* Until the input is used up and zstd no longer fills all the room it was given. */
	zs->pending = dst.pos == dst.size;
	zs->inflating = zs->in.pos < zs->in.size || zs->pending;
	return 0;
}

/* Some bytes of a plain record (or of what follows a malformed one), copied. */
static void copy_some(struct pmc__perfdata *f, struct pmc__perfdata_zstream *zs)
{
	size_t room = zs->cap - (size_t)(zs->end - zs->base);
	size_t n = zs->raw_end - zs->raw < room ? (size_t)(zs->raw_end - zs->raw) : room;

	memcpy(zs->win + (zs->end - zs->base), f->buf + zs->raw, n);
	zs->raw += n;
	zs->end += n;
	zs->total += n;
}

/* The file's next record: a compressed one to inflate, or bytes to copy as they are. */
static int next_source(struct pmc__perfdata *f, struct pmc__perfdata_zstream *zs,
		       struct pmc_file_error *err)
{
	struct perf_event_header h;
	uint64_t len, pos = zs->src;

	/* What is left after a malformed record is copied for next.c to report. */
	len = f->data_end - pos;
	if (len >= sizeof(h)) {
		memcpy(&h, f->buf + pos, sizeof(h));
		if (h.size >= sizeof(h) && h.size <= len &&
		    pmc__perfdata_rec_len(f, f->buf + pos, &h) <= len)
			len = pmc__perfdata_rec_len(f, f->buf + pos, &h);
		if (len == h.size && is_compressed(h.type)) {
			zs->src += len;
			zs->in_off = pos;
			zs->inflating = !payload(f->buf + pos, &h, pos, &zs->in, err);
			return zs->inflating ? 0 : -PMC_E_FORMAT;
		}
	}
	zs->src += len;
	zs->raw = pos;
	zs->raw_end = pos + len;
	zs->done = zs->src == f->data_end;
	return 0;
}

/* More inflated data at the window's end, keeping from on; or done. */
static int refill(struct pmc__perfdata *f, struct pmc__perfdata_zstream *zs, uint64_t from,
		  struct pmc_file_error *err)
{
	int ret = 0;

	if (!zs->inflating && zs->raw == zs->raw_end)
		ret = next_source(f, zs, err);
	if (!ret && (zs->inflating || zs->raw < zs->raw_end)) {
		ret = make_room(zs, from);
		if (ret)
			return pmc__perfdata_fail(err, ret, zs->src,
						  "cannot hold the inflated records (%llu bytes)",
						  (unsigned long long)(zs->end - from));
		if (zs->inflating)
			return inflate_some(zs, err);
		if (!zs->checking)
			copy_some(f, zs);
		else
			zs->total += zs->raw_end - zs->raw, zs->raw = zs->raw_end;
	}
	return ret;
}

int pmc__perfdata_zstream_get(struct pmc__perfdata *f, uint64_t off, uint64_t want,
			      const uint8_t **p, uint64_t *left, struct pmc_file_error *err)
{
	struct pmc__perfdata_zstream *zs = f->zs;
	uint64_t from = zs->keep < off ? zs->keep : off;
	int ret = zs->failed;

	while (!ret && zs->end - off < want && !(zs->done && zs->raw == zs->raw_end))
		ret = refill(f, zs, from, err);
	*p = zs->win ? zs->win + (off - zs->base) : NULL;
	*left = zs->end - off;
	pmc__perfdata_release_behind(f, zs->src);
	if (ret && !zs->failed) {
		zs->failed = ret;
		if (err)
			zs->fail = *err;
	} else if (ret && err) {
		*err = zs->fail;
	}
	return ret;
}

const uint8_t *pmc__perfdata_zstream_at(const struct pmc__perfdata *f, uint64_t off)
{
	return f->zs->win + (off - f->zs->base);
}

void pmc__perfdata_keep(struct pmc__perfdata *f, uint64_t offset)
{
	if (f->zs)
		f->zs->keep = offset;
}

uint64_t pmc__perfdata_hold_max(const struct pmc__perfdata *f)
{
	return f->zs ? PERFDATA_HOLD_MAX : UINT64_MAX;
}

void pmc__perfdata_zstream_free(struct pmc__perfdata_zstream *zs)
{
	if (!zs)
		return;
	if (zs->ds)
		zs->z->free(zs->ds);
	free(zs->win);
	free(zs);
}

/* Is there a compressed record among the well-formed records of the data section? */
static bool has_compressed(struct pmc__perfdata *f, uint64_t *nr_bytes)
{
	struct perf_event_header h;
	bool any = false;

	*nr_bytes = 0;
	for (uint64_t pos = f->pos, len; f->data_end - pos >= sizeof(h); pos += len) {
		memcpy(&h, f->buf + pos, sizeof(h));
		if (h.size < sizeof(h) || h.size > f->data_end - pos)
			break; /* next.c says what is wrong, where */
		len = pmc__perfdata_rec_len(f, f->buf + pos, &h);
		if (len > f->data_end - pos)
			break;
		if (is_compressed(h.type)) {
			any = true;
			*nr_bytes += h.size;
		}
		pmc__perfdata_release_behind(f, pos);
	}
	f->released = 0; /* the records are read again from the start */
	return any;
}

/* Back at the start of the data section, nothing inflated. */
static int rewind_stream(const struct pmc__perfdata *f, struct pmc__perfdata_zstream *zs)
{
	zs->total = f->pos;
	zs->src = zs->raw = zs->raw_end = f->pos;
	zs->base = zs->end = f->pos;
	zs->keep = UINT64_MAX;
	zs->inflating = zs->pending = false;
	zs->done = f->pos == f->data_end;
	return zs->z->is_error(zs->z->init(zs->ds)) ? -ENOMEM : 0;
}

/*
 * The whole data section inflated once at open, each window dropped as soon as it is made,
 * then rewound: a file that does not inflate, or inflates past the limit, is refused before
 * its first record is read, as when it was inflated whole at open.
 */
static int check(struct pmc__perfdata *f, struct pmc__perfdata_zstream *zs,
		 struct pmc_file_error *err)
{
	int ret = rewind_stream(f, zs);

	zs->checking = true;
	while (!ret && !(zs->done && zs->raw == zs->raw_end)) {
		ret = refill(f, zs, zs->end, err);
		pmc__perfdata_release_behind(f, zs->src);
	}
	zs->checking = false;
	f->released = 0; /* the records are read again from the start */
	return ret ? ret : rewind_stream(f, zs);
}

int pmc__perfdata_inflate(struct pmc__perfdata *f, struct pmc_file_error *err)
{
	struct pmc__perfdata_zstream *zs;
	const struct pmc__zstd_api *z;
	uint64_t nr_bytes, plain;
	const char *why = "";

	if (!has_compressed(f, &nr_bytes))
		return 0;
	z = pmc__zstd_api(&why);
	if (!z)
		return pmc__perfdata_fail(err, -ENOSYS, f->pos,
					  "the file has compressed records (perf record -z), and "
					  "libzstd cannot be loaded (%s): install libzstd1",
					  why);
	zs = calloc(1, sizeof(*zs));
	if (!zs)
		return -ENOMEM;
	zs->z = z;
	zs->ds = z->create();
	if (!zs->ds || z->is_error(z->init(zs->ds))) {
		pmc__perfdata_zstream_free(zs);
		return -ENOMEM;
	}
	/* The bytes before the data section count, as when the inflated file was held whole. */
	plain = f->data_end - nr_bytes;
	zs->limit =
		nr_bytes > (UINT64_MAX - plain - PERFDATA_INFLATE_SLACK) / PERFDATA_INFLATE_RATIO
			? UINT64_MAX
			: plain + nr_bytes * PERFDATA_INFLATE_RATIO + PERFDATA_INFLATE_SLACK;
	f->zs = zs;
	return check(f, zs, err);
}
