// SPDX-License-Identifier: MIT
/*
 * The shipped metric files: built in (compiled from data/metrics by the build), or read from
 * a folder the caller or $PMC_METRICS_DIR names, whose index.tsv says which backend and CPU
 * model each file is for (docs/metrics.md, "Shipped files").
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "core/log.h"
#include "core/readall.h"
#include "metric/metric.h"

#define INDEX "index.tsv"

/* The files as the build compiled them (data/metrics/gen-shipped.py): pmc__builtin_files. */
#include "data/metrics/shipped.def"

#define NR_BUILTIN (sizeof(pmc__builtin_files) / sizeof(pmc__builtin_files[0]))

static bool has_index(const char *dir)
{
	char path[PATH_MAX];

	return *dir && (size_t)snprintf(path, sizeof(path), "%s/" INDEX, dir) < sizeof(path) &&
	       access(path, R_OK) == 0;
}

/* Splits a row into its 4 tab-separated fields; false when it has another number. */
static bool split(char *line, char **f)
{
	for (int i = 0; i < 4; i++) {
		f[i] = line;
		line += strcspn(line, "\t");
		if ((i < 3) != (*line == '\t'))
			return false;
		if (*line)
			*line++ = 0;
	}
	return true;
}

/* Says that row nr of dir's index is malformed (the place formatted only for a fault). */
static int bad_row(const char *dir, int nr, const char *field, struct pmc_metric_error *err)
{
	char where[PATH_MAX + 32];

	snprintf(where, sizeof(where), "%s/" INDEX ": line %d", dir, nr);
	if (!field)
		pmc__metric_error(err, where, NULL, -1,
				  "expected 4 tab-separated fields: file, backends, model, source");
	else
		pmc__metric_error(err, where, NULL, -1,
				  "'%s' is not a .json file in the folder, or a field is empty",
				  field);
	return -PMC_E_FORMAT;
}

static int row(const char *dir, char *line, int nr, pmc__metric_index_fn fn, void *arg,
	       struct pmc_metric_error *err)
{
	char *f[4];
	size_t len;

	if (!split(line, f))
		return bad_row(dir, nr, NULL, err);
	len = strlen(f[0]);
	if (len < 6 || strcmp(f[0] + len - 5, ".json") || f[0][0] == '/' || strstr(f[0], "..") ||
	    !*f[1] || !*f[2] || !*f[3])
		return bad_row(dir, nr, f[0], err);
	return fn(f[0], f[1], f[2], f[3], arg);
}

/*
 * The whole of a small file in a malloc'd, NUL-terminated buffer, without stdio's FILE, 4 KiB
 * buffer and seeks. 0; -errno when it cannot be opened; -ENOMEM; -PMC_E_FORMAT when it is
 * not a regular file, cannot be read or changed size while read (one byte more than fstat's
 * size is asked for, so a file that grew is seen to).
 */
static int read_whole(const char *path, char **text, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -PMC_E_FORMAT;

	*text = NULL;
	if (fd < 0)
		return -errno;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		ret = pmc__read_upto(fd, (size_t)st.st_size + 1, text, len);
	close(fd);
	if (ret && ret != -ENOMEM)
		ret = -PMC_E_FORMAT; /* opened, but not read whole */
	if (!ret && *len != (size_t)st.st_size)
		ret = -PMC_E_FORMAT;
	if (ret) {
		free(*text);
		*text = NULL;
	}
	return ret;
}

int pmc__metric_index_read(const char *dir, pmc__metric_index_fn fn, void *arg,
			   struct pmc_metric_error *err)
{
	char path[PATH_MAX], *text, *line, *end;
	size_t len;
	int ret, nr = 0;

	snprintf(path, sizeof(path), "%s/" INDEX, dir);
	ret = read_whole(path, &text, &len);
	if (ret) {
		pmc__metric_error(err, path, NULL, -1, "cannot %s: %s",
				  ret == -PMC_E_FORMAT || ret == -ENOMEM ? "read" : "open",
				  pmc_strerror(ret));
		return ret;
	}
	for (line = text; !ret && line < text + len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(text + len - line));
		if (!end)
			end = text + len; /* the last line without its line break */
		*end = 0;
		nr++;
		if (*line && *line != '#')
			ret = row(dir, line, nr, fn, arg, err);
	}
	free(text);
	return ret;
}

struct shipped {
	struct pmc_metrics *set;
	const char *dir;
	struct pmc_metric_error *err;
	int rank; /* the row being read */
};

/* Appends f to the set's files, or frees it. */
static int keep(struct pmc_metrics *m, struct pmc__lazy_file *f)
{
	struct pmc__lazy_file *v = realloc(m->lazy, (m->nr_lazy + 1) * sizeof(*v));

	if (!v) {
		pmc__lazy_free(f);
		return -ENOMEM;
	}
	m->lazy = v;
	v[m->nr_lazy++] = *f;
	return 0;
}

/* The file read whole and split into its entries, kept for pmc__metrics_need(). */
static int keep_lazy(struct pmc_metrics *m, const char *path, int rank)
{
	struct pmc__lazy_file f = {.rank = rank};
	int ret = read_whole(path, &f.text, &f.len);

	if (ret && ret != -PMC_E_FORMAT)
		return ret; /* cannot open, no memory */
	f.path = ret ? NULL : strdup(path);
	if (!ret)
		ret = f.path ? pmc__lazy_scan(&f) : -ENOMEM;
	if (ret) {
		pmc__lazy_free(&f);
		return ret;
	}
	return keep(m, &f);
}

/* A built-in file kept likewise: its entries need no scan, only their loaded flags. */
static int keep_builtin(struct pmc_metrics *m, const struct pmc__builtin_file *b, int rank)
{
	struct pmc__lazy_file f = {.rank = rank, .builtin = b, .nr = b->nr, .cap = b->nr};

	f.path = strdup(pmc__builtin_text + b->file);
	f.e = calloc(b->nr ? b->nr : 1, sizeof(*f.e));
	if (!f.path || !f.e) {
		pmc__lazy_free(&f);
		return -ENOMEM;
	}
	return keep(m, &f);
}

/* Whether entry k of f, not loaded yet, defines name[0, len) as a metric or group. */
static bool needed(const struct pmc__lazy_file *f, size_t k, const char *name, size_t len)
{
	const struct pmc__lazy_entry *e = &f->e[k];
	const char *n, *g = NULL;
	size_t nl, gl = 0;

	if (e->loaded)
		return false;
	if (f->builtin) {
		const struct pmc__builtin_entry *b = &pmc__builtin_entries[f->builtin->first + k];

		n = pmc__builtin_text + b->name;
		nl = strlen(n);
		if (b->groups)
			g = pmc__builtin_text + b->groups, gl = strlen(g);
	} else {
		if (e->opaque || !e->name.set)
			return e->opaque; /* opaque: any name; no name: an event description */
		n = f->text + e->name.off;
		nl = e->name.len;
		if (e->groups.set)
			g = f->text + e->groups.off, gl = e->groups.len;
	}
	return !len || (nl == len && !strncasecmp(n, name, len)) ||
	       (g && pmc__in_listn(g, gl, ';', name, len));
}

void pmc__metrics_need(const struct pmc_metrics *cm, const char *name, size_t len)
{
	/* Parsing what the set already holds in text changes no answer it gave. */
	struct pmc_metrics *m = (struct pmc_metrics *)cm;
	struct pmc_metric_error err = {0};

	for (size_t i = 0; i < m->nr_lazy; i++) {
		struct pmc__lazy_file *f = &m->lazy[i];

		for (size_t k = 0; k < f->nr; k++) {
			const struct pmc__builtin_entry *b =
				f->builtin ? &pmc__builtin_entries[f->builtin->first + k] : NULL;
			struct pmc__lazy_entry *e = &f->e[k];

			if (!needed(f, k, name, len))
				continue;
			e->loaded = true;
			if (b ? pmc__metrics_load_pairs(m, f->path, f->rank, b->idx,
							pmc__builtin_text + b->kv, b->nr_kv, &err)
			      : pmc__metrics_load_entry(m, f->path, f->rank, k, f->text + e->off,
							e->len, &err))
				pr_warn("metric file %s: %s\n", err.where[0] ? err.where : f->path,
					err.parse.msg);
		}
	}
}

/* Whether a row of these backends and models applies to the set's backend and its CPU. */
static bool applies(const struct pmc_metrics *m, const char *backends, const char *model)
{
	const char *mine;

	if (!pmc__in_list(backends, ',', m->opts.backend, strlen(m->opts.backend)))
		return false;
	/* The model is asked for only when a row names one: it may probe the machine. */
	return !strcmp(model, "*") || ((mine = pmc__backend_cpu_model(m->backend)) &&
				       pmc__in_list(model, ',', mine, strlen(mine)));
}

/* Loads a row of a folder's index that applies to the set. */
static int load_row(const char *file, const char *backends, const char *model, const char *source,
		    void *arg)
{
	struct shipped *s = arg;
	char path[PATH_MAX];
	int ret;

	(void)source;
	s->rank++;
	if (!applies(s->set, backends, model))
		return 0;
	snprintf(path, sizeof(path), "%s/%s", s->dir, file);
	/* A file the scan cannot split is parsed whole now, which says what is wrong with it. */
	ret = keep_lazy(s->set, path, s->rank);
	if (ret == -PMC_E_FORMAT)
		ret = pmc__metrics_load_file(s->set, path, s->rank, s->err);
	else if (ret)
		pmc__metric_error(s->err, path, NULL, -1, "cannot read: %s", pmc_strerror(ret));
	return ret;
}

int pmc__metrics_load_shipped(struct pmc_metrics *m, struct pmc_metric_error *err)
{
	const char *env = secure_getenv("PMC_METRICS_DIR");
	const char *dir = m->opts.dir ? m->opts.dir : env && *env ? env : NULL;
	struct shipped s = {.set = m, .dir = dir, .err = err, .rank = -1};
	int ret = 0;

	if (!dir) { /* the built-in files: nothing to find or read */
		for (size_t i = 0; !ret && i < NR_BUILTIN; i++) {
			const struct pmc__builtin_file *b = &pmc__builtin_files[i];

			if (applies(m, pmc__builtin_text + b->backends,
				    pmc__builtin_text + b->model))
				ret = keep_builtin(m, b, (int)i);
		}
		return ret;
	}
	if (!has_index(dir)) {
		pmc__metric_error(err, NULL, NULL, -1, "%s%s holds no " INDEX " of metric files",
				  m->opts.dir ? "" : "PMC_METRICS_DIR=", dir);
		return -ENOENT;
	}
	return pmc__metric_index_read(dir, load_row, &s, err);
}
