// SPDX-License-Identifier: MIT
/*
 * The shipped metric files: the folder that holds them (beside this libpmc when installed)
 * and its index.tsv, which says which backend and CPU model each file is for
 * (docs/metrics.md, "Shipped files").
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

/* The file read whole and split into its entries, kept for pmc__metrics_need(). */
static int keep_lazy(struct pmc_metrics *m, const char *path, int rank)
{
	struct pmc__lazy_file f = {.rank = rank}, *v;
	int ret = read_whole(path, &f.text, &f.len);

	if (ret && ret != -PMC_E_FORMAT)
		return ret; /* cannot open, no memory */
	f.path = ret ? NULL : strdup(path);
	if (!ret)
		ret = f.path ? pmc__lazy_scan(&f) : -ENOMEM;
	v = ret ? NULL : realloc(m->lazy, (m->nr_lazy + 1) * sizeof(*v));
	if (!v) {
		pmc__lazy_free(&f);
		return ret ? ret : -ENOMEM;
	}
	m->lazy = v;
	v[m->nr_lazy++] = f;
	return 0;
}

static bool needed(const struct pmc__lazy_file *f, const struct pmc__lazy_entry *e,
		   const char *name, size_t len)
{
	if (e->loaded || (!e->name.set && !e->opaque))
		return false;
	return !len || e->opaque ||
	       (e->name.len == len && !strncasecmp(f->text + e->name.off, name, len)) ||
	       (e->groups.set &&
		pmc__in_listn(f->text + e->groups.off, e->groups.len, ';', name, len));
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

			if (!needed(f, e, name, len))
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
