// SPDX-License-Identifier: MIT
/* Writing the feature sections of a perf.data file (hostname, arch, cmdline, event names, ...). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "perfdata/writer.h"

/* A growing byte buffer for one feature section. */
struct fbuf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

static void fput(struct fbuf *b, const void *v, size_t n)
{
	if (b->oom || !n)
		return;
	if (b->len + n > b->cap) {
		size_t cap = (b->len + n) * 2 + 256;
		uint8_t *p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void fput32(struct fbuf *b, uint32_t v)
{
	fput(b, &v, 4);
}

/* perf's header string: u32 length (rounded up to 64 with the NUL), then the padded bytes. */
static void fput_string(struct fbuf *b, const char *s)
{
	static const char zero[64];
	size_t n = strlen(s) + 1, padded = (n + 63) & ~(size_t)63;

	fput32(b, (uint32_t)padded);
	fput(b, s, n - 1);
	fput(b, zero, padded - n + 1);
}

static void feat_event_desc(struct pmc__perfdata_writer *w, struct fbuf *b)
{
	fput32(b, (uint32_t)w->nr_attrs);
	fput32(b, w->attrs[0].attr.size);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		fput(b, &w->attrs[i].attr, w->attrs[i].attr.size);
		fput32(b, (uint32_t)w->attrs[i].nr_ids);
		fput_string(b, w->attrs[i].name);
		fput(b, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
	}
}

static void feat_cmdline(struct pmc__perfdata_writer *w, struct fbuf *b)
{
	fput32(b, (uint32_t)w->cmdline_argc);
	for (int i = 0; i < w->cmdline_argc; i++)
		fput_string(b, w->cmdline[i]);
}

static void build_feature(struct pmc__perfdata_writer *w, int feat, struct fbuf *b)
{
	struct utsname u;
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);

	uname(&u);
	switch (feat) {
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
}

static const int feats[] = {
	PERFDATA_FEAT_HOSTNAME,	  PERFDATA_FEAT_OSRELEASE, PERFDATA_FEAT_VERSION,
	PERFDATA_FEAT_ARCH,	  PERFDATA_FEAT_NRCPUS,	   PERFDATA_FEAT_CMDLINE,
	PERFDATA_FEAT_EVENT_DESC,
};
#define NR_FEATS (sizeof(feats) / sizeof(feats[0]))

int pmc__perfdata_write_features(struct pmc__perfdata_writer *w)
{
	uint64_t bits[PERFDATA_FEAT_BITS / 64] = {0};
	struct perfdata_section idx[NR_FEATS];
	uint64_t idx_off = w->data_offset + w->data_size, off;
	struct fbuf b = {0};
	int ret = 0;

	off = idx_off + sizeof(idx);
	for (size_t i = 0; i < NR_FEATS; i++) {
		size_t start = b.len;
		if (feats[i] == PERFDATA_FEAT_CMDLINE && !w->cmdline_argc)
			continue;
		build_feature(w, feats[i], &b);
		bits[feats[i] / 64] |= 1ull << (feats[i] % 64);
		idx[i] = (struct perfdata_section){off + start, b.len - start};
	}
	if (b.oom)
		ret = -ENOMEM;
	/* The index lists the set bits in order, with no gaps for skipped features. */
	size_t n = 0;
	for (size_t i = 0; i < NR_FEATS; i++)
		if (bits[feats[i] / 64] >> (feats[i] % 64) & 1)
			idx[n++] = idx[i];
	off = idx_off + n * sizeof(idx[0]);
	for (size_t i = 0; i < n; i++)
		idx[i].offset -= sizeof(idx) - n * sizeof(idx[0]);
	if (!ret)
		ret = pmc__perfdata_pwrite_all(w->fd, idx, n * sizeof(idx[0]), idx_off);
	if (!ret)
		ret = pmc__perfdata_pwrite_all(w->fd, b.p, b.len, off);
	if (!ret && ftruncate(w->fd, (off_t)(off + b.len)) < 0)
		ret = -errno;
	if (!ret)
		ret = pmc__perfdata_write_header(w, w->data_size, bits);
	free(b.p);
	return ret;
}

void pmc__perfdata_free_cmdline(struct pmc__perfdata_writer *w)
{
	for (int i = 0; i < w->cmdline_argc; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	w->cmdline = NULL;
	w->cmdline_argc = 0;
}
