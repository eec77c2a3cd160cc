// SPDX-License-Identifier: MIT
/*
 * Which objects a recording's samples fall in (hits.h), as perf record marks them before it
 * writes their build ids: the file maps of each process (MMAP and MMAP2 records, written
 * or synthesized), a forked child's looked up in its parent's until it maps its own, the
 * kernel's samples in [kernel.kallsyms] or in the module /proc/modules places them in.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/grow.h"
#include "core/log.h"
#include "perfdata/records.h"
#include "record/hits.h"
#include "symbol/buildid.h"

struct hit_map {
	uint64_t start, end;
	size_t obj;
};

struct hit_proc {
	uint32_t ppid; /* the parent, whose maps a child shares until it maps its own */
	bool has_parent;
	struct hit_map *maps;
	size_t nr, cap;
};

static struct hit_proc *get_proc(struct pmc__hits *h, uint32_t pid)
{
	struct hit_proc *p = pmc__addrmap_get(&h->procs, pid);

	if (p || !(p = calloc(1, sizeof(*p))))
		return p;
	if (pmc__addrmap_put(&h->procs, pid, p)) {
		free(p);
		return NULL;
	}
	return p;
}

/* The object's index, added where new; or -1. */
static long get_obj(struct pmc__hits *h, const char *name)
{
	struct pmc__hit_obj *v;

	for (size_t i = h->nr_objs; i-- > 0;)
		if (!strcmp(h->objs[i].name, name))
			return (long)i;
	v = realloc(h->objs, (h->nr_objs + 1) * sizeof(*v));
	if (!v)
		return -1;
	h->objs = v;
	v[h->nr_objs] = (struct pmc__hit_obj){.name = strdup(name)};
	return v[h->nr_objs].name ? (long)h->nr_objs++ : -1;
}

/* A file map of code (MMAP, MMAP2): its process, range and file. */
static void note_mmap(struct pmc__hits *h, const struct pmc__record *r)
{
	struct hit_proc *proc;
	long obj;

	if (r->misc & PERF_RECORD_MISC_MMAP_DATA || r->str[0] != '/')
		return; /* data, the kernel's (its samples are placed by mode), anonymous */
	proc = get_proc(h, r->pid);
	obj = proc ? get_obj(h, r->str) : -1;
	if (obj < 0)
		return;
	if (PMC_ENSURE(proc->maps, proc->cap, proc->nr + 1))
		return;
	proc->maps[proc->nr++] = (struct hit_map){r->start, r->start + r->len, (size_t)obj};
}

static void note_fork(struct pmc__hits *h, const struct pmc__record *r)
{
	struct hit_proc *p;

	if (r->pid != r->ppid && (p = get_proc(h, r->pid)) && !p->nr) {
		p->ppid = r->ppid;
		p->has_parent = true;
	}
}

/* /proc/modules: "name size refs deps state 0xADDR"; addresses are 0 unless permitted. */
static void read_modules(struct pmc__hits *h)
{
	FILE *f = fopen("/proc/modules", "re");
	char line[512], name[64];
	uint64_t size, addr;

	h->modules_read = true;
	while (f && fgets(line, sizeof(line), f)) {
		struct pmc__hit_obj *v;
		if (sscanf(line, "%63s %" SCNu64 " %*s %*s %*s %" SCNx64, name, &size, &addr) !=
			    3 ||
		    !addr || !(v = realloc(h->mods, (h->nr_mods + 1) * sizeof(*v))))
			continue;
		h->mods = v;
		v[h->nr_mods] = (struct pmc__hit_obj){
			.name = strdup(name), .kernel = true, .start = addr, .end = addr + size};
		h->nr_mods += v[h->nr_mods].name != NULL;
	}
	if (f)
		fclose(f);
}

static void note_kernel(struct pmc__hits *h, uint64_t ip)
{
	if (!h->modules_read)
		read_modules(h);
	for (size_t i = 0; i < h->nr_mods; i++)
		if (ip >= h->mods[i].start && ip < h->mods[i].end) {
			h->mods[i].hit = true;
			return;
		}
	h->kernel_hit = true;
}

static void note_sample(struct pmc__hits *h, const struct perf_event_header *hd)
{
	uint64_t ip;
	uint32_t pid;
	struct hit_proc *p;
	unsigned mode = hd->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (!h->samples_ok || hd->size < 32)
		return;
	memcpy(&ip, (const uint8_t *)hd + 16, 8);
	memcpy(&pid, (const uint8_t *)hd + 24, 4);
	if (mode == PERF_RECORD_MISC_KERNEL) {
		note_kernel(h, ip);
		return;
	}
	/* a few generations of parents: a child runs its parent's code until it execs */
	p = pmc__addrmap_get(&h->procs, pid);
	for (int gen = 0; p && gen < 8; gen++) {
		for (size_t i = p->nr; i-- > 0;)
			if (ip >= p->maps[i].start && ip < p->maps[i].end) {
				h->objs[p->maps[i].obj].hit = true;
				return;
			}
		p = p->has_parent ? pmc__addrmap_get(&h->procs, p->ppid) : NULL;
	}
}

void pmc__hits_note(struct pmc__hits *h, const void *rec, size_t len)
{
	const struct perf_event_header *hd = rec;
	struct pmc__record r;

	if (len < sizeof(*hd) || hd->size > len)
		return;
	if (hd->type == PERF_RECORD_SAMPLE) {
		note_sample(h, hd);
		return;
	}
	if (hd->type != PERF_RECORD_MMAP && hd->type != PERF_RECORD_MMAP2 &&
	    hd->type != PERF_RECORD_FORK)
		return;
	/* The records of several events, whose trailers may differ: their own fields alone. */
	if (pmc__record_decode(NULL, rec, hd->size, &r, NULL))
		return;
	if (r.type == PERF_RECORD_FORK)
		note_fork(h, &r);
	else
		note_mmap(h, &r);
}

/* A copy not kept is said once a recording (a rebuilt object is not copied: no warning). */
static void cache_warn(int err, const char *what, bool *warned)
{
	if (!err || err == -ESTALE || err == -EPERM || *warned)
		return;
	*warned = true;
	pr_warn("cannot keep a copy of %s in the build-id cache (%s): a report after it is "
		"rebuilt cannot name its samples\n",
		what, pmc_strerror(err));
}

/* One user object: its build id in the file, its copy in the cache. */
static int write_obj(const struct pmc__hit_obj *o, struct pmc__perfdata_writer *w, bool no_cache,
		     bool *warned)
{
	char hex[PMC_BUILD_ID_HEX];
	int ret;

	if (pmc__build_id_of_file(o->name, hex))
		return 0; /* gone, unreadable, or without a build id: perf leaves it out too */
	ret = pmc__perfdata_writer_add_build_id(w, o->name, hex, false);
	if (ret || no_cache)
		return ret == -ENOMEM ? ret : 0;
	cache_warn(pmc__buildid_cache_add(o->name, hex), o->name, warned);
	return 0;
}

int pmc__hits_write(struct pmc__hits *h, struct pmc__perfdata_writer *w, bool no_cache)
{
	char hex[PMC_BUILD_ID_HEX], name[80];
	bool warned = false;
	int ret = 0;

	if (h->kernel_hit && !pmc__build_id_of_kernel(hex)) {
		ret = pmc__perfdata_writer_add_build_id(w, "[kernel.kallsyms]", hex, true);
		if (!ret && !no_cache)
			cache_warn(pmc__buildid_cache_add_kallsyms(hex), "the kernel's symbols",
				   &warned);
	}
	for (size_t i = 0; !ret && i < h->nr_mods; i++) {
		if (!h->mods[i].hit || pmc__build_id_of_module(h->mods[i].name, hex))
			continue;
		snprintf(name, sizeof(name), "[%s]", h->mods[i].name);
		ret = pmc__perfdata_writer_add_build_id(w, name, hex, true);
	}
	for (size_t i = 0; !ret && i < h->nr_objs; i++)
		if (h->objs[i].hit)
			ret = write_obj(&h->objs[i], w, no_cache, &warned);
	return ret == -ENOMEM ? ret : 0;
}

void pmc__hits_free(struct pmc__hits *h)
{
	for (size_t i = 0; i < h->procs.cap; i++) {
		struct hit_proc *p = h->procs.vals[i];
		if (p)
			free(p->maps);
		free(p);
	}
	pmc__addrmap_free(&h->procs);
	for (size_t i = 0; i < h->nr_objs; i++)
		free(h->objs[i].name);
	for (size_t i = 0; i < h->nr_mods; i++)
		free(h->mods[i].name);
	free(h->objs);
	free(h->mods);
	memset(h, 0, sizeof(*h));
}
