// SPDX-License-Identifier: MIT
/* Reading perf.data files: header and attr validation, record iteration with bounds checks. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/error.h>
#include "perfdata/reader.h"

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

static int check_magic(const struct pmc__perfdata *f, struct pmc_file_error *err)
{
	uint64_t magic;

	if (f->len < 8)
		return pmc__perfdata_fail(err, -PMC_E_TRUNCATED, 0,
					  "file has %zu bytes; expected an 8-byte magic "
					  "\"PERFILE2\" at offset 0",
					  f->len);
	memcpy(&magic, f->buf, 8);
	if (magic == PERFDATA_MAGIC2)
		return 0;
	if (magic == PERFDATA_MAGIC2_SWAP)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, 0,
					  "file was written on a big-endian machine; "
					  "pmc reads little-endian perf.data only");
	if (!memcmp(f->buf, "PERFILE", 7) && f->buf[7] > '2' && f->buf[7] <= '9')
		return pmc__perfdata_fail(err, -PMC_E_VERSION, 7,
					  "perf.data format version %c is newer than the "
					  "version 2 pmc reads",
					  f->buf[7]);
	if (magic == PERFDATA_MAGIC_V1)
		return pmc__perfdata_fail(err, -PMC_E_VERSION, 0,
					  "perf.data format version 1 (\"PERFFILE\") is not "
					  "supported; expected \"PERFILE2\"");
	return pmc__perfdata_fail(err, -PMC_E_FORMAT, 0,
				  "not a perf.data file: expected magic \"PERFILE2\" at offset 0");
}

static int check_section(const struct pmc__perfdata *f, const struct perfdata_section *s,
			 uint64_t where, const char *what, struct pmc_file_error *err)
{
	if (pmc__perfdata_in_file(f, s->offset, s->size))
		return 0;
	return pmc__perfdata_fail(err, -PMC_E_TRUNCATED, where,
				  "%s section [%llu, +%llu) lies beyond the end of the "
				  "%zu-byte file",
				  what, (unsigned long long)s->offset, (unsigned long long)s->size,
				  f->len);
}

static int check_header(struct pmc__perfdata *f, struct pmc_file_error *err)
{
	struct perfdata_file_header *h = &f->h;
	int ret = check_magic(f, err);

	if (ret)
		return ret;
	if (f->len < 16)
		return pmc__perfdata_fail(err, -PMC_E_TRUNCATED, 8,
					  "file ends inside the header size field");
	memcpy(&h->size, f->buf + 8, 8);
	if (h->size == PERFDATA_PIPE_HEADER_SIZE)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, 8,
					  "pipe-mode perf.data (perf record -o -) is not "
					  "supported; record to a file");
	if (h->size > PERFDATA_HEADER_SIZE)
		return pmc__perfdata_fail(err, -PMC_E_VERSION, 8,
					  "header of %llu bytes is of a newer format; expected "
					  "%d",
					  (unsigned long long)h->size, PERFDATA_HEADER_SIZE);
	if (h->size != PERFDATA_HEADER_SIZE)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, 8, "header size %llu; expected %d",
					  (unsigned long long)h->size, PERFDATA_HEADER_SIZE);
	if (f->len < PERFDATA_HEADER_SIZE)
		return pmc__perfdata_fail(err, -PMC_E_TRUNCATED, f->len,
					  "file ends inside the %d-byte header",
					  PERFDATA_HEADER_SIZE);
	memcpy(h, f->buf, sizeof(*h));
	if (h->data.size == 0 && h->data.offset >= PERFDATA_HEADER_SIZE &&
	    h->data.offset <= f->len) {
		/* An interrupted recording: perf's convention is to read to the end. */
		h->data.size = f->len - h->data.offset;
		f->interrupted = true;
	}
	ret = check_section(f, &h->attrs, 24, "attrs", err);
	if (!ret)
		ret = check_section(f, &h->data, 40, "data", err);
	if (!ret && h->data.offset < PERFDATA_HEADER_SIZE)
		ret = pmc__perfdata_fail(err, -PMC_E_FORMAT, 40,
					 "data section at offset %llu overlaps the header",
					 (unsigned long long)h->data.offset);
	return ret;
}

static int do_open(struct pmc__perfdata *f, struct pmc_file_error *err)
{
	int ret = check_header(f, err);

	if (!ret)
		ret = pmc__perfdata_read_attrs(f, err);
	if (!ret)
		ret = pmc__perfdata_read_features(f, err);
	f->pos = f->h.data.offset;
	f->data_end = f->h.data.offset + f->h.data.size;
	return ret;
}

int pmc__perfdata_open_mem(const void *buf, size_t len, struct pmc__perfdata **out,
			   struct pmc_file_error *err)
{
	struct pmc__perfdata *f = calloc(1, sizeof(*f));
	int ret;

	if (!f)
		return -ENOMEM;
	f->buf = buf;
	f->len = len;
	ret = do_open(f, err);
	if (ret) {
		pmc__perfdata_close(f);
		return ret;
	}
	*out = f;
	return 0;
}

int pmc__perfdata_open(const char *path, struct pmc__perfdata **out, struct pmc_file_error *err)
{
	struct pmc__perfdata *f;
	struct stat st;
	void *map = NULL;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pmc__perfdata_fail(err, -errno, 0, "cannot open %s: %s", path,
					  strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return pmc__perfdata_fail(err, -EINVAL, 0, "%s is not a regular file", path);
	}
	if (st.st_size > 0) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			ret = -errno;
			close(fd);
			return pmc__perfdata_fail(err, ret, 0, "cannot map %s", path);
		}
		madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	}
	close(fd);
	ret = pmc__perfdata_open_mem(map ? map : "", (size_t)st.st_size, &f, err);
	if (ret) {
		if (map)
			munmap(map, (size_t)st.st_size);
		return ret;
	}
	f->mapped = map != NULL;
	*out = f;
	return 0;
}

void pmc__perfdata_close(struct pmc__perfdata *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nr_attrs; i++) {
		free(f->names[i]);
	}
	for (size_t i = 0; i < PERFDATA_NR_STR_FEATS; i++)
		free(f->feat_str[i]);
	free(f->names);
	free(f->attrs);
	free(f->idmap);
	if (f->mapped)
		munmap((void *)f->buf, f->len);
	free(f);
}

size_t pmc__perfdata_nr_attrs(const struct pmc__perfdata *f)
{
	return f->nr_attrs;
}

const struct perf_event_attr *pmc__perfdata_attr(const struct pmc__perfdata *f, size_t idx)
{
	return idx < f->nr_attrs ? &f->attrs[idx] : NULL;
}

const char *pmc__perfdata_attr_name(const struct pmc__perfdata *f, size_t idx)
{
	return idx < f->nr_attrs ? f->names[idx] : NULL;
}

const char *pmc__perfdata_feat_string(const struct pmc__perfdata *f, enum perfdata_feat feat)
{
	return (size_t)feat < PERFDATA_NR_STR_FEATS ? f->feat_str[feat] : NULL;
}

bool pmc__perfdata_was_interrupted(const struct pmc__perfdata *f)
{
	return f->interrupted;
}
