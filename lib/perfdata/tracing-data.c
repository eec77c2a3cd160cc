// SPDX-License-Identifier: MIT
/*
 * perf's TRACING_DATA: what perf script and perf report need to decode tracepoint samples (the
 * tracefs format of each recorded tracepoint), laid out as perf 6.1's trace-event-info.c writes
 * it and trace-event-read.c reads it (docs/sample-file.md, "Tracing data").
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/tracefs.h"
#include "perfdata/perfdata.h"

/* The bytes of a tracefs file up to its end (tracefs files say size 0 to stat). */
static int slurp(const char *path, char **data, size_t *len)
{
	char chunk[4096];
	FILE *in = fopen(path, "re"), *m;
	size_t n;
	int ret = 0;

	if (!in)
		return -errno;
	m = open_memstream(data, len);
	if (!m) {
		ret = -errno;
		fclose(in);
		return ret;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		if (fwrite(chunk, 1, n, m) != n)
			ret = -ENOMEM;
	if (ferror(in))
		ret = -EIO;
	fclose(in);
	if (ferror(m) && !ret)
		ret = -ENOMEM;
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(*data);
		*data = NULL;
	}
	return ret;
}

/*
 * A file of tracefs (root/rel) preceded by its size in size_bytes (4 or 8) bytes. A missing
 * optional file is written as size 0, as perf does.
 */
static int put_file(FILE *out, const char *root, const char *rel, int size_bytes, bool optional)
{
	char path[PATH_MAX], *data = NULL;
	size_t len = 0;
	int ret;

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	ret = slurp(path, &data, &len);
	if (ret && !(optional && (ret == -ENOENT || ret == -EACCES)))
		return ret;
	if (size_bytes == 4) {
		uint32_t sz = (uint32_t)len;
		fwrite(&sz, 4, 1, out);
	} else {
		uint64_t sz = len;
		fwrite(&sz, 8, 1, out);
	}
	fwrite(data, 1, len, out);
	free(data);
	return 0;
}

static void put_u32(FILE *out, uint32_t v)
{
	fwrite(&v, 4, 1, out);
}

/* Whether tps[i] repeats an earlier entry (a tracepoint recorded twice has one format). */
static bool seen(const struct pmc__tp_path *tps, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(tps[j].subsys, tps[i].subsys) && !strcmp(tps[j].name, tps[i].name))
			return true;
	return false;
}

static bool subsys_seen(const struct pmc__tp_path *tps, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(tps[j].subsys, tps[i].subsys))
			return true;
	return false;
}

/* u32 count, then each format of subsystem sys among tps as u64 size and contents. */
static int put_formats(FILE *out, const char *root, const char *sys, const struct pmc__tp_path *tps,
		       size_t nr)
{
	char rel[PATH_MAX];
	uint32_t count = 0;
	int ret = 0;

	for (size_t i = 0; i < nr; i++)
		count += !strcmp(tps[i].subsys, sys) && !seen(tps, i);
	put_u32(out, count);
	for (size_t i = 0; i < nr && !ret; i++) {
		if (strcmp(tps[i].subsys, sys) || seen(tps, i))
			continue;
		if (snprintf(rel, sizeof(rel), "events/%s/%s/format", sys, tps[i].name) >=
		    (int)sizeof(rel))
			return -ENAMETOOLONG;
		ret = put_file(out, root, rel, 8, false);
	}
	return ret;
}

/* The event systems other than ftrace: u32 count, then each one's name and formats. */
static int put_systems(FILE *out, const char *root, const struct pmc__tp_path *tps, size_t nr)
{
	uint32_t count = 0;
	int ret = 0;

	for (size_t i = 0; i < nr; i++)
		count += strcmp(tps[i].subsys, "ftrace") && !subsys_seen(tps, i);
	put_u32(out, count);
	for (size_t i = 0; i < nr && !ret; i++) {
		if (!strcmp(tps[i].subsys, "ftrace") || subsys_seen(tps, i))
			continue;
		fwrite(tps[i].subsys, 1, strlen(tps[i].subsys) + 1, out);
		ret = put_formats(out, root, tps[i].subsys, tps, nr);
	}
	return ret;
}

/* magic, version, endianness, sizeof(long), page size */
static void put_preamble(FILE *out)
{
	static const char magic[10] = "\027\010\104tracing";
	uint8_t endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, lsize = sizeof(long);
	long page = sysconf(_SC_PAGESIZE);

	fwrite(magic, 1, sizeof(magic), out);
	fwrite("0.6", 1, 4, out);
	fwrite(&endian, 1, 1, out);
	fwrite(&lsize, 1, 1, out);
	put_u32(out, (uint32_t)(page > 0 ? page : 4096));
}

static bool bad_name(const char *s)
{
	return !s[0] || s[0] == '.' || strchr(s, '/');
}

static int put_all(FILE *out, const char *root, const struct pmc__tp_path *tps, size_t nr)
{
	uint32_t zero = 0;
	int ret;

	put_preamble(out);
	fwrite("header_page", 1, 12, out);
	ret = put_file(out, root, "events/header_page", 8, false);
	if (!ret) {
		fwrite("header_event", 1, 13, out);
		ret = put_file(out, root, "events/header_event", 8, false);
	}
	if (!ret)
		ret = put_formats(out, root, "ftrace", tps, nr);
	if (!ret)
		ret = put_systems(out, root, tps, nr);
	if (ret)
		return ret;
	fwrite(&zero, 4, 1, out); /* kallsyms: empty, as perf 6.1 writes it */
	ret = put_file(out, root, "printk_formats", 4, true);
	if (!ret)
		ret = put_file(out, root, "saved_cmdlines", 8, true);
	return ret;
}

int pmc__perfdata_tracing_data(const struct pmc__tp_path *tps, size_t nr, char **out, size_t *len)
{
	const char *root = pmc__tracefs_root();
	FILE *m;
	int ret;

	*out = NULL;
	*len = 0;
	for (size_t i = 0; i < nr; i++)
		if (bad_name(tps[i].subsys) || bad_name(tps[i].name))
			return -EINVAL;
	if (!root)
		return -PMC_E_NOTRACEFS;
	m = open_memstream(out, len);
	if (!m)
		return -errno;
	ret = put_all(m, root, tps, nr);
	if (ferror(m) && !ret) /* a write that failed: out of memory */
		ret = -ENOMEM;
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(*out);
		*out = NULL;
		*len = 0;
	}
	return ret;
}
