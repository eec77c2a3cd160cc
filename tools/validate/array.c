// SPDX-License-Identifier: MIT
/*
 * pmc-kernels' memory kernels (docs/accuracy.md, "The array kernels"): N passes over an array
 * whose footprint is set against the caches, and the misses each pass predicts.
 *
 * Under vpmu (array-l1, array-l2, array-llc, array-mem): one load per cache line, in address
 * order, over a mapping whose footprint fits in the named level (half its size) or, for array-mem,
 * is twice the last level. The model's caches are LRU and set-associative with no prefetcher, so a
 * level whose every set receives more lines per pass than it has ways misses on every access, and
 * one whose every set receives no more than its ways misses only on the first pass: the misses per
 * pass follow from the geometry exactly. The geometry is the tool's own, read from its presets when
 * pmc is built (vpmu-geometry.cmake), for the preset $PMC_VPMU_PRESET names (nehalem by default, as
 * the tool).
 *
 * On real hardware (chase-l1, chase-l2, chase-llc, chase-mem): prefetchers and replacement
 * policies that are not LRU make a strided scan unpredictable, so these chase pointers through
 * a random cyclic permutation of the lines, sized from this machine's caches in sysfs, and
 * predict only the extremes: fitting in L1, no miss per pass; four times the last level, one
 * L1 and one last-level miss per access. The sizes between are listed with no prediction:
 * reported, not classified.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "kernels.h"

struct level {
	long size, ways, line; /* ways 0: fully associative; size 0: no such level */
};

struct geom {
	const char *preset;
	struct level l[3]; /* L1D, L2, LLC */
};

#define PMC_KERNELS_GEOM(p, s1, w1, l1, s2, w2, l2, s3, w3, l3) \
	{p, {{s1, w1, l1}, {s2, w2, l2}, {s3, w3, l3}}},
static const struct geom presets[] = {
#include "pmc-kernels-geom.h"
	{NULL, {{0}}},
};
#undef PMC_KERNELS_GEOM

static const char *const levels[] = {"l1", "l2", "llc", "mem"};

/* The preset vpmu runs with: $PMC_VPMU_PRESET, else the tool's default, nehalem. */
static const struct geom *vpmu_geom(void)
{
	const char *p = getenv("PMC_VPMU_PRESET");

	for (size_t i = 0; presets[i].preset; i++)
		if (!strcmp(presets[i].preset, p && *p ? p : "nehalem"))
			return &presets[i];
	return NULL;
}

/* The first word of sysfs file `name` of cache index i: 0 when there is none. */
static long sysfs_cache(int i, const char *name, char *word, size_t len)
{
	char path[96];
	FILE *f;
	long v = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/%s", i, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(word, (int)len, f)) {
		word[strcspn(word, "\n")] = '\0';
		v = strtol(word, NULL, 10);
	}
	fclose(f);
	return v;
}

/* This machine's L1D, L2 and last level, from sysfs; false when it does not say. */
static bool host_geom(struct geom *g)
{
	char word[32];

	*g = (struct geom){"host", {{0}}};
	for (int i = 0; i < 8; i++) {
		long lv = sysfs_cache(i, "level", word, sizeof(word)), size, line;

		if (!lv)
			break;
		size = sysfs_cache(i, "size", word, sizeof(word)); /* "32K" */
		line = sysfs_cache(i, "coherency_line_size", word, sizeof(word));
		sysfs_cache(i, "type", word, sizeof(word));
		if (!strcmp(word, "Instruction") || size <= 0)
			continue;
		g->l[lv >= 3 ? 2 : lv - 1] = (struct level){size * 1024, 0, line > 0 ? line : 64};
	}
	return g->l[0].size > 0 && g->l[2].size > g->l[0].size;
}

/* A kernel's footprint in bytes: half the level it names, or twice (chase: four times) the
 * last level; 0 when the geometry has no such level. */
static long footprint(const struct geom *g, int which, bool chase)
{
	int last = g->l[2].size ? 2 : 1;

	if (which == 3)
		return g->l[last].size * (chase ? 4 : 2);
	return which <= last ? g->l[which].size / 2 : 0;
}

/*
 * Misses per pass at each level of a scan over `lines` consecutive lines, or -1 for a
 * footprint the rule does not decide (some sets over their ways, some not). A level sees a
 * pass's accesses only when the level above misses them all.
 */
static int scan_misses(const struct geom *g, long lines, long out[3])
{
	bool sees_all = true;

	for (int i = 0; i < 3; i++) {
		const struct level *lv = &g->l[i];
		long ways = lv->ways ? lv->ways : lv->size / lv->line;
		long sets = lv->size / lv->line / ways, q = lines / sets, r = lines % sets;

		out[i] = 0;
		if (!lv->size || !sees_all || q + (r > 0) <= ways) {
			sees_all = false;
			continue;
		}
		if (q <= ways || lv->line != g->l[0].line)
			return -1;
		out[i] = lines;
	}
	return 0;
}

static void list_array(const struct geom *g)
{
	for (int w = 0; w < 4; w++) {
		long bytes = footprint(g, w, false), line = g->l[0].line, lines = bytes / line;
		long m[3];
		char name[16];

		if (!bytes || scan_misses(g, lines, m))
			continue;
		snprintf(name, sizeof(name), "array-%s", levels[w]);
		/* per pass: 2 + 4 per line + 2 instructions, a load and a branch per line + 1 */
		kernels_print(name, "instructions", 4.0 * lines + 4, "-", "1,2,3,4", "1,2,3",
			      "vpmu");
		kernels_print(name, "loads", lines, "-", "1,2,3,4", "1,2,3", "vpmu");
		kernels_print(name, "L1-dcache-load-misses", m[0], "-", "1,2,3,4", "1,2,3", "vpmu");
		kernels_print(name, "L2_RQSTS.LD_MISS", m[1], "-", "1,2,3,4", "1,2,3", "vpmu");
		if (g->l[2].size) {
			kernels_print(name, "LLC-load-misses", m[2], "-", "1,2,3,4", "1,2,3",
				      "vpmu");
			kernels_print(name, "cache-misses", m[2], "-", "1,2,3,4", "1,2,3", "vpmu");
		}
	}
}

static void list_chase(const struct geom *g)
{
	for (int w = 0; w < 4; w++) {
		long lines = footprint(g, w, true) / g->l[0].line;
		double l1 = w == 0 ? 0 : w == 3 ? (double)lines : NAN, llc = l1;
		char name[16];

		if (!lines)
			continue;
		snprintf(name, sizeof(name), "chase-%s", levels[w]);
		kernels_print(name, "L1-dcache-load-misses", l1, "-", "1,2,3", "1,2", "perf");
		kernels_print(name, "LLC-load-misses", llc, "-", "1,2,3", "1,2", "perf");
	}
}

void array_list(void)
{
	const struct geom *v = vpmu_geom();
	struct geom h;

	if (v)
		list_array(v);
	if (host_geom(&h))
		list_chase(&h);
}

/* passes x {one load per line, `stride` bytes apart}: the instructions list_array counts. */
static void scan(const char *base, long lines, long stride, long passes)
{
	__asm__ volatile("test %0,%0; jz 3f\n"
			 "1: mov %1,%%rsi; mov %2,%%rcx\n"
			 "2: mov (%%rsi),%%rax; add %3,%%rsi; dec %%rcx; jnz 2b\n"
			 "dec %0; jnz 1b\n"
			 "3:"
			 : "+r"(passes)
			 : "r"(base), "r"(lines), "r"(stride)
			 : "rax", "rsi", "rcx", "cc", "memory");
}

/* passes x lines loads, each line's first word holding the address of the next (Sattolo's
 * shuffle of the lines, from a fixed seed: one cycle through them all, the same every run). */
static int chase(long bytes, long line, long passes)
{
	long lines = bytes / line;
	char *buf = aligned_alloc(4096, (size_t)bytes);
	long *order = malloc((size_t)lines * sizeof(*order));
	uint64_t rng = 0x9e3779b97f4a7c15u;
	void *volatile *p;

	if (!buf || !order)
		return 1;
	for (long i = 0; i < lines; i++)
		order[i] = i;
	for (long i = lines - 1; i > 0; i--) {
		long j, t;

		rng = rng * 6364136223846793005u + 1442695040888963407u;
		j = (long)((rng >> 33) % (uint64_t)i);
		t = order[i], order[i] = order[j], order[j] = t;
	}
	for (long i = 0; i < lines; i++)
		*(void **)(buf + order[i] * line) = buf + order[(i + 1) % lines] * line;
	p = (void *volatile *)buf;
	for (long i = 0; i < passes * lines; i++)
		p = (void *volatile *)*p;
	free(order);
	free(buf);
	return 0;
}

int array_run(const char *name, long n)
{
	const struct geom *v = vpmu_geom();
	struct geom h;
	bool is_chase = !strncmp(name, "chase-", 6);
	char *buf;

	if (strncmp(name, "array-", 6) && !is_chase)
		return -1;
	for (int w = 0; w < 4; w++) {
		const struct geom *g = is_chase ? (host_geom(&h) ? &h : NULL) : v;
		long bytes = g ? footprint(g, w, is_chase) : 0;

		if (strcmp(name + 6, levels[w]))
			continue;
		if (!bytes) {
			fprintf(stderr, "pmc-kernels: %s: no such cache level here\n", name);
			return 2;
		}
		if (is_chase)
			return chase(bytes, g->l[0].line, n);
		/* mapped, not in .bss: the breakpoint kernel's variable keeps its place */
		buf = mmap(NULL, (size_t)bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (buf == MAP_FAILED)
			return 1;
		scan(buf, bytes / g->l[0].line, g->l[0].line, n);
		return 0;
	}
	return -1;
}
