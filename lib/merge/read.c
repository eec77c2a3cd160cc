// SPDX-License-Identifier: MIT
/*
 * pmc merge's files: each rank's values per event, metric and region, as doc.c reads them
 * from its pmc-stat/1 results file (docs/stat-output.md), checked against the files before it
 * (docs/mpi.md).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/grow.h"
#include "merge/merge.h"

int pmc_merge__new(struct pmc_merge **out)
{
	struct pmc_merge *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->size = -1;
	*out = m;
	return 0;
}

static void names_free(struct merge_names *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->names[i]);
	free(n->names);
	free(n->idx);
}

void pmc__merge_file_free(struct merge_file *f)
{
	free(f->path);
	json_decref(f->provenance);
	free(f->events);
	free(f->metrics);
	for (size_t r = 0; r < f->nr_regions; r++)
		free(f->regions[r]);
	free(f->regions);
}

void pmc_merge__delete(struct pmc_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_files; i++)
		pmc__merge_file_free(&m->files[i]);
	free(m->files);
	free(m->version);
	free(m->backend);
	free(m->launcher);
	names_free(&m->events);
	names_free(&m->metrics);
	names_free(&m->regions);
	free(m);
}

/* The slot of name in names' index: the one that holds it, or the empty one where it goes. */
static size_t slot(const struct merge_names *names, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
	size_t i;

	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	for (i = (size_t)h & (names->cap_idx - 1); names->idx[i];
	     i = (i + 1) & (names->cap_idx - 1))
		if (!strcmp(names->names[names->idx[i] - 1], name))
			break;
	return i;
}

long pmc__merge_find(const struct merge_names *names, const char *name)
{
	size_t i = names->cap_idx ? slot(names, name) : 0;

	return names->cap_idx && names->idx[i] ? (long)names->idx[i] - 1 : -1;
}

/* Rebuilds the index at twice the size. */
static int reindex(struct merge_names *names)
{
	struct merge_names n = *names;

	n.cap_idx = names->cap_idx ? names->cap_idx * 2 : 32;
	if (!(n.idx = calloc(n.cap_idx, sizeof(*n.idx))))
		return -1;
	for (size_t i = 0; i < n.nr; i++)
		n.idx[slot(&n, n.names[i])] = i + 1;
	free(names->idx);
	*names = n;
	return 0;
}

/* The index of name in names, added when absent; -1 when out of memory. */
static long merge_name(struct merge_names *names, const char *name)
{
	long found = pmc__merge_find(names, name);

	if (found >= 0)
		return found;
	if ((names->nr + 1) * 2 > names->cap_idx && reindex(names))
		return -1;
	if (PMC_ENSURE(names->names, names->cap, names->nr + 1))
		return -1;
	if (!(names->names[names->nr] = strdup(name)))
		return -1;
	names->idx[slot(names, name)] = names->nr + 1;
	return (long)names->nr++;
}

double pmc__merge_value(const struct merge_file *f, char kind, size_t r, size_t idx)
{
	if (kind == 'e')
		return f->events[idx];
	if (kind == 'm')
		return idx < f->nr_metrics ? f->metrics[idx] : NAN;
	return r < f->nr_regions && f->regions[r] ? f->regions[r][idx] : NAN;
}

static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (why && len)
		vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Whether the file's event list is the first file's, name by name. */
static int check_events(struct pmc_merge *m, char *const *names, size_t n, const char *name,
			char *why, size_t len)
{
	if (!m->nr_files) {
		for (size_t i = 0; i < n; i++) {
			long k = merge_name(&m->events, names[i]);

			if (k < 0)
				return -ENOMEM;
			if ((size_t)k != i)
				return -PMC_E_FORMAT; /* an event twice */
		}
		return 0;
	}
	if (n != m->events.nr)
		return refuse(why, len,
			      "%s counts %zu events, %s counts %zu: merge the files of one "
			      "command line",
			      name, n, m->files[0].path, m->events.nr);
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], m->events.names[i]))
			return refuse(why, len,
				      "%s counts '%s' where %s counts '%s': merge the "
				      "files of one command line",
				      name, names[i], m->files[0].path, m->events.names[i]);
	return 0;
}

/* The file's pmc version and backend against the first file's. */
static int check_same(char **first, const char *mine, const char *what, const char *name,
		      const char *first_name, char *why, size_t len)
{
	if (!mine)
		return -PMC_E_FORMAT;
	if (!*first)
		return (*first = strdup(mine)) ? 0 : -ENOMEM;
	if (strcmp(*first, mine))
		return refuse(why, len,
			      "%s was written by %s %s, %s by %s %s: merge files of one "
			      "%s",
			      name, what, mine, first_name, what, *first, what);
	return 0;
}

/* The file's rank (provenance.mpi, or its order), against the files before it. */
static int check_rank(struct pmc_merge *m, struct merge_file *f, const json_t *prov, char *why,
		      size_t len)
{
	const json_t *mpi = json_object_get(prov, "mpi");
	json_int_t rank = json_integer_value(json_object_get(mpi, "rank"));
	json_int_t size = json_integer_value(json_object_get(mpi, "size"));

	if (m->nr_files && m->tagged != (mpi != NULL))
		return refuse(why, len, "%s %s MPI tags and %s %s: merge the files of one job",
			      f->path, mpi ? "has" : "has no", m->files[0].path,
			      m->tagged ? "has" : "has not");
	m->tagged = mpi != NULL;
	if (!mpi) {
		f->rank = (int)m->nr_files;
		return 0;
	}
	if (!json_is_integer(json_object_get(mpi, "rank")) || rank < 0 || rank > 1 << 30)
		return refuse(why, len, "%s: provenance.mpi.rank is not a rank (an integer from 0)",
			      f->path);
	/* The job's size: -1 (or absent) when unknown, else a count its ranks are below. */
	if (!json_object_get(mpi, "size") || json_is_null(json_object_get(mpi, "size")))
		size = -1;
	else if (!json_is_integer(json_object_get(mpi, "size")) || size < -1 || !size ||
		 size > 1 << 30)
		return refuse(why, len,
			      "%s: provenance.mpi.size is not a job's size (an integer from 1, "
			      "or -1: unknown)",
			      f->path);
	if (size > 0 && rank >= size)
		return refuse(why, len,
			      "%s: provenance.mpi.rank %d is not below provenance.mpi.size %d",
			      f->path, (int)rank, (int)size);
	if (!m->nr_files) {
		const char *l = json_string_value(json_object_get(mpi, "launcher"));

		m->size = (int)size;
		if (l && !(m->launcher = strdup(l)))
			return -ENOMEM;
	} else if (m->size != (int)size) {
		return refuse(why, len, "%s is a rank of %d, %s of %d: merge the files of one job",
			      f->path, (int)size, m->files[0].path, m->size);
	}
	for (size_t i = 0; i < m->nr_files; i++)
		if (m->files[i].rank == rank)
			return refuse(why, len,
				      "%s and %s are both rank %d: merge the files of one "
				      "job",
				      m->files[i].path, f->path, (int)rank);
	f->rank = (int)rank;
	return 0;
}

double *pmc__merge_region_row(struct pmc_merge *m, struct merge_file *f, const char *name, int *err)
{
	long idx = merge_name(&m->regions, name);

	*err = -ENOMEM;
	if (idx < 0)
		return NULL;
	if ((size_t)idx >= f->nr_regions) {
		double **grown = realloc(f->regions, (size_t)(idx + 1) * sizeof(*grown));

		if (!grown)
			return NULL;
		for (size_t z = f->nr_regions; z <= (size_t)idx; z++)
			grown[z] = NULL;
		f->regions = grown;
		f->nr_regions = (size_t)idx + 1;
	}
	if (f->regions[idx]) {
		*err = -PMC_E_FORMAT; /* a region twice */
		return NULL;
	}
	f->regions[idx] = malloc((m->events.nr ? m->events.nr : 1) * sizeof(double));
	if (!f->regions[idx])
		return NULL;
	for (size_t z = 0; z < m->events.nr; z++)
		f->regions[idx][z] = NAN;
	*err = 0;
	return f->regions[idx];
}

int pmc__merge_metric(struct pmc_merge *m, struct merge_file *f, const char *name, double v)
{
	long idx = merge_name(&m->metrics, name);

	if (idx < 0)
		return -ENOMEM;
	if ((size_t)idx >= f->nr_metrics) {
		double *grown = realloc(f->metrics, (size_t)(idx + 1) * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		for (size_t z = f->nr_metrics; z <= (size_t)idx; z++)
			grown[z] = NAN;
		f->metrics = grown;
		f->nr_metrics = (size_t)idx + 1;
	}
	f->metrics[idx] = v;
	return 0;
}

int pmc__merge_check(struct pmc_merge *m, struct merge_file *f, json_t *prov,
		     const struct merge_events *ev, char *why, size_t len)
{
	const char *first = m->nr_files ? m->files[0].path : "";
	int err;

	if (!json_is_object(prov))
		return -PMC_E_FORMAT;
	err = check_same(&m->version, json_string_value(json_object_get(prov, "pmc_version")),
			 "pmc", f->path, first, why, len);
	if (!err)
		err = check_same(&m->backend, json_string_value(json_object_get(prov, "backend")),
				 "backend", f->path, first, why, len);
	if (!err)
		err = check_events(m, ev->names, ev->nr, f->path, why, len);
	if (!err)
		err = check_rank(m, f, prov, why, len);
	if (err)
		return err;
	f->events = malloc((ev->nr ? ev->nr : 1) * sizeof(double));
	if (!f->events)
		return -ENOMEM;
	if (ev->nr)
		memcpy(f->events, ev->values, ev->nr * sizeof(double));
	f->provenance = json_incref(prov);
	return 0;
}

/* A first file refused leaves nothing behind that the next first file would be held to. */
void pmc__merge_forget(struct pmc_merge *m)
{
	names_free(&m->events);
	names_free(&m->metrics);
	names_free(&m->regions);
	m->events = m->metrics = m->regions = (struct merge_names){0};
	free(m->version);
	free(m->backend);
	free(m->launcher);
	m->version = m->backend = m->launcher = NULL;
	m->tagged = false;
	m->size = -1;
}
