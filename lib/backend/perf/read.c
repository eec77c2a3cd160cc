// SPDX-License-Identifier: MIT
/*
 * Reading the perf backend's counters: one read(2) per group with PERF_FORMAT_GROUP, or
 * rdpmc through the event's mmap page with the kernel's seqlock protocol when the kernel
 * allows user-space reads (cap_user_rdpmc); read(2) otherwise.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "backend/perf/perf.h"
#include "event/evsel.h"

/* Layout of a PERF_FORMAT_GROUP read with both times: nr, enabled, running, values[nr]. */
struct group_read {
	uint64_t nr, enabled, running, values[];
};

static ssize_t read_fd(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static void add(struct pmc_count *dst, uint64_t v, uint64_t ena, uint64_t run)
{
	dst->value += v;
	dst->time_enabled_ns += ena;
	dst->time_running_ns += run;
}

/* Event idx's values on unit: into the total, and the unit's own where units are kept. */
static void add_unit(struct perf_counting *pc, size_t idx, int unit, uint64_t v, uint64_t ena,
		     uint64_t run)
{
	struct pmc_counting *c = &pc->base;

	add(&c->values[idx], v, ena, run);
	if (c->units_live && unit < c->nr_units)
		add(&c->unit_values[(size_t)unit * c->evlist->nr + idx], v, ena, run);
}

static int read_leader(struct perf_counting *pc, size_t idx, int unit)
{
	struct pmc_evlist *evlist = pc->base.evlist;
	struct pmc_evsel *leader = evlist->entries[idx];
	uint64_t *buf = pc->group_buf;
	struct group_read *g = (struct group_read *)buf;
	ssize_t n;

	if (*perf_fd(pc, idx, unit) < 0)
		return 0; /* a thread that ended before it could be opened (skip_gone) */
	if (!pc->grouped[idx]) {
		n = read_fd(*perf_fd(pc, idx, unit), buf, 3 * sizeof(uint64_t));
		if (n < 0)
			return (int)n;
		add_unit(pc, idx, unit, buf[0], buf[1], buf[2]);
		return 0;
	}
	n = read_fd(*perf_fd(pc, idx, unit), buf, pc->group_words * sizeof(*buf));
	if (n < 0)
		return (int)n;
	if (g->nr != leader->nr_members || (size_t)n < (3 + g->nr) * sizeof(uint64_t))
		return -EIO;
	for (size_t m = 0; m < g->nr; m++)
		add_unit(pc, idx + m, unit, g->values[m], g->enabled, g->running);
	return 0;
}

int pmc__perf_read(struct pmc_counting *c)
{
	struct perf_counting *pc = to_perf(c);
	struct pmc_evlist *evlist = c->evlist;

	memset(c->values, 0, evlist->nr * sizeof(*c->values));
	if (c->units_live)
		memset(c->unit_values, 0,
		       (size_t)c->nr_units * evlist->nr * sizeof(*c->unit_values));
	for (size_t i = 0; i < evlist->nr; i++) {
		struct pmc_evsel *ev = evlist->entries[i];
		/* Members of a grouped leader arrive with the leader's read. */
		bool by_leader = ev->leader != ev && pc->grouped[ev->leader->idx];

		if (!c->open[i] || by_leader)
			continue;
		for (int u = 0; u < pc->nr_units; u++) {
			int err = read_leader(pc, i, u);

			if (err)
				return err;
		}
	}
	return pc->threads ? pmc__perf_threads_read(pc) : 0;
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (uint64_t)hi << 32;
}

/*
 * The seqlock protocol of struct perf_event_mmap_page: retry while the kernel updates
 * the page; index 0 means the event is not on a counter now and read(2) must be used.
 */
static int read_page(struct perf_event_mmap_page *pg, struct pmc_count *out)
{
	uint32_t seq, idx;
	uint64_t count, enabled, running;

	do {
		seq = __atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE);
		idx = pg->index;
		enabled = pg->time_enabled;
		running = pg->time_running;
		count = (uint64_t)pg->offset;
		if (!pg->cap_user_rdpmc || !idx)
			return -EAGAIN;
		{
			uint64_t pmc = rdpmc(idx - 1);
			unsigned width = pg->pmc_width;

			pmc <<= 64 - width;
			count += (uint64_t)((int64_t)pmc >> (64 - width));
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE) != seq);
	out->value = count;
	out->time_enabled_ns = enabled;
	out->time_running_ns = running;
	return 0;
}
#else
static int read_page(struct perf_event_mmap_page *pg, struct pmc_count *out)
{
	return -EAGAIN;
}
#endif

/* Every member through rdpmc, or -EAGAIN when any of them cannot be. */
static int read_group_rdpmc(struct perf_counting *pc, size_t idx, size_t n,
			    struct pmc_count *values)
{
	for (size_t m = 0; m < n; m++) {
		struct perf_event_mmap_page *pg = pc->pages[idx + m];

		if (!pg || !pg->cap_user_rdpmc || read_page(pg, &values[m]))
			return -EAGAIN;
	}
	return 0;
}

int pmc__perf_read_group(struct pmc_counting *c, const struct pmc_evsel *leader,
			 struct pmc_count *values, size_t nr)
{
	struct perf_counting *pc = to_perf(c);
	size_t idx = leader->idx, n = leader->nr_members;
	uint64_t *buf = pc->group_buf;
	struct group_read *g = (struct group_read *)buf;
	ssize_t got;

	if (pc->nr_units != 1)
		return -EOPNOTSUPP;
	if (nr < n)
		return -ENOSPC;
	if (pc->pages[idx] && !read_group_rdpmc(pc, idx, n, values))
		return (int)n;
	if (!pc->grouped[idx]) {
		for (size_t m = 0; m < n; m++) {
			got = read_fd(*perf_fd(pc, idx + m, 0), buf, 3 * sizeof(uint64_t));
			if (got < 0)
				return (int)got;
			values[m] = (struct pmc_count){buf[0], buf[1], buf[2]};
		}
		return (int)n;
	}
	got = read_fd(*perf_fd(pc, idx, 0), buf, pc->group_words * sizeof(*buf));
	if (got < 0)
		return (int)got;
	if (g->nr != n)
		return -EIO;
	for (size_t m = 0; m < n; m++)
		values[m] = (struct pmc_count){g->values[m], g->enabled, g->running};
	return (int)n;
}
