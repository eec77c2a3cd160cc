// SPDX-License-Identifier: MIT
/*
 * Reading pipe-mode perf.data (pipe.c writes it; docs/sample-file.md "Pipe mode"): the stream
 * read to its end, and its header records (HEADER_ATTR, HEADER_FEATURE, the tracing data) read
 * into the reader's events and features; the other records are read as a file's (next.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <pmc/error.h>
#include "perfdata/reader.h"

/*
 * The buffer is an anonymous mapping grown by mremap(2): growing moves no bytes (a realloc
 * that copies held the old and new buffers at once: 281 MiB of peak for a 96 MB stream, 115
 * MiB for the same file mapped), and pages past the end are never touched.
 */
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
