// SPDX-License-Identifier: MIT
/*
 * A report of several files (the ranks of an MPI job, docs/mpi.md): each file is read with a
 * machine of its own (process ids of different hosts may be equal) into the same histogram,
 * so that entries with equal keys sum their periods; the sort key rank tells them apart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "report/report.h"

/*
 * A file's rank: the number after the last "rank-" of its name (pmc record's file name under a
 * launcher, PATH.rank-%r), else its place among the files read, from 0.
 */
static uint64_t file_rank(const char *path, size_t idx)
{
	const char *base = strrchr(path, '/'), *p, *tag = NULL;
	uint64_t v = 0;
	size_t n = 0;

	base = base ? base + 1 : path;
	for (p = strstr(base, "rank-"); p; p = strstr(p + 1, "rank-"))
		tag = p + 5;
	if (!tag)
		return idx;
	while (tag[n] >= '0' && tag[n] <= '9' && n < 10)
		v = v * 10 + (uint64_t)(tag[n++] - '0');
	return n && (tag[n] < '0' || tag[n] > '9') ? v : idx;
}

int pmc__report_next_file(struct pmc_report *r, const char *path)
{
	struct rfile *v;
	char *joined;
	size_t len;
	int ret;

	if (r->f) {
		v = realloc(r->files, (r->nr_files + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		r->files = v;
		/* Entries keep pointers to the threads of the file they came from. */
		v[r->nr_files++] = (struct rfile){r->f, r->m};
		r->f = NULL;
		r->m = NULL;
		r->last_thread = NULL;
		pmc__report_frames_free(r);
		pmc__unwind_free(&r->unwind);
		ret = pmc__machine_new(r->st, &r->m);
		if (ret)
			return ret;
	}
	r->rank = file_rank(path, r->nr_files);
	len = (r->path ? strlen(r->path) + 2 : 0) + strlen(path) + 1;
	joined = malloc(len);
	if (!joined)
		return -ENOMEM;
	snprintf(joined, len, "%s%s%s", r->path ? r->path : "", r->path ? ", " : "", path);
	free(r->path);
	r->path = joined;
	return 0;
}

int pmc__report_check_events(struct pmc_report *r, struct pmc_file_error *err)
{
	size_t n = pmc__perfdata_nr_attrs(r->f);

	for (size_t i = 0; i < n || i < r->nr_attrs; i++) {
		const char *name = i < n ? pmc__perfdata_attr_name(r->f, i) : NULL;
		if (i < n && i < r->nr_attrs && name && !strcmp(name, r->names[i])) {
			r->has_callchains |= !!(pmc__perfdata_attr(r->f, i)->sample_type &
						PERF_SAMPLE_CALLCHAIN);
			continue;
		}
		if (err) {
			err->offset = 0;
			snprintf(err->msg, sizeof(err->msg),
				 "its events differ from the first file's (event %zu is '%s', not "
				 "'%s'): a report of several files needs the same events in the "
				 "same order",
				 i + 1, i < n && name ? name : "none",
				 i < r->nr_attrs ? r->names[i] : "none");
		}
		return -PMC_E_CONFIG;
	}
	return 0;
}

void pmc__report_files_free(struct pmc_report *r)
{
	for (size_t i = 0; i < r->nr_files; i++) {
		pmc__perfdata_close(r->files[i].f);
		pmc__machine_delete(r->files[i].m);
	}
	free(r->files);
	r->files = NULL;
	r->nr_files = 0;
}
