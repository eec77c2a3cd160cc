// SPDX-License-Identifier: MIT
/* Iterating the records of a perf.data data section and finding each record's event. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <pmc/error.h>
#include "perfdata/reader.h"
#include "perfdata/records.h"

static int find_id(const struct pmc__perfdata *f, uint64_t id, size_t *idx)
{
	size_t lo = 0, hi = f->nr_idmap;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->idmap[mid].id == id) {
			*idx = f->idmap[mid].idx;
			return 0;
		}
		if (f->idmap[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The event a record belongs to: from its id when there are several events. */
static int record_attr(const struct pmc__perfdata *f, const struct perf_event_header *h,
		       uint64_t off, size_t *idx, struct pmc_file_error *err)
{
	const uint8_t *p = (const uint8_t *)h;
	uint64_t id;

	*idx = 0;
	if (f->nr_attrs == 1 || h->type >= PERFDATA_RECORD_HEADER_ATTR)
		return 0;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (sizeof(*h) + (size_t)(f->id_pos + 1) * 8 > h->size)
			return pmc__perfdata_fail(err, -PMC_E_FORMAT, off,
						  "sample of %u bytes is too short to carry its "
						  "event id",
						  h->size);
		memcpy(&id, p + sizeof(*h) + (size_t)f->id_pos * 8, 8);
	} else if (f->attrs[0].sample_id_all &&
		   (f->attrs[0].sample_type & PERF_SAMPLE_IDENTIFIER) && h->size >= 16) {
		memcpy(&id, p + h->size - 8, 8);
	} else {
		return 0; /* side-band without an id: decoded with the first event's layout */
	}
	if (find_id(f, id, idx) == 0)
		return 0;
	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	return pmc__perfdata_fail(err, -PMC_E_FORMAT, off,
				  "sample carries event id %llu, which no event in the attrs "
				  "section has",
				  (unsigned long long)id);
}

/*
 * The data at f->pos, at least want bytes unless they end before: *left says how many there
 * are (all that is left when fewer). A file's are in its buffer; inflated data are inflated
 * now (compressed.c), and *p is valid until the next call.
 */
static int data_at(struct pmc__perfdata *f, uint64_t want, const uint8_t **p, uint64_t *left,
		   struct pmc_file_error *err)
{
	if (f->zs)
		return pmc__perfdata_zstream_get(f, f->pos, want, p, left, err);
	*p = f->buf + f->pos;
	*left = f->data_end - f->pos;
	return 0;
}

int pmc__perfdata_next(struct pmc__perfdata *f, struct pmc__perfdata_event *ev,
		       struct pmc_file_error *err)
{
	struct perf_event_header h;
	const uint8_t *p;
	uint64_t left, len;
	int ret = data_at(f, sizeof(h), &p, &left, err);

	if (ret || !left)
		return ret;
	if (left < sizeof(h))
		return pmc__perfdata_fail(err, -PMC_E_TRUNCATED, f->pos,
					  "data ends inside a record header: %llu of 8 bytes",
					  (unsigned long long)left);
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h))
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, f->pos,
					  "record of type %u declares %u bytes, fewer than its "
					  "8-byte header",
					  h.type, h.size);
	if ((ret = data_at(f, h.size, &p, &left, err)) != 0)
		return ret;
	if (h.size > left)
		return pmc__perfdata_fail(err, -PMC_E_TRUNCATED, f->pos,
					  "record of type %u declares %u bytes but the data "
					  "section has %llu left",
					  h.type, h.size, (unsigned long long)left);
	if (h.type == PERFDATA_RECORD_COMPRESSED || h.type == PERFDATA_RECORD_COMPRESSED2)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, f->pos,
					  "a compressed record inside compressed data");
	len = pmc__perfdata_rec_len(f, p, &h);
	if (len > left && (ret = data_at(f, len, &p, &left, err)) != 0)
		return ret;
	if (len > left)
		return pmc__perfdata_fail(err, -PMC_E_TRUNCATED, f->pos,
					  "tracing data of %llu bytes but the stream has %llu left",
					  (unsigned long long)(len - h.size),
					  (unsigned long long)(left - h.size));
	if ((uintptr_t)p % 8) {
		memcpy(f->scratch, p, h.size);
		p = (const uint8_t *)f->scratch;
	}
	ev->hdr = (const struct perf_event_header *)p;
	ev->offset = f->pos;
	if (record_attr(f, ev->hdr, f->pos, &ev->attr_idx, err))
		return -PMC_E_FORMAT;
	f->pos += len;
	if (!f->zs) /* inflated data hand back the file's pages as they inflate them */
		pmc__perfdata_release_behind(f, f->pos);
	return 1;
}

void pmc__perfdata_event_at(struct pmc__perfdata *f, uint64_t offset, size_t attr_idx,
			    struct pmc__perfdata_event *ev)
{
	const uint8_t *p = f->zs ? pmc__perfdata_zstream_at(f, offset) : f->buf + offset;
	uint16_t size;

	if ((uintptr_t)p % 8) {
		memcpy(&size, p + 6, sizeof(size));
		memcpy(f->scratch, p, size);
		p = (const uint8_t *)f->scratch;
	}
	ev->hdr = (const struct perf_event_header *)p;
	ev->offset = offset;
	ev->attr_idx = attr_idx;
}

int pmc__perfdata_sample(struct pmc__perfdata *f, const struct pmc__perfdata_event *ev,
			 struct pmc__sample *s, struct pmc_file_error *err)
{
	int ret = pmc__sample_decode(&f->attrs[ev->attr_idx], ev->hdr, ev->hdr->size, s, err);

	if (ret && err)
		err->offset += ev->offset;
	return ret;
}

int pmc__perfdata_record(struct pmc__perfdata *f, const struct pmc__perfdata_event *ev,
			 struct pmc__record *r, struct pmc_file_error *err)
{
	int ret = pmc__record_decode(&f->attrs[ev->attr_idx], ev->hdr, ev->hdr->size, r, err);

	if (ret && err)
		err->offset += ev->offset;
	return ret;
}
