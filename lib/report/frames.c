// SPDX-License-Identifier: MIT
/* pmc report: a sample's frames, each address resolved once per process while its maps hold. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

/*
 * Resolving an address takes a map lookup (a binary search over the process's maps), the
 * map's file offset turned into a file virtual address, and the DSO's address cache; call
 * chains repeat the same few addresses millions of times. So each process keeps a table
 * from (address, kernel) to the frame it resolved to, and for which times the answer holds
 * (maps are born and die at times, pmc__machine_find_span). The table is emptied when the
 * process's maps change (pmc__proc.version, anonymous maps included), so an answer is never
 * reused across a change. The frame carries the DSO and the pmc__symres, which holds the
 * symbol, source line and inline the sort keys need: a hit costs one hash probe.
 */
struct fslot {
	uint64_t addr;
	uint64_t lo, hi; /* sample times for which the frame holds */
	struct rframe f; /* f.res == NULL: an empty slot */
};

struct fcache {
	uint32_t pid;
	const struct pmc__proc *proc; /* NULL until the process has maps */
	uint64_t version;	      /* proc->version the slots were filled under */
	struct fslot *slots;	      /* [cap], cap a power of 2 */
	size_t cap, nr;
};

static struct rframe resolve_map(struct pmc_report *r, uint32_t pid, uint64_t addr, uint64_t time,
				 uint64_t *lo, uint64_t *hi)
{
	struct rframe f = {0};
	const struct pmc__map *map = pmc__machine_find_span(r->m, pid, addr, time, lo, hi);

	if (map) {
		f.dso = map->dso;
		f.res = pmc__dso_resolve(
			f.dso, pmc__dso_offset_to_vaddr(f.dso, addr - map->start + map->pgoff));
		return f;
	}
	if (!r->unknown_dso)
		r->unknown_dso = pmc__symtab_dso(r->st, "[unknown]");
	f.dso = r->unknown_dso;
	f.res = f.dso ? pmc__dso_resolve(f.dso, addr) : NULL;
	return f;
}

static struct rframe resolve_uncached(struct pmc_report *r, uint32_t pid, uint64_t addr,
				      bool kernel, uint64_t time, uint64_t *lo, uint64_t *hi)
{
	struct rframe f = {.kernel = true};

	if (!kernel)
		return resolve_map(r, pid, addr, time, lo, hi);
	/* Kernel addresses resolve with kallsyms, the same in every process and at any time. */
	*lo = 0;
	*hi = UINT64_MAX;
	f.dso = pmc__symtab_kernel(r->st);
	f.res = f.dso ? pmc__dso_resolve(f.dso, addr) : NULL;
	return f;
}

static int fcache_grow(struct fcache *fc)
{
	size_t cap = fc->cap ? fc->cap * 2 : 64;
	struct fslot *v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < fc->cap; i++) {
		const struct fslot *s = &fc->slots[i];
		size_t j = pmc__addrmap_hash(s->addr) & (cap - 1);
		if (!s->f.res)
			continue;
		while (v[j].f.res)
			j = (j + 1) & (cap - 1);
		v[j] = *s;
	}
	free(fc->slots);
	fc->slots = v;
	fc->cap = cap;
	return 0;
}

/* The cache of pid, emptied first if the process's maps changed since it was filled. */
static struct fcache *fcache_get(struct pmc_report *r, uint32_t pid)
{
	struct fcache *fc = r->last_fc;
	uint64_t version;

	if (!fc || fc->pid != pid) {
		fc = pmc__addrmap_get(&r->fcaches, pid);
		if (!fc) {
			fc = calloc(1, sizeof(*fc));
			if (!fc || pmc__addrmap_put(&r->fcaches, pid, fc)) {
				free(fc);
				return NULL;
			}
			fc->pid = pid;
		}
		r->last_fc = fc;
	}
	if (!fc->proc)
		fc->proc = pmc__machine_proc(r->m, pid);
	version = fc->proc ? fc->proc->version : 0;
	if (version != fc->version) {
		if (fc->nr)
			memset(fc->slots, 0, fc->cap * sizeof(*fc->slots));
		fc->nr = 0;
		fc->version = version;
	}
	return fc;
}

/* resolve()'s miss: grows the table when needed, resolves addr and keeps the answer. */
static __attribute__((noinline)) bool resolve_miss(struct pmc_report *r, struct fcache *fc,
						   uint64_t addr, bool kernel, uint64_t time,
						   struct rframe *f)
{
	struct fslot *s;
	uint64_t lo, hi;
	size_t i;

	if (!fc->cap || fc->nr * 2 >= fc->cap) {
		if (fcache_grow(fc)) {
			*f = resolve_uncached(r, fc->pid, addr, kernel, time, &lo, &hi);
			return f->res != NULL;
		}
	}
	for (i = pmc__addrmap_hash(addr) & (fc->cap - 1);; i = (i + 1) & (fc->cap - 1)) {
		s = &fc->slots[i];
		if (!s->f.res || (s->addr == addr && s->f.kernel == kernel))
			break;
	}
	*f = resolve_uncached(r, fc->pid, addr, kernel, time, &lo, &hi);
	if (!f->res)
		return false;
	fc->nr += !s->f.res;
	*s = (struct fslot){addr, lo, hi, *f};
	return true;
}

/*
 * Resolves addr into *f; false when it cannot (out of memory). The frame is written in
 * place rather than returned: a returned struct was stored in halves and read back whole,
 * a store-forwarding stall on every frame. A hit (nearly every frame) is inlined into the
 * caller; everything else is resolve_miss's.
 */
static inline bool resolve(struct pmc_report *r, struct fcache *fc, uint64_t addr, bool kernel,
			   uint64_t time, struct rframe *f)
{
	for (size_t i = pmc__addrmap_hash(addr) & (fc->cap - 1); fc->cap;
	     i = (i + 1) & (fc->cap - 1)) {
		const struct fslot *s = &fc->slots[i];
		if (!s->f.res)
			break;
		if (s->addr == addr && s->f.kernel == kernel) {
			if (time < s->lo || time >= s->hi)
				break;
			*f = s->f;
			return true;
		}
	}
	return resolve_miss(r, fc, addr, kernel, time, f);
}

static bool is_kernel_mode(uint16_t misc)
{
	uint16_t m = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return m == PERF_RECORD_MISC_KERNEL || m == PERF_RECORD_MISC_GUEST_KERNEL;
}

/*
 * x86-64's canonical addresses: bits 63 to 47 all equal. A frame-pointer walk through code
 * built without frame pointers reads saved registers and data as return addresses
 * (0x8348e5894854ffff is code bytes); the first address no process can hold ends the chain.
 */
static bool canonical(uint64_t addr)
{
	int64_t top = (int64_t)addr >> 47;

	return top == 0 || top == -1;
}

/* The one "[unknown]" frame that stands for callers outside every map. */
static const struct pmc__symres *unknown_res(struct pmc_report *r)
{
	if (!r->unknown_sym.name) {
		r->unknown_sym = (struct pmc__sym){.dso = r->unknown_dso,
						   .name = pmc__symtab_intern(r->st, "[unknown]"),
						   .unnamed = true};
		r->unknown_res = (struct pmc__symres){.sym = &r->unknown_sym};
	}
	return r->unknown_sym.name ? &r->unknown_res : NULL;
}

/*
 * Keeps the caller just resolved into fr[n] (returns 1) or not (0), as perf does: a caller
 * outside every map is "[unknown]", and a run of them one frame; with --hide-unresolved
 * no caller without a symbol is kept. The sampled address (fr[0]) keeps its own name.
 * Inlined: it runs for every caller of every sample, and nearly always returns 1 at once.
 */
static inline __attribute__((always_inline)) size_t keep_caller(struct pmc_report *r,
								struct rframe *fr, size_t n)
{
	struct rframe *f = &fr[n];

	if (r->opts.hide_unresolved && f->res->sym->unnamed)
		return 0;
	if (f->kernel || f->dso != r->unknown_dso)
		return 1;
	if (n && fr[n - 1].res == &r->unknown_res)
		return 0;
	f->res = unknown_res(r);
	return f->res != NULL;
}

/* User frames unwound from the sample's stack copy, appended after the n frames in fr. */
static size_t unwound_frames(struct pmc_report *r, struct fcache *fc, const struct pmc__sample *s,
			     struct rframe *fr, size_t n)
{
	uint64_t pcs[MAX_FRAMES];
	size_t nu = pmc__unwind_user(&r->unwind, r->m, s, pcs, MAX_FRAMES - n);
	/* A user-mode sample's first unwound pc is the sampled ip, already in fr[0]. */
	size_t skip = !is_kernel_mode(s->misc) && nu && n == 1 ? 1 : 0;

	for (size_t i = skip; i < nu; i++) {
		if (resolve(r, fc, i ? pcs[i] - 1 : pcs[i], false, s->time, &fr[n]))
			n += n ? keep_caller(r, fr, n) : 1;
	}
	r->nr_unwound += nu > 1;
	return n;
}

size_t pmc__report_frames(struct pmc_report *r, const struct pmc__sample *s, struct rframe *fr)
{
	struct fcache *fc = fcache_get(r, s->pid);
	bool kernel = is_kernel_mode(s->misc);
	size_t n = 0, real = 0;

	if (!fc)
		return 0;
	for (uint64_t i = 0; i < s->nr_callchain && n < MAX_FRAMES; i++) {
		uint64_t ip = s->callchain[i];
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (!ip)
			continue; /* where a frame-pointer walk ran off the stack: no frame */
		if (!canonical(ip))
			break;
		/* Return addresses point after the call; the call itself is one byte back. */
		if (resolve(r, fc, real ? ip - 1 : ip, kernel, s->time, &fr[n]))
			n += real ? keep_caller(r, fr, n) : 1;
		real++;
	}
	if (!n)
		n = resolve(r, fc, s->ip, is_kernel_mode(s->misc), s->time, &fr[0]);
	if (s->user_stack_size && s->user_regs_abi && n < MAX_FRAMES)
		n = unwound_frames(r, fc, s, fr, n);
	return n;
}

void pmc__report_frames_free(struct pmc_report *r)
{
	for (size_t i = 0; i < r->fcaches.cap; i++) {
		struct fcache *fc = r->fcaches.vals[i];
		if (fc)
			free(fc->slots);
		free(fc);
	}
	pmc__addrmap_free(&r->fcaches);
	r->last_fc = NULL;
}

bool pmc__report_resolve(struct pmc_report *r, uint32_t pid, uint64_t addr, uint64_t time,
			 struct rframe *f)
{
	struct fcache *fc = fcache_get(r, pid);

	return fc && resolve(r, fc, addr, (int64_t)addr < 0, time, f);
}
