// SPDX-License-Identifier: MIT
/* Encoding and decoding side-band records and their sample_id trailer (records.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pmc/error.h>
#include "perfdata/cursor.h"
#include "perfdata/records.h"

size_t pmc__sample_id_size(const struct perf_event_attr *attr)
{
	uint64_t t = attr->sample_type;
	size_t n = 0;

	if (!attr->sample_id_all)
		return 0;
	n += !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ID);
	n += !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU);
	n += !!(t & PERF_SAMPLE_IDENTIFIER);
	return n * 8;
}

/* The trailer from c's position on, in perf's order (__perf_evsel__parse_id_sample). */
static void get_sid(struct pmc__cursor *c, uint64_t t, struct pmc__sample_id *id)
{
	uint32_t res;

	memset(id, 0, sizeof(*id));
	if (t & PERF_SAMPLE_TID)
		pmc__cursor_u32pair(c, "pid/tid", &id->pid, &id->tid);
	if (t & PERF_SAMPLE_TIME)
		id->time = pmc__cursor_u64(c, "time");
	if (t & PERF_SAMPLE_ID)
		id->id = pmc__cursor_u64(c, "id");
	if (t & PERF_SAMPLE_STREAM_ID)
		id->stream_id = pmc__cursor_u64(c, "stream_id");
	if (t & PERF_SAMPLE_CPU)
		pmc__cursor_u32pair(c, "cpu", &id->cpu, &res);
	if (t & PERF_SAMPLE_IDENTIFIER)
		id->id = pmc__cursor_u64(c, "identifier");
}

static void put_sid(struct pmc__out *o, uint64_t t, const struct pmc__sample_id *id)
{
	if (t & PERF_SAMPLE_TID)
		pmc__out_u32pair(o, id->pid, id->tid);
	if (t & PERF_SAMPLE_TIME)
		pmc__out_u64(o, id->time);
	if (t & PERF_SAMPLE_ID)
		pmc__out_u64(o, id->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		pmc__out_u64(o, id->stream_id);
	if (t & PERF_SAMPLE_CPU)
		pmc__out_u32pair(o, id->cpu, 0);
	if (t & PERF_SAMPLE_IDENTIFIER)
		pmc__out_u64(o, id->id);
}

int pmc__sample_id_decode(const struct perf_event_attr *attr, const void *rec, size_t len,
			  struct pmc__sample_id *id)
{
	size_t n = pmc__sample_id_size(attr);
	struct pmc__cursor c = {.p = rec, .len = len};

	memset(id, 0, sizeof(*id));
	if (!attr->sample_id_all || n + sizeof(struct perf_event_header) > len)
		return -PMC_E_FORMAT;
	c.pos = len - n;
	get_sid(&c, attr->sample_type, id);
	return 0;
}

bool pmc__record_time(const struct perf_event_attr *attr, const struct perf_event_header *h,
		      uint64_t *time)
{
	struct pmc__sample_id id;
	size_t off;

	if (!(attr->sample_type & PERF_SAMPLE_TIME))
		return false;
	if (h->type != PERF_RECORD_SAMPLE) {
		if (pmc__sample_id_decode(attr, h, h->size, &id))
			return false;
		*time = id.time;
		return true;
	}
	/* The time follows the identifier, ip and pid/tid words (docs/sample-file.md). */
	off = sizeof(struct perf_event_header) +
	      8 * (size_t)(!!(attr->sample_type & PERF_SAMPLE_IDENTIFIER) +
			   !!(attr->sample_type & PERF_SAMPLE_IP) +
			   !!(attr->sample_type & PERF_SAMPLE_TID));
	if (off + 8 > h->size)
		return false;
	memcpy(time, (const uint8_t *)h + off, 8);
	return true;
}

/* The string of an encoded record: its bytes, a NUL, zeroes up to 8-byte alignment. */
static int put_str(struct pmc__out *o, const char *s, size_t max)
{
	static const uint8_t zero[8];
	size_t n;

	if (!s)
		return -EINVAL;
	n = strnlen(s, max && max < PMC_RECORD_STR_MAX ? max : PMC_RECORD_STR_MAX);
	pmc__out_put(o, s, n);
	pmc__out_put(o, zero, 8 - n % 8);
	return 0;
}

static int put_body(struct pmc__out *o, const struct pmc__record *r)
{
	switch (r->type) {
	case PERF_RECORD_COMM:
		pmc__out_u32pair(o, r->pid, r->tid);
		return put_str(o, r->str, r->str_len);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		pmc__out_u32pair(o, r->pid, r->tid);
		pmc__out_u64(o, r->start);
		pmc__out_u64(o, r->len);
		pmc__out_u64(o, r->pgoff);
		if (r->type == PERF_RECORD_MMAP2) {
			pmc__out_u32pair(o, r->maj, r->min);
			pmc__out_u64(o, r->ino);
			pmc__out_u64(o, r->ino_generation);
			pmc__out_u32pair(o, r->prot, r->flags);
		}
		return put_str(o, r->str, r->str_len);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		pmc__out_u32pair(o, r->pid, r->ppid);
		pmc__out_u32pair(o, r->tid, r->ptid);
		pmc__out_u64(o, r->time);
		return 0;
	case PERF_RECORD_LOST:
		pmc__out_u64(o, r->id);
		/* fall through */
	case PERF_RECORD_LOST_SAMPLES:
		pmc__out_u64(o, r->lost);
		return 0;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		pmc__out_u64(o, r->time);
		pmc__out_u64(o, r->id);
		pmc__out_u64(o, r->stream_id);
		return 0;
	}
	return -EINVAL;
}

int pmc__record_encode(const struct perf_event_attr *attr, const struct pmc__record *r, void *buf,
		       size_t cap)
{
	struct pmc__out o = {.p = buf, .cap = cap};
	struct perf_event_header h = {.type = r->type, .misc = r->misc};
	int ret;

	pmc__out_put(&o, &h, sizeof(h));
	ret = put_body(&o, r);
	if (ret)
		return ret;
	if (attr->sample_id_all)
		put_sid(&o, attr->sample_type, &r->sid);
	if (o.overflow || o.pos > UINT16_MAX)
		return -ENOSPC;
	h.size = (uint16_t)o.pos;
	memcpy(buf, &h, sizeof(h));
	return (int)o.pos;
}

/* A NUL-terminated string to the body's end: one without its NUL there is refused. */
static void get_str(struct pmc__cursor *c, const char *field, struct pmc__record *r)
{
	const uint8_t *at = c->p + c->pos, *nul;

	if (c->fail)
		return;
	nul = c->pos < c->len ? memchr(at, 0, c->len - c->pos) : NULL;
	if (!nul) {
		c->fail = field;
		return;
	}
	r->str = (const char *)at;
	r->str_len = (size_t)(nul - at);
	c->pos = c->len;
}

static void get_body(struct pmc__cursor *c, struct pmc__record *r)
{
	switch (r->type) {
	case PERF_RECORD_COMM:
		pmc__cursor_u32pair(c, "pid/tid", &r->pid, &r->tid);
		get_str(c, "comm", r);
		return;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		pmc__cursor_u32pair(c, "pid/tid", &r->pid, &r->tid);
		r->start = pmc__cursor_u64(c, "start");
		r->len = pmc__cursor_u64(c, "len");
		r->pgoff = pmc__cursor_u64(c, "pgoff");
		if (r->type == PERF_RECORD_MMAP2) {
			pmc__cursor_u32pair(c, "maj/min", &r->maj, &r->min);
			r->ino = pmc__cursor_u64(c, "ino");
			r->ino_generation = pmc__cursor_u64(c, "ino_generation");
			pmc__cursor_u32pair(c, "prot/flags", &r->prot, &r->flags);
		}
		get_str(c, "filename", r);
		return;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		pmc__cursor_u32pair(c, "pid/ppid", &r->pid, &r->ppid);
		pmc__cursor_u32pair(c, "tid/ptid", &r->tid, &r->ptid);
		r->time = pmc__cursor_u64(c, "time");
		return;
	case PERF_RECORD_LOST:
		r->id = pmc__cursor_u64(c, "id");
		/* fall through */
	case PERF_RECORD_LOST_SAMPLES:
		r->lost = pmc__cursor_u64(c, "lost");
		return;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		r->time = pmc__cursor_u64(c, "time");
		r->id = pmc__cursor_u64(c, "id");
		r->stream_id = pmc__cursor_u64(c, "stream_id");
		return;
	}
}

static const char *type_name(uint32_t type)
{
	static const char *const names[] = {
		[PERF_RECORD_MMAP] = "MMAP",
		[PERF_RECORD_LOST] = "LOST",
		[PERF_RECORD_COMM] = "COMM",
		[PERF_RECORD_EXIT] = "EXIT",
		[PERF_RECORD_THROTTLE] = "THROTTLE",
		[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
		[PERF_RECORD_FORK] = "FORK",
		[PERF_RECORD_MMAP2] = "MMAP2",
		[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	};

	return type < sizeof(names) / sizeof(names[0]) && names[type] ? names[type] : "side-band";
}

static int fail(struct pmc_file_error *err, uint64_t off, const struct perf_event_header *h,
		const char *field)
{
	if (err) {
		err->offset = off;
		snprintf(err->msg, sizeof(err->msg), "%s record of %u bytes ends inside its %s",
			 type_name(h->type), h->size, field);
	}
	return -PMC_E_FORMAT;
}

int pmc__record_decode(const struct perf_event_attr *attr, const void *rec, size_t len,
		       struct pmc__record *r, struct pmc_file_error *err)
{
	const struct perf_event_header *h = rec;
	/* Records of perf's tools (types from 64) and samples carry no trailer. */
	bool trailer = attr && attr->sample_id_all && h->type != PERF_RECORD_SAMPLE &&
		       h->type < PERFDATA_RECORD_HEADER_ATTR;
	size_t n = trailer ? pmc__sample_id_size(attr) : 0;
	struct pmc__cursor c = {.p = rec, .pos = sizeof(*h)};

	memset(r, 0, sizeof(*r));
	r->type = h->type;
	r->misc = h->misc;
	if (len < sizeof(*h) + n)
		return fail(err, 0, h, "sample_id trailer");
	c.len = len - n;
	get_body(&c, r);
	if (c.fail)
		return fail(err, c.pos, h, c.fail);
	if (trailer) {
		c.len = len;
		c.pos = len - n;
		get_sid(&c, attr->sample_type, &r->sid);
		r->has_sid = true;
	}
	return 0;
}
