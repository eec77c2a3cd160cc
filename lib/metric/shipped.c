// SPDX-License-Identifier: MIT
/*
 * The shipped metric files: the folder that holds them (beside this libpmc when installed)
 * and its index.tsv, which says which backend and CPU model each file is for
 * (docs/metrics.md, "Shipped files").
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "core/log.h"
#include "core/selfdir.h"
#include "metric/metric.h"

/* Compile definitions from lib/CMakeLists.txt: the source tree's folder, the installed one,
 * and the installed one relative to libdir (libpmc.so) and bindir (a static libpmc). */
#ifndef PMC_METRICS_SOURCE_DIR
#define PMC_METRICS_SOURCE_DIR ""
#define PMC_METRICS_INSTALL_DIR ""
#define PMC_METRICS_FROM_LIBDIR ""
#define PMC_METRICS_FROM_BINDIR ""
#endif

#define INDEX "index.tsv"

static bool has_index(const char *dir)
{
	char path[PATH_MAX];

	return *dir && (size_t)snprintf(path, sizeof(path), "%s/" INDEX, dir) < sizeof(path) &&
	       access(path, R_OK) == 0;
}

/* share/pmc/metrics of the install tree this libpmc lies in, found from where it lies. */
static bool installed_dir(char *dir, size_t len)
{
	char self[PATH_MAX], cand[PATH_MAX * 2];
	bool is_exe = false;
	const char *rel;

	if (pmc__selfdir(self, sizeof(self), &is_exe))
		return false;
	rel = is_exe ? PMC_METRICS_FROM_BINDIR : PMC_METRICS_FROM_LIBDIR;
	if (!*rel || (size_t)snprintf(cand, sizeof(cand), "%s/%s", self, rel) >= sizeof(cand) ||
	    !has_index(cand) || !realpath(cand, self)) /* without the "lib/.." */
		return false;
	return (size_t)snprintf(dir, len, "%s", self) < len;
}

/* The folder of the shipped files, or -ENOENT with the places looked at. */
static int shipped_dir(const struct pmc_metrics *m, char *dir, size_t len,
		       struct pmc_metric_error *err)
{
	const char *env = secure_getenv("PMC_METRICS_DIR");
	const char *given = m->opts.dir ? m->opts.dir : env && *env ? env : NULL;

	if (given) {
		snprintf(dir, len, "%s", given);
		if (has_index(dir))
			return 0;
		pmc__metric_error(err, NULL, NULL, -1, "%s%s holds no " INDEX " of metric files",
				  m->opts.dir ? "" : "PMC_METRICS_DIR=", given);
		return -ENOENT;
	}
	if (installed_dir(dir, len))
		return 0;
	if (has_index(PMC_METRICS_SOURCE_DIR))
		return snprintf(dir, len, "%s", PMC_METRICS_SOURCE_DIR), 0;
	if (has_index(PMC_METRICS_INSTALL_DIR))
		return snprintf(dir, len, "%s", PMC_METRICS_INSTALL_DIR), 0;
	pmc__metric_error(err, NULL, NULL, -1,
			  "no metric files: neither the install tree's share/pmc/metrics nor %s "
			  "nor %s holds " INDEX "; set PMC_METRICS_DIR",
			  PMC_METRICS_SOURCE_DIR, PMC_METRICS_INSTALL_DIR);
	return -ENOENT;
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

static int row(const char *dir, char *line, int nr, pmc__metric_index_fn fn, void *arg,
	       struct pmc_metric_error *err)
{
	char where[PATH_MAX + 32], *f[4];
	size_t len = strlen(f[0] = line);

	snprintf(where, sizeof(where), "%s/" INDEX ": line %d", dir, nr);
	if (!split(line, f)) {
		pmc__metric_error(err, where, NULL, -1,
				  "expected 4 tab-separated fields: file, backends, model, source");
		return -PMC_E_FORMAT;
	}
	len = strlen(f[0]);
	if (len < 6 || strcmp(f[0] + len - 5, ".json") || f[0][0] == '/' || strstr(f[0], "..") ||
	    !*f[1] || !*f[2] || !*f[3]) {
		pmc__metric_error(err, where, NULL, -1,
				  "'%s' is not a .json file in the folder, or a field is empty",
				  f[0]);
		return -PMC_E_FORMAT;
	}
	return fn(f[0], f[1], f[2], f[3], arg);
}

int pmc__metric_index_read(const char *dir, pmc__metric_index_fn fn, void *arg,
			   struct pmc_metric_error *err)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int ret = 0, nr = 0;

	snprintf(path, sizeof(path), "%s/" INDEX, dir);
	if (!(f = fopen(path, "re"))) {
		ret = -errno;
		pmc__metric_error(err, path, NULL, -1, "cannot open: %s", pmc_strerror(ret));
		return ret;
	}
	while (!ret && (n = getline(&line, &cap, f)) >= 0) {
		nr++;
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		if (*line && *line != '#')
			ret = row(dir, line, nr, fn, arg, err);
	}
	free(line);
	fclose(f);
	return ret;
}

struct shipped {
	struct pmc_metrics *set;
	const char *dir;
	struct pmc_metric_error *err;
	int rank; /* the row being read */
};

/* The file read whole and split into its entries, kept for pmc__metrics_need(). */
static int keep_lazy(struct pmc_metrics *m, const char *path, int rank)
{
	struct pmc__lazy_file f = {.rank = rank}, *v;
	FILE *in;
	long n;
	int ret = -ENOMEM;

	in = fopen(path, "re");
	if (!in)
		return -errno;
	if (fseek(in, 0, SEEK_END) || (n = ftell(in)) < 0 || fseek(in, 0, SEEK_SET))
		n = -1;
	f.text = n >= 0 ? malloc((size_t)n + 1) : NULL;
	f.len = f.text ? fread(f.text, 1, (size_t)n + 1, in) : 0;
	if (n < 0 || ferror(in) || f.len != (size_t)n)
		ret = -PMC_E_FORMAT;
	fclose(in);
	f.path = strdup(path);
	if (f.text && f.path && f.len == (size_t)n)
		ret = pmc__lazy_scan(&f);
	v = ret ? NULL : realloc(m->lazy, (m->nr_lazy + 1) * sizeof(*v));
	if (!v) {
		pmc__lazy_free(&f);
		return ret ? ret : -ENOMEM;
	}
	m->lazy = v;
	v[m->nr_lazy++] = f;
	return 0;
}

static bool needed(const struct pmc__lazy_entry *e, const char *name, size_t len)
{
	if (e->loaded || (!e->name && !e->opaque))
		return false;
	return !len || e->opaque || (strlen(e->name) == len && !strncasecmp(e->name, name, len)) ||
	       (e->groups && pmc__in_list(e->groups, ';', name, len));
}

void pmc__metrics_need(const struct pmc_metrics *cm, const char *name, size_t len)
{
	/* Parsing what the set already holds in text changes no answer it gave. */
	struct pmc_metrics *m = (struct pmc_metrics *)cm;
	struct pmc_metric_error err = {0};

	for (size_t i = 0; i < m->nr_lazy; i++) {
		struct pmc__lazy_file *f = &m->lazy[i];

		for (size_t k = 0; k < f->nr; k++) {
			struct pmc__lazy_entry *e = &f->e[k];

			if (!needed(e, name, len))
				continue;
			e->loaded = true;
			if (pmc__metrics_load_entry(m, f->path, f->rank, k, f->text + e->off,
						    e->len, &err))
				pr_warn("metric file %s: %s\n", err.where[0] ? err.where : f->path,
					err.parse.msg);
		}
	}
}

/* Loads a file whose row names the set's backend, with "*" or the backend's model. */
static int load_row(const char *file, const char *backends, const char *model, const char *source,
		    void *arg)
{
	struct shipped *s = arg;
	const char *mine;
	char path[PATH_MAX];
	int ret;

	(void)source;
	s->rank++;
	if (!pmc__in_list(backends, ',', s->set->opts.backend, strlen(s->set->opts.backend)))
		return 0;
	/* The model is asked for only when a row names one: it may probe the machine. */
	if (strcmp(model, "*") && (!(mine = pmc__backend_cpu_model(s->set->backend)) ||
				   !pmc__in_list(model, ',', mine, strlen(mine))))
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
	char dir[PATH_MAX];
	struct shipped s = {.set = m, .dir = dir, .err = err, .rank = -1};
	int ret = shipped_dir(m, dir, sizeof(dir), err);

	return ret ? ret : pmc__metric_index_read(dir, load_row, &s, err);
}
