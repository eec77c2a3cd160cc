// SPDX-License-Identifier: MIT
/* Writing perf.data files: header, ids and attrs up front, buffered records, features at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perfdata/writer.h"

#define WBUF_BYTES (1u << 20)

/* perf 6.1 rejects attrs larger than its own (128 bytes), so write no more than needed. */
uint32_t pmc__perfdata_attr_write_size(const struct perf_event_attr *a)
{
	const uint8_t *p = (const uint8_t *)a;

	for (size_t i = PERF_ATTR_SIZE_VER7; i < sizeof(*a); i++)
		if (p[i])
			return sizeof(*a);
	return PERF_ATTR_SIZE_VER7;
}

int pmc__perfdata_pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

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
	ret = pmc_outfile__open(path, &w->out);
	if (ret) {
		pmc__perfdata_writer_delete(w);
		return ret;
	}
	w->fd = pmc_outfile__fd(w->out);
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
	a->attr.size = pmc__perfdata_attr_write_size(attr);
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
	pmc__perfdata_free_cmdline(w);
	w->cmdline = v;
	w->cmdline_argc = argc;
	return 0;
}

/* The header as it stands: data.size stays 0 until finish, so a crash reads to the end. */
int pmc__perfdata_write_header(struct pmc__perfdata_writer *w, uint64_t data_size,
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
	return pmc__perfdata_pwrite_all(w->fd, &h, sizeof(h), 0);
}

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
		w->attrs[i].ids_offset = off;
		ret = pmc__perfdata_pwrite_all(w->fd, w->attrs[i].ids, w->attrs[i].nr_ids * 8, off);
		if (ret)
			return ret;
		off += w->attrs[i].nr_ids * 8;
	}
	w->attrs_offset = off;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct perfdata_section ids = {w->attrs[i].ids_offset, w->attrs[i].nr_ids * 8};
		ret = pmc__perfdata_pwrite_all(w->fd, &w->attrs[i].attr, asz, off);
		if (!ret)
			ret = pmc__perfdata_pwrite_all(w->fd, &ids, sizeof(ids), off + asz);
		if (ret)
			return ret;
		off += asz + sizeof(ids);
	}
	w->data_offset = (off + 7) & ~7ull;
	w->begun = true;
	return pmc__perfdata_write_header(w, 0, NULL);
}

static int flush(struct pmc__perfdata_writer *w)
{
	int ret = pmc__perfdata_pwrite_all(w->fd, w->buf, w->buf_len,
					   w->data_offset + w->data_size - w->buf_len);

	w->buf_len = 0;
	return ret;
}

int pmc__perfdata_writer_write(struct pmc__perfdata_writer *w, const void *rec, size_t len)
{
	if (!w->begun || w->finished)
		return -EINVAL;
	if (w->buf_len + len > WBUF_BYTES) {
		int ret = flush(w);
		if (ret)
			return ret;
	}
	if (len > WBUF_BYTES) {
		int ret = pmc__perfdata_pwrite_all(w->fd, rec, len, w->data_offset + w->data_size);
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

uint64_t pmc__perfdata_writer_data_size(const struct pmc__perfdata_writer *w)
{
	return w->data_size;
}

int pmc__perfdata_writer_finish(struct pmc__perfdata_writer *w)
{
	int ret;

	if (!w->begun || w->finished)
		return -EINVAL;
	ret = flush(w);
	if (!ret)
		ret = pmc__perfdata_write_features(w);
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
	pmc__perfdata_free_cmdline(w);
	free(w->attrs);
	free(w->buf);
	free(w);
}
