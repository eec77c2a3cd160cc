// SPDX-License-Identifier: MIT
/*
 * The reader's helpers that its other files share (reader.h), below them all: errors with their
 * offset, bounds in the file, a record's length, and handing back the pages read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "perfdata/reader.h"

#define ALIGN8(x) (((x) + 7) & ~(uint64_t)7)

int pmc__perfdata_fail(struct pmc_file_error *err, int code, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->offset = off;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

/* Is [off, off+size) inside the file? Written so that it cannot overflow. */
bool pmc__perfdata_in_file(const struct pmc__perfdata *f, uint64_t off, uint64_t size)
{
	return off <= f->len && size <= f->len - off;
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

#define PERFDATA_KEEP_BEHIND ((uint64_t)16 << 20)

void pmc__perfdata_release_behind(struct pmc__perfdata *f, uint64_t pos)
{
	uint64_t page, upto;

	/* Called for every record: the page size is asked only when pages are handed back. */
	if (!f->mapped || pos < f->released + 2 * PERFDATA_KEEP_BEHIND)
		return;
	page = (uint64_t)sysconf(_SC_PAGESIZE);
	upto = (pos - PERFDATA_KEEP_BEHIND) & ~(page - 1);
	if (upto > f->released && !madvise((void *)(uintptr_t)(f->buf + f->released),
					   (size_t)(upto - f->released), MADV_DONTNEED))
		f->released = upto;
}
