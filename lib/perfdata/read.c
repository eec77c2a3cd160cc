// SPDX-License-Identifier: MIT
/* Opening perf.data files: the header, the attrs with their event ids (features.c: the
 * feature sections). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include "perfdata/reader.h"

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
		return 1; /* pipe mode: pipe.c reads the rest */
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

static int read_attrs(struct pmc__perfdata *f, struct pmc_file_error *err)
{
	uint64_t asz = f->h.attr_size, n;
	int ret;

	if (asz < PERF_ATTR_SIZE_VER0 + 16 || asz % 8 || asz > 4096)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, 16,
					  "attr entry size %llu; expected a multiple of 8 from "
					  "%d to 4096",
					  (unsigned long long)asz, PERF_ATTR_SIZE_VER0 + 16);
	n = f->h.attrs.size / asz;
	if (!n || f->h.attrs.size % asz || n > 4096)
		return pmc__perfdata_fail(err, -PMC_E_FORMAT, 32,
					  "attrs section of %llu bytes does not hold a whole "
					  "number (1 to 4096) of %llu-byte entries",
					  (unsigned long long)f->h.attrs.size,
					  (unsigned long long)asz);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = f->h.attrs.offset + i * asz;
		struct perfdata_section ids;

		memcpy(&ids, f->buf + off + asz - 16, 16);
		ret = pmc__perfdata_add_attr(f, off, asz - 16, &ids, err);
		if (ret)
			return ret;
	}
	return pmc__perfdata_check_sample_types(f, err);
}

static int do_open(struct pmc__perfdata *f, struct pmc_file_error *err)
{
	int ret = check_header(f, err);

	if (ret == 1) {
		ret = pmc__perfdata_pipe_open(f, err);
	} else {
		if (!ret)
			ret = read_attrs(f, err);
		if (!ret)
			ret = pmc__perfdata_read_features(f, err);
	}
	f->pos = f->h.data.offset;
	f->data_end = f->h.data.offset + f->h.data.size;
	if (!ret)
		ret = pmc__perfdata_inflate(f, err);
	return ret;
}

/* mapped: buf maps the file, whose pages passes hand back (reader.h); unmapped by the caller. */
static int open_buf(const void *buf, size_t len, bool mapped, struct pmc__perfdata **out,
		    struct pmc_file_error *err)
{
	/*
	 * Zeroed up to the scratch buffer only, which is written before it is read: clearing its
	 * 64 KiB faulted in 16 pages, 4.6 us each in a VM, for every report (bench/RESULTS.md).
	 */
	struct pmc__perfdata *f = malloc(sizeof(*f));
	int ret;

	if (!f)
		return -ENOMEM;
	memset(f, 0, offsetof(struct pmc__perfdata, scratch));
	f->buf = buf;
	f->len = len;
	f->mapped = mapped;
	ret = do_open(f, err);
	if (ret) {
		f->mapped = false;
		pmc__perfdata_close(f);
		return ret;
	}
	*out = f;
	return 0;
}

int pmc__perfdata_open_mem(const void *buf, size_t len, struct pmc__perfdata **out,
			   struct pmc_file_error *err)
{
	return open_buf(buf, len, false, out, err);
}

/*
 * Standard input that is not a regular file (a pipe): the stream is read to its end into
 * memory, then read as a file held in memory is. It takes as much memory as it has bytes.
 */
static int open_stream(struct pmc__perfdata **out, struct pmc_file_error *err)
{
	uint8_t *buf;
	size_t len, cap;
	int ret = pmc__perfdata_read_stream(STDIN_FILENO, &buf, &len, &cap);

	if (ret)
		return pmc__perfdata_fail(err, ret, 0, "cannot read standard input: %s",
					  strerror(-ret));
	ret = open_buf(buf, len, false, out, err);
	if (ret) {
		munmap(buf, cap);
		return ret;
	}
	(*out)->stream = buf;
	(*out)->stream_cap = cap;
	return 0;
}

static int map_file(int fd, const char *path, struct pmc__perfdata **out,
		    struct pmc_file_error *err);

int pmc__perfdata_open(const char *path, struct pmc__perfdata **out, struct pmc_file_error *err)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-")) { /* standard input: a file is mapped, a pipe read whole */
		if (fstat(STDIN_FILENO, &st) < 0)
			return pmc__perfdata_fail(err, -errno, 0, "cannot read standard input");
		if (!S_ISREG(st.st_mode))
			return open_stream(out, err);
		fd = dup(STDIN_FILENO);
		if (fd < 0)
			return pmc__perfdata_fail(err, -errno, 0, "cannot read standard input");
		return map_file(fd, path, out, err);
	}
	fd = pmc_open_input(path); /* a FIFO or device is refused, not waited on */
	if (fd == -PMC_E_NOTREG)
		return pmc__perfdata_fail(
			err, -EINVAL, 0,
			"%s is not a regular file (a FIFO or pipe is read as standard input: "
			"-i - < %s)",
			path, path);
	if (fd < 0)
		return pmc__perfdata_fail(err, fd, 0, "cannot open %s: %s", path, strerror(-fd));
	return map_file(fd, path, out, err);
}

/* A regular file, mapped; fd is closed. */
static int map_file(int fd, const char *path, struct pmc__perfdata **out,
		    struct pmc_file_error *err)
{
	struct pmc__perfdata *f;
	struct stat st;
	void *map = NULL;
	int ret;

	if (fstat(fd, &st) < 0) {
		ret = -errno;
		close(fd);
		return pmc__perfdata_fail(err, ret, 0, "cannot open %s: %s", path, strerror(-ret));
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
	ret = open_buf(map ? map : "", (size_t)st.st_size, map != NULL, &f, err);
	if (ret) {
		if (map)
			munmap(map, (size_t)st.st_size);
		return ret;
	}
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
	pmc__perfdata_build_ids_free(&f->build_ids);
	free(f->attrs);
	free(f->idmap);
	pmc__perfdata_zstream_free(f->zs);
	if (f->mapped)
		munmap((void *)f->buf, f->len);
	if (f->stream)
		munmap(f->stream, f->stream_cap);
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

const char *pmc__perfdata_vdso_build_id(const struct pmc__perfdata *f)
{
	return pmc__perfdata_build_ids_find(&f->build_ids, "[vdso]");
}

const char *pmc__perfdata_build_id(const struct pmc__perfdata *f, const char *path)
{
	return pmc__perfdata_build_ids_find(&f->build_ids, path);
}

bool pmc__perfdata_was_interrupted(const struct pmc__perfdata *f)
{
	return f->interrupted;
}
