/* SPDX-License-Identifier: MIT */
/*
 * The objects a recording's samples fall in (hits.c), for the BUILD_ID feature and the
 * build-id cache: perf record names the build id of each object with samples only.
 */
#ifndef PMC_LIB_RECORD_HITS_H
#define PMC_LIB_RECORD_HITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symbol/addrmap.h"

struct pmc__perfdata_writer;

struct pmc__hit_obj {
	char *name; /* a path, or "[kernel.kallsyms]", or a module's "[name]" */
	bool kernel, hit;
	uint64_t start, end; /* a module's addresses (/proc/modules) */
};

struct pmc__hits {
	bool samples_ok;	   /* every event's samples start id, ip, pid/tid */
	struct pmc__addrmap procs; /* pid -> struct hit_proc (hits.c) */
	struct pmc__hit_obj *objs;
	size_t nr_objs;
	bool kernel_hit, modules_read;
	struct pmc__hit_obj *mods;
	size_t nr_mods;
};

/* Follows one record written to the file: maps, forks, samples. Failures only lose hits. */
void pmc__hits_note(struct pmc__hits *h, const void *rec, size_t len);
/*
 * The build ids of the objects hit, added to the writer (objects without one are left
 * out), and each user object copied to the build-id cache unless no_cache. Failures to
 * cache are logged once. 0, or -ENOMEM.
 */
int pmc__hits_write(struct pmc__hits *h, struct pmc__perfdata_writer *w, bool no_cache);
void pmc__hits_free(struct pmc__hits *h);

#endif /* PMC_LIB_RECORD_HITS_H */
