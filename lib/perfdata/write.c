// SPDX-License-Identifier: MIT
/*
 * Writing perf.data files: header, ids and attrs up front, buffered records, and at the end the
 * feature sections (hostname, arch, cmdline, event names, ...).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "core/outfile.h"
#include "perfdata/writer.h"

#define WBUF_BYTES (1u << 20)

/* perf 6.1 rejects attrs larger than its own (128 bytes), so write no more than needed. */
static uint32_t attr_write_size(const struct perf_event_attr *a)
{
	const uint8_t *p = (const uint8_t *)a;

	for (size_t i = PERF_ATTR_SIZE_VER7; i < sizeof(*a); i++)
		if (p[i])
			return sizeof(*a);
	return PERF_ATTR_SIZE_VER7;
}

#define APPEND UINT64_MAX /* pwrite_all's offset for write(2) at the position (a pipe) */

/* The whole of buf at off, or at the position (APPEND); a file size limit is EFBIG, not SIGXFSZ. */
static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	return pmc__outfile_pwrite_all(fd, buf, len, off == APPEND ? -1 : (off_t)off);
}

static int write_header(struct pmc__perfdata_writer *w, uint64_t data_size,
			const uint64_t *features)
{
	struct perfdata_file_header h = {
		.magic = PERFDATA_MAGIC2,
		.size = PERFDATA_HEADER_SIZE,
		.attr_size = (w->nr_attrs ? w->attrs[0].attr.size : PERF_ATTR_SIZE_VER7) + 16,
		.attrs = {w->attrs_offset, w->nr_attrs * 0},
		.data = {w->data_offset, data_size},
	};

	h.attrs.size = w->nr_attrs * h.attr_size;
	if (features)
		memcpy(h.features, features, sizeof(h.features));
	return pwrite_all(w->fd, &h, sizeof(h), 0);
}

#define NR_FEATS PERFDATA_NR_WFEATS

/* Appends the feature sections after the data and rewrites the header with final sizes. */
static int write_features(struct pmc__perfdata_writer *w)
{
	uint64_t bits[PERFDATA_FEAT_BITS / 64] = {0};
	struct perfdata_section idx[NR_FEATS];
	uint64_t idx_off = w->data_offset + w->data_size, off;
	struct pmc__fbuf b = {0};
	int ret = 0;

	off = idx_off + sizeof(idx);
	for (size_t i = 0; i < NR_FEATS; i++) {
		size_t start = b.len;
		if (!pmc__perfdata_build_feature(w, pmc__perfdata_wfeats[i], &b))
			continue;
		bits[pmc__perfdata_wfeats[i] / 64] |= 1ull << (pmc__perfdata_wfeats[i] % 64);
		idx[i] = (struct perfdata_section){off + start, b.len - start};
	}
	if (b.oom)
		ret = -ENOMEM;
	/* The index lists the set bits in order, with no gaps for skipped features. */
	size_t n = 0;
	for (size_t i = 0; i < NR_FEATS; i++)
		if (bits[pmc__perfdata_wfeats[i] / 64] >> (pmc__perfdata_wfeats[i] % 64) & 1)
			idx[n++] = idx[i];
	off = idx_off + n * sizeof(idx[0]);
	for (size_t i = 0; i < n; i++)
		idx[i].offset -= sizeof(idx) - n * sizeof(idx[0]);
	if (!ret)
		ret = pwrite_all(w->fd, idx, n * sizeof(idx[0]), idx_off);
	if (!ret)
		ret = pwrite_all(w->fd, b.p, b.len, off);
	if (!ret && ftruncate(w->fd, (off_t)(off + b.len)) < 0)
		ret = -errno;
	if (!ret)
		ret = write_header(w, w->data_size, bits);
	free(b.p);
	return ret;
}

static void free_cmdline(struct pmc__perfdata_writer *w)
{
	for (int i = 0; i < w->cmdline_argc; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	w->cmdline = NULL;
	w->cmdline_argc = 0;
}

/*
 * A recording holds the measured program's memory (stacks, registers, data addresses):
 * 0600, and the file it replaces kept as NAME.old, as perf record writes perf.data.
 */
static const struct pmc_outfile_opts file_opts = {
	.sz = sizeof(file_opts),
	.mode = 0600,
	.keep_old = true,
};

int pmc__perfdata_writer_new(const char *path, struct pmc__perfdata_writer **out)
{
	struct pmc__perfdata_writer *w = calloc(1, sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	w->fd = -1;
	w->buf = malloc(WBUF_BYTES);
	if (!w->buf) {
		pmc__perfdata_writer_delete(w);
		return -ENOMEM;
	}
	ret = pmc_outfile__open_opts(path, &file_opts, &w->out);
	if (ret) {
		pmc__perfdata_writer_delete(w);
		return ret;
	}
	w->fd = pmc_outfile__fd(w->out);
	/*
	 * perf's pipe mode (pipe.c) for standard output, whatever it is (as perf record -o -),
	 * and for an output that cannot seek (a FIFO, a terminal).
	 */
	w->pipe = !strcmp(path, "-") || (lseek(w->fd, 0, SEEK_CUR) < 0 && errno == ESPIPE);
	*out = w;
	return 0;
}

int pmc__perfdata_writer_add_attr(struct pmc__perfdata_writer *w,
				  const struct perf_event_attr *attr, const char *name,
				  const uint64_t *ids, size_t nr_ids)
{
	struct pmc__wattr *a;

	if (w->begun)
		return -EBUSY;
	a = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	w->attrs = a;
	a = &a[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->attr.size = attr_write_size(attr);
	a->name = strdup(name ? name : "");
	a->ids = nr_ids ? malloc(nr_ids * 8) : NULL;
	if (!a->name || (nr_ids && !a->ids)) {
		free(a->name);
		free(a->ids);
		return -ENOMEM;
	}
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * 8);
	a->nr_ids = nr_ids;
	w->nr_attrs++;
	return 0;
}

int pmc__perfdata_writer_add_build_id(struct pmc__perfdata_writer *w, const char *name,
				      const char *hex, bool kernel)
{
	return pmc__perfdata_build_ids_add(&w->build_ids, name, hex, kernel);
}

int pmc__perfdata_writer_set_tracepoints(struct pmc__perfdata_writer *w,
					 const struct pmc__tp_path *tps, size_t nr)
{
	char *data;
	size_t len;
	int ret = pmc__perfdata_tracing_data(tps, nr, &data, &len);

	if (ret)
		return ret;
	free(w->tracing_data);
	w->tracing_data = data;
	w->tracing_data_len = len;
	return 0;
}

int pmc__perfdata_writer_set_cmdline(struct pmc__perfdata_writer *w, int argc, char *const argv[])
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		v[i] = strdup(argv[i]);
		if (!v[i]) {
			for (int j = 0; j < i; j++)
				free(v[j]);
			free(v);
			return -ENOMEM;
		}
	}
	free_cmdline(w);
	w->cmdline = v;
	w->cmdline_argc = argc;
	return 0;
}

/* The header as it stands: data.size stays 0 until finish, so a crash reads to the end. */
int pmc__perfdata_writer_begin(struct pmc__perfdata_writer *w)
{
	uint64_t off = PERFDATA_HEADER_SIZE;
	uint32_t asz;
	int ret;

	if (!w->nr_attrs || w->begun)
		return -EINVAL;
	asz = w->attrs[0].attr.size;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		/* All entries share one size in the file; the largest wins. */
		if (w->attrs[i].attr.size > asz)
			asz = w->attrs[i].attr.size;
	}
	for (size_t i = 0; i < w->nr_attrs; i++) {
		w->attrs[i].attr.size = asz;
		if (w->pipe)
			continue;
		w->attrs[i].ids_offset = off;
		ret = pwrite_all(w->fd, w->attrs[i].ids, w->attrs[i].nr_ids * 8, off);
		if (ret)
			return ret;
		off += w->attrs[i].nr_ids * 8;
	}
	w->attrs_offset = off;
	if (w->pipe) {
		w->begun = true;
		return pmc__perfdata_pipe_begin(w);
	}
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct perfdata_section ids = {w->attrs[i].ids_offset, w->attrs[i].nr_ids * 8};
		ret = pwrite_all(w->fd, &w->attrs[i].attr, asz, off);
		if (!ret)
			ret = pwrite_all(w->fd, &ids, sizeof(ids), off + asz);
		if (ret)
			return ret;
		off += asz + sizeof(ids);
	}
	w->data_offset = (off + 7) & ~7ull;
	w->begun = true;
	return write_header(w, 0, NULL);
}

/* Records are appended: written in order to a pipe, at their offset to a file. */
static int put(struct pmc__perfdata_writer *w, const void *p, size_t len, uint64_t data_off)
{
	return pwrite_all(w->fd, p, len, w->pipe ? APPEND : w->data_offset + data_off);
}

/* The buffered records written out. */
static int perfdata_writer_flush(struct pmc__perfdata_writer *w)
{
	int ret = put(w, w->buf, w->buf_len, w->data_size - w->buf_len);

	w->buf_len = 0;
	return ret;
}

int pmc__perfdata_writer_write(struct pmc__perfdata_writer *w, const void *rec, size_t len)
{
	if (!w->begun || w->finished)
		return -EINVAL;
	if (w->buf_len + len > WBUF_BYTES) {
		int ret = perfdata_writer_flush(w);
		if (ret)
			return ret;
	}
	if (len > WBUF_BYTES) {
		int ret = put(w, rec, len, w->data_size);
		if (!ret)
			w->data_size += len;
		return ret;
	}
	memcpy(w->buf + w->buf_len, rec, len);
	w->buf_len += len;
	w->data_size += len;
	return 0;
}

int pmc__perfdata_writer_write_sample(struct pmc__perfdata_writer *w, size_t attr_idx,
				      const struct pmc__sample *s)
{
	uint64_t rec[65536 / 8];
	int n;

	if (attr_idx >= w->nr_attrs)
		return -EINVAL;
	n = pmc__sample_encode(&w->attrs[attr_idx].attr, s, rec, sizeof(rec));
	if (n < 0)
		return n;
	return pmc__perfdata_writer_write(w, rec, (size_t)n);
}

int pmc__perfdata_writer_round(struct pmc__perfdata_writer *w, bool round)
{
	static const struct perf_event_header rec = {PERFDATA_RECORD_FINISHED_ROUND, 0, 8};
	struct pollfd p = {.fd = w->fd};
	int ret = round ? pmc__perfdata_writer_write(w, &rec, sizeof(rec)) : 0;

	if (ret || !w->pipe)
		return ret;
	/* A pipe or FIFO whose reader closed it polls POLLERR: found even when idle. */
	if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR))
		return -EPIPE;
	return round ? perfdata_writer_flush(w) : 0;
}

uint64_t pmc__perfdata_writer_data_size(const struct pmc__perfdata_writer *w)
{
	return w->data_size;
}

int pmc__perfdata_writer_finish(struct pmc__perfdata_writer *w)
{
	int ret;

	if (!w->begun || w->finished)
		return -EINVAL;
	ret = perfdata_writer_flush(w);
	if (!ret && !w->pipe) /* a pipe's features went first (pipe.c) */
		ret = write_features(w);
	else if (!ret)
		ret = pmc__perfdata_pipe_finish(w);
	if (!ret) {
		ret = pmc_outfile__commit(w->out);
		w->out = NULL; /* committed or removed either way */
		w->fd = -1;
	}
	if (!ret)
		w->finished = true;
	return ret;
}

void pmc__perfdata_writer_delete(struct pmc__perfdata_writer *w)
{
	if (!w)
		return;
	pmc_outfile__abort(w->out);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].name);
		free(w->attrs[i].ids);
	}
	free_cmdline(w);
	free(w->tracing_data);
	pmc__perfdata_build_ids_free(&w->build_ids);
	free(w->attrs);
	free(w->buf);
	free(w);
}
