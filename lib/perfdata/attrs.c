// SPDX-License-Identifier: MIT
/*
 * The reader's events: each attr with its ids (HEADER_ATTR records of a pipe, the attrs section
 * of a file), the id map that finds a record's event, and the checks once all are known.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "perfdata/reader.h"

static int cmp_id(const void *a, const void *b)
{
	const struct perfdata_idmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int check_attr(const struct perf_event_attr *a, uint64_t off, struct pmc_file_error *err)
{
	if (a->sample_type & ~PMC_SAMPLE_KNOWN)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, off + 24,
					  "event's sample_type 0x%llx has fields pmc cannot "
					  "decode (0x%llx)",
					  (unsigned long long)a->sample_type,
					  (unsigned long long)(a->sample_type & ~PMC_SAMPLE_KNOWN));
	return 0;
}

static int add_ids(struct pmc__perfdata *f, size_t idx, const struct perfdata_section *ids,
		   uint64_t where, struct pmc_file_error *err)
{
	uint64_t n = ids->size / 8;
	struct perfdata_idmap *m;

	if (ids->size % 8 || !pmc__perfdata_in_file(f, ids->offset, ids->size))
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, where,
					  "ids of event %zu: section [%llu, +%llu) is not an "
					  "array of u64 inside the file",
					  idx, (unsigned long long)ids->offset,
					  (unsigned long long)ids->size);
	if (!n)
		return 0;
	m = realloc(f->idmap, (f->nr_idmap + n) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	f->idmap = m;
	for (uint64_t i = 0; i < n; i++) {
		memcpy(&m[f->nr_idmap].id, f->buf + ids->offset + i * 8, 8);
		m[f->nr_idmap++].idx = idx;
	}
	return 0;
}

int pmc__perfdata_add_attr(struct pmc__perfdata *f, uint64_t off, size_t size,
			   const struct perfdata_section *ids, struct pmc_file_error *err)
{
	size_t i = f->nr_attrs;
	struct perf_event_attr *a;
	char **names;

	if (i >= 4096)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, off, "more than 4096 events");
	a = realloc(f->attrs, (i + 1) * sizeof(*a));
	if (a)
		f->attrs = a;
	names = realloc(f->names, (i + 1) * sizeof(*names));
	if (names)
		f->names = names;
	if (!a || !names)
		return -ENOMEM;
	memset(&a[i], 0, sizeof(*a));
	memcpy(&a[i], f->buf + off, size < sizeof(*a) ? size : sizeof(*a));
	names[i] = NULL;
	f->nr_attrs++;
	return check_attr(&a[i], off, err) ?: add_ids(f, i, ids, off + size, err);
}

/* Where the id sits in a sample body, given one sample_type for all events. */
static int id_position(uint64_t t)
{
	int pos = 0;

	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	pos += !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME);
	return pos + !!(t & PERF_SAMPLE_ADDR);
}

int pmc__perfdata_check_sample_types(struct pmc__perfdata *f, struct pmc_file_error *err)
{
	uint64_t t0 = f->attrs[0].sample_type;

	for (size_t i = 1; i < f->nr_attrs; i++) {
		uint64_t t = f->attrs[i].sample_type;
		if (t == t0)
			continue;
		if (!(t & t0 & PERF_SAMPLE_IDENTIFIER))
			return pmc__perfdata_fail(err, -PMC_E_FORMAT, f->h.attrs.offset,
						  "events have different sample_type and no "
						  "PERF_SAMPLE_IDENTIFIER to tell their samples "
						  "apart");
	}
	f->id_pos = id_position(t0);
	if (f->nr_attrs > 1 && f->id_pos < 0)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, f->h.attrs.offset + 24,
					  "%zu events but samples carry no id", f->nr_attrs);
	if (f->nr_idmap)
		qsort(f->idmap, f->nr_idmap, sizeof(*f->idmap), cmp_id);
	return 0;
}

/* The attrs section and each event's ids. */
