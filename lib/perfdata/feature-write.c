// SPDX-License-Identifier: MIT
/*
 * The feature sections the writer makes (hostname, arch, cmdline, event names, build ids,
 * tracing data), into a growing buffer: after a file's data (write.c) or as a pipe's header
 * records (pipe.c).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "core/grow.h"
#include "core/outfile.h"
#include "perfdata/writer.h"

int pmc__perfdata_write_all(int fd, const void *buf, size_t len)
{
	/* at the position (a pipe); a file size limit is EFBIG, not SIGXFSZ */
	return pmc__outfile_pwrite_all(fd, buf, len, -1);
}

void pmc__fput(struct pmc__fbuf *b, const void *v, size_t n)
{
	if (b->oom || !n)
		return;
	if (n > SIZE_MAX - b->len || PMC_ENSURE(b->p, b->cap, b->len + n)) {
		b->oom = true;
		return;
	}
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void fput32(struct pmc__fbuf *b, uint32_t v)
{
	pmc__fput(b, &v, 4);
}

/* perf's header string: u32 length (rounded up to 64 with the NUL), then the padded bytes. */
static void fput_string(struct pmc__fbuf *b, const char *s)
{
	static const char zero[64];
	size_t n = strlen(s) + 1, padded = (n + 63) & ~(size_t)63;

	fput32(b, (uint32_t)padded);
	pmc__fput(b, s, n - 1);
	pmc__fput(b, zero, padded - n + 1);
}

static void feat_event_desc(struct pmc__perfdata_writer *w, struct pmc__fbuf *b)
{
	fput32(b, (uint32_t)w->nr_attrs);
	fput32(b, w->attrs[0].attr.size);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		pmc__fput(b, &w->attrs[i].attr, w->attrs[i].attr.size);
		fput32(b, (uint32_t)w->attrs[i].nr_ids);
		fput_string(b, w->attrs[i].name);
		pmc__fput(b, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
	}
}

static void feat_cmdline(struct pmc__perfdata_writer *w, struct pmc__fbuf *b)
{
	fput32(b, (uint32_t)w->cmdline_argc);
	for (int i = 0; i < w->cmdline_argc; i++)
		fput_string(b, w->cmdline[i]);
}

/* The BUILD_ID feature's entries, encoded by buildid.c. */
static void feat_build_id(struct pmc__perfdata_writer *w, struct pmc__fbuf *b)
{
	size_t n = pmc__perfdata_build_ids_size(&w->build_ids);
	uint8_t *p = malloc(n);

	if (!p) {
		b->oom = true;
		return;
	}
	pmc__perfdata_build_ids_encode(&w->build_ids, p);
	pmc__fput(b, p, n);
	free(p);
}

bool pmc__perfdata_build_feature(struct pmc__perfdata_writer *w, int feat, struct pmc__fbuf *b)
{
	struct utsname u;
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);

	if ((feat == PERFDATA_FEAT_CMDLINE && !w->cmdline_argc) ||
	    (feat == PERFDATA_FEAT_BUILD_ID && !w->build_ids.nr) ||
	    (feat == PERFDATA_FEAT_TRACING_DATA && !w->tracing_data))
		return false;
	uname(&u);
	switch (feat) {
	case PERFDATA_FEAT_TRACING_DATA:
		pmc__fput(b, w->tracing_data, w->tracing_data_len);
		break;
	case PERFDATA_FEAT_BUILD_ID:
		feat_build_id(w, b);
		break;
	case PERFDATA_FEAT_HOSTNAME:
		fput_string(b, u.nodename);
		break;
	case PERFDATA_FEAT_OSRELEASE:
		fput_string(b, u.release);
		break;
	case PERFDATA_FEAT_VERSION:
		fput_string(b, "pmc " PMC_VERSION_STRING);
		break;
	case PERFDATA_FEAT_ARCH:
		fput_string(b, u.machine);
		break;
	case PERFDATA_FEAT_NRCPUS:
		fput32(b, (uint32_t)(conf > 0 ? conf : 1));
		fput32(b, (uint32_t)(onln > 0 ? onln : 1));
		break;
	case PERFDATA_FEAT_CMDLINE:
		feat_cmdline(w, b);
		break;
	case PERFDATA_FEAT_EVENT_DESC:
		feat_event_desc(w, b);
		break;
	}
	return true;
}

const int pmc__perfdata_wfeats[PERFDATA_NR_WFEATS] = {
	PERFDATA_FEAT_TRACING_DATA, PERFDATA_FEAT_BUILD_ID, PERFDATA_FEAT_HOSTNAME,
	PERFDATA_FEAT_OSRELEASE,    PERFDATA_FEAT_VERSION,  PERFDATA_FEAT_ARCH,
	PERFDATA_FEAT_NRCPUS,	    PERFDATA_FEAT_CMDLINE,  PERFDATA_FEAT_EVENT_DESC,
};
