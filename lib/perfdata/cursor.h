/* SPDX-License-Identifier: MIT */
/*
 * Bounds-checked cursors over one record (sample-codec.c, sample-encode.c, records.c): every
 * read checks what is left of the record first, and the first field that overruns is named;
 * every write checks the buffer's room.
 */
#ifndef PMC_LIB_PERFDATA_CURSOR_H
#define PMC_LIB_PERFDATA_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pmc__cursor {
	const uint8_t *p;
	size_t len, pos;  /* pos is relative to the record's start */
	const char *fail; /* name of the field that overran */
};

static inline bool pmc__cursor_take(struct pmc__cursor *c, size_t n, const char *field,
				    const uint8_t **at)
{
	if (c->fail)
		return false;
	if (n > c->len - c->pos) {
		c->fail = field;
		return false;
	}
	*at = c->p + c->pos;
	c->pos += n;
	return true;
}

static inline uint64_t pmc__cursor_u64(struct pmc__cursor *c, const char *field)
{
	const uint8_t *at;
	uint64_t v = 0;

	if (pmc__cursor_take(c, 8, field, &at))
		memcpy(&v, at, 8);
	return v;
}

static inline void pmc__cursor_u32pair(struct pmc__cursor *c, const char *field, uint32_t *a,
				       uint32_t *b)
{
	const uint8_t *at;

	*a = *b = 0;
	if (pmc__cursor_take(c, 8, field, &at)) {
		memcpy(a, at, 4);
		memcpy(b, at + 4, 4);
	}
}

/* An array of n u64 (n read from the file, so checked against what is left first). */
static inline const uint64_t *pmc__cursor_u64s(struct pmc__cursor *c, uint64_t n, const char *field)
{
	const uint8_t *at = NULL;

	if (n > (c->len - c->pos) / 8) {
		if (!c->fail)
			c->fail = field;
		return NULL;
	}
	pmc__cursor_take(c, (size_t)n * 8, field, &at);
	return (const uint64_t *)at;
}

/* An output cursor over a caller's buffer; overflow is remembered and reported once at the end. */
struct pmc__out {
	uint8_t *p;
	size_t cap, pos;
	bool overflow;
};

static inline void pmc__out_put(struct pmc__out *o, const void *v, size_t n)
{
	if (o->overflow || n > o->cap - o->pos) {
		o->overflow = true;
		return;
	}
	memcpy(o->p + o->pos, v, n);
	o->pos += n;
}

static inline void pmc__out_u64(struct pmc__out *o, uint64_t v)
{
	pmc__out_put(o, &v, 8);
}

static inline void pmc__out_u32pair(struct pmc__out *o, uint32_t a, uint32_t b)
{
	pmc__out_put(o, &a, 4);
	pmc__out_put(o, &b, 4);
}

#endif /* PMC_LIB_PERFDATA_CURSOR_H */
