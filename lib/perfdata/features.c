// SPDX-License-Identifier: MIT
/* The feature sections of a perf.data file that the reader keeps (after the data): the single
 * strings, EVENT_DESC's event names and BUILD_ID's entries. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "perfdata/reader.h"

/* A perf_header_string at *off (u32 length, then that many bytes, NUL-padded). */
static int read_string(const struct pmc__perfdata *f, uint64_t *off, uint64_t end, char **out,
		       struct pmc_file_error *err)
{
	uint32_t len;

	if (*off + 4 > end)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, *off,
					  "feature string length runs past its section");
	memcpy(&len, f->buf + *off, 4);
	if (len > end - *off - 4)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, *off,
					  "feature string of %u bytes runs past its section", len);
	*out = strndup((const char *)f->buf + *off + 4, len);
	*off += 4 + (uint64_t)len;
	return *out ? 0 : -ENOMEM;
}

static int read_event_desc(struct pmc__perfdata *f, uint64_t off, uint64_t end,
			   struct pmc_file_error *err)
{
	uint32_t nr, asz, nr_ids;
	int ret;

	if (off + 8 > end)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, off, "EVENT_DESC too short");
	memcpy(&nr, f->buf + off, 4);
	memcpy(&asz, f->buf + off + 4, 4);
	off += 8;
	for (uint32_t i = 0; i < nr; i++) {
		char *name = NULL;

		if (asz > end - off || end - off - asz < 4)
			return pmc__perfdata_fail(err, -PMC_E_FORMAT, off,
						  "EVENT_DESC entry %u runs past its section", i);
		off += asz;
		memcpy(&nr_ids, f->buf + off, 4);
		off += 4;
		ret = read_string(f, &off, end, &name, err);
		if (ret)
			return ret;
		if (i < f->nr_attrs && !f->names[i])
			f->names[i] = name;
		else
			free(name);
		if (nr_ids > (end - off) / 8)
			return pmc__perfdata_fail(err, -PMC_E_FORMAT, off,
						  "EVENT_DESC ids run past its section");
		off += (uint64_t)nr_ids * 8;
	}
	return 0;
}

int pmc__perfdata_read_feature(struct pmc__perfdata *f, int bit, const struct perfdata_section *s,
			       struct pmc_file_error *err)
{
	uint64_t off = s->offset, end = s->offset + s->size;

	if (bit == PERFDATA_FEAT_BUILD_ID) /* buildid.c */
		return pmc__perfdata_build_ids_decode(f->buf + off, end - off, &f->build_ids);
	if (bit == PERFDATA_FEAT_EVENT_DESC)
		return read_event_desc(f, off, end, err);
	/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC and CPUID are single strings. */
	if (((bit >= 3 && bit <= 6) || bit == 8 || bit == 9) && !f->feat_str[bit])
		return read_string(f, &off, end, &f->feat_str[bit], err);
	return 0;
}

int pmc__perfdata_read_features(struct pmc__perfdata *f, struct pmc_file_error *err)
{
	uint64_t idx_off = f->h.data.offset + f->h.data.size;
	int ret;

	if (f->interrupted)
		return 0;
	for (int bit = 0; bit < PERFDATA_FEAT_BITS; bit++) {
		struct perfdata_section s;

		if (!(f->h.features[bit / 64] >> (bit % 64) & 1))
			continue;
		if (!pmc__perfdata_in_file(f, idx_off, 16))
			return pmc__perfdata_fail(err, -PMC_E_TRUNCATED, idx_off,
						  "file ends inside the feature index (feature "
						  "%d); expected 16 bytes",
						  bit);
		memcpy(&s, f->buf + idx_off, 16);
		if (!pmc__perfdata_in_file(f, s.offset, s.size))
			return pmc__perfdata_fail(err, -PMC_E_TRUNCATED, idx_off,
						  "feature %d section [%llu, +%llu) lies beyond "
						  "the end of the %zu-byte file",
						  bit, (unsigned long long)s.offset,
						  (unsigned long long)s.size, f->len);
		ret = pmc__perfdata_read_feature(f, bit, &s, err);
		if (ret)
			return ret;
		idx_off += 16;
	}
	return 0;
}
