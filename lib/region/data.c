// SPDX-License-Identifier: MIT
/* The results of region records: a runner's results file split into its pass header, arena
 * and records, each record merged by region name (the getters are in data-get.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/grow.h"
#include "region/arena.h"
#include "region/data.h"
#include "region/proto.h"

#define CELL(d) (RD_HDR + (d)->nr_events)

int pmc_region_data__new(struct pmc_region_data **out)
{
	struct pmc_region_data *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	*out = d;
	return 0;
}

void pmc_region_data__delete(struct pmc_region_data *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr_events; i++)
		free(d->events[i]);
	for (size_t i = 0; i < d->nr_regions; i++) {
		free(d->regions[i].name);
		free(d->regions[i].cells);
		free(d->regions[i].total);
	}
	free(d->events);
	free(d->regions);
	free(d->threads);
	free(d->region_order);
	free(d->thread_order);
	free(d->started);
	free(d->reported);
	free(d);
}

static long find_region(const struct pmc_region_data *d, const char *name)
{
	for (size_t i = 0; i < d->nr_regions; i++)
		if (!strcmp(d->regions[i].name, name))
			return (long)i;
	return -1;
}

/* Room for need threads, in the thread table and every region's cells (doubled, the new
 * cells zeroed); never loses data, may fail half-way (cap_threads then stays the old one). */
static int reserve_threads(struct pmc_region_data *d, size_t need)
{
	size_t cap = d->cap_threads ? d->cap_threads : 4;
	void *p;

	if (need <= d->cap_threads)
		return 0;
	while (cap < need)
		cap *= 2;
	p = realloc(d->threads, cap * sizeof(*d->threads));
	if (!p)
		return -ENOMEM;
	d->threads = p;
	for (size_t i = 0; i < d->nr_regions; i++) {
		struct rd_region *r = &d->regions[i];

		p = realloc(r->cells, cap * CELL(d) * sizeof(uint64_t));
		if (!p)
			return -ENOMEM;
		r->cells = p;
		memset(r->cells + d->cap_threads * CELL(d), 0,
		       (cap - d->cap_threads) * CELL(d) * sizeof(uint64_t));
	}
	d->cap_threads = cap;
	return 0;
}

/* Adds the regions the record names for the first time, with empty cells. */
static int add_regions(struct pmc_region_data *d, const struct rd_record *rec)
{
	for (size_t i = 0; i < rec->nr_lines; i++) {
		struct rd_region *r;

		if (find_region(d, rec->lines[i].name) >= 0)
			continue;
		if (PMC_ENSURE(d->regions, d->cap_regions, d->nr_regions + 1))
			return -ENOMEM;
		r = &d->regions[d->nr_regions];
		*r = (struct rd_region){.number = rec->lines[i].number};
		r->name = strdup(rec->lines[i].name);
		r->cells = calloc(d->cap_threads * CELL(d), sizeof(uint64_t));
		r->total = calloc(CELL(d), sizeof(uint64_t));
		if (!r->name || !r->cells || !r->total) {
			free(r->name);
			free(r->cells);
			free(r->total);
			return -ENOMEM;
		}
		d->nr_regions++;
	}
	return 0;
}

static int check_events(struct pmc_region_data *d, struct rd_record *rec)
{
	if (!rec->nr_lines)
		return 0;
	if (!d->have_events) {
		d->events = rec->events;
		d->nr_events = rec->nr_events;
		rec->events = NULL;
		rec->nr_names = 0;
		d->have_events = true;
		return 0;
	}
	if (rec->nr_events != d->nr_events)
		return -PMC_E_PROTOCOL;
	for (size_t i = 0; i < d->nr_events; i++)
		if (strcmp(rec->events[i], d->events[i]))
			return -PMC_E_PROTOCOL;
	return 0;
}

static int cmp_region(const void *a, const void *b, void *arg)
{
	const struct pmc_region_data *d = arg;
	const struct rd_region *x = &d->regions[*(const size_t *)a];
	const struct rd_region *y = &d->regions[*(const size_t *)b];

	if ((x->number < 0) != (y->number < 0))
		return x->number < 0 ? 1 : -1;
	if (x->number >= 0 && x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int cmp_thread(const void *a, const void *b, void *arg)
{
	const struct pmc_region_data *d = arg;
	const struct rd_thread *x = &d->threads[*(const size_t *)a];
	const struct rd_thread *y = &d->threads[*(const size_t *)b];

	uint32_t dx = (uint32_t)x->tid - (uint32_t)x->pid, dy = (uint32_t)y->tid - (uint32_t)y->pid;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	/* In the order the ids were handed out after the process's own, which is its main
	 * thread's: the main thread first, and threads made after the ids wrapped at pid_max
	 * after those made before. */
	if (dx != dy)
		return dx < dy ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Room in the output orders for nr_regions and nr_threads, made before anything is added. */
static int reserve_order(struct pmc_region_data *d, size_t nr_regions, size_t nr_threads)
{
	size_t *ro = realloc(d->region_order, (nr_regions + 1) * sizeof(*ro));
	size_t *to;

	if (!ro)
		return -ENOMEM;
	d->region_order = ro;
	to = realloc(d->thread_order, (nr_threads + 1) * sizeof(*to));
	if (!to)
		return -ENOMEM;
	d->thread_order = to;
	return 0;
}

static void order(struct pmc_region_data *d)
{
	size_t *ro = d->region_order, *to = d->thread_order;

	for (size_t i = 0; i < d->nr_regions; i++)
		ro[i] = i;
	for (size_t i = 0; i < d->nr_threads; i++)
		to[i] = i;
	qsort_r(ro, d->nr_regions, sizeof(*ro), cmp_region, d);
	qsort_r(to, d->nr_threads, sizeof(*to), cmp_thread, d);
}

/* Everything that can fail happens before the first value is added. */
static int merge(struct pmc_region_data *d, struct rd_record *rec)
{
	int err = check_events(d, rec);

	if (!err)
		err = reserve_threads(d, d->nr_threads + rec->nr_threads);
	if (!err)
		err = reserve_order(d, d->nr_regions + rec->nr_lines,
				    d->nr_threads + rec->nr_threads);
	if (!err)
		err = add_regions(d, rec);
	if (err)
		return err;
	for (size_t i = 0; i < rec->nr_lines; i++) {
		const struct rd_line *l = &rec->lines[i];
		struct rd_region *r = &d->regions[find_region(d, l->name)];
		uint64_t *cell = r->cells + (d->nr_threads + l->thread) * CELL(d);

		for (size_t w = 0; w < CELL(d); w++) {
			cell[w] += l->cell[w];
			r->total[w] += l->cell[w];
		}
	}
	for (size_t t = 0; t < rec->nr_threads; t++)
		d->threads[d->nr_threads + t] = (struct rd_thread){rec->pid, rec->tids[t]};
	d->nr_threads += rec->nr_threads;
	d->bad_ids += rec->bad_ids;
	d->failed_reads += rec->failed_reads;
	d->unopened += rec->unopened;
	return 0;
}

/*
 * The runner's results file starts with its pass header (protocol version 3), then the
 * arena when the header names one, then the records. A buffer of records alone (standalone
 * mode) has none of the first two.
 */
static int split(const char *p, size_t len, struct pmc__rd_parts *out)
{
	struct pmc__region_pass pass;
	size_t off = 0;
	int err;

	*out = (struct pmc__rd_parts){.rec = p, .rec_len = len};
	if (len < sizeof(PMC_PASS_MAGIC) || memcmp(p, PMC_PASS_MAGIC " ", sizeof(PMC_PASS_MAGIC)))
		return 0;
	err = pmc__region_pass_parse(p, len, &pass, &off);
	if (err)
		return err;
	if (pass.arena_size && pass.arena_off < off)
		err = -PMC_E_FORMAT;
	else if (pass.arena_size && pass.arena_off < len) {
		out->arena = p + pass.arena_off;
		out->arena_len = len - pass.arena_off;
		if (out->arena_len > pass.arena_size)
			out->arena_len = (size_t)pass.arena_size;
		off = (size_t)pass.arena_off + out->arena_len;
	} else if (pass.arena_size) {
		off = len;
	}
	out->rec = p + off;
	out->rec_len = len - off;
	pmc__region_pass_free(&pass);
	return err;
}

static int add_pid(int **v, size_t *nr, size_t *cap, int pid)
{
	if (PMC_ENSURE(*v, *cap, *nr + 1))
		return -ENOMEM;
	(*v)[(*nr)++] = pid;
	return 0;
}

/* A process's "started" record, or one with its results (read or not): kept by pid. */
static int note_pid(struct pmc_region_data *d, const struct rd_record *rec)
{
	if (rec->started)
		return add_pid(&d->started, &d->nr_started, &d->cap_started, rec->pid);
	return add_pid(&d->reported, &d->nr_reported, &d->cap_reported, rec->pid);
}

/*
 * Reads every record of p[0..len) into d. A record that cannot be read is counted as lost
 * and the next one is read: each record says its length, so one bad record costs only
 * itself. When its header is unreadable the rest of the buffer cannot be framed: that is one
 * record lost, at least. Returns the number of records read, or the first error met.
 */
static int parse_records(struct pmc_region_data *d, const char *p, size_t len)
{
	size_t off = 0, used = 0;
	int nr = 0, err = 0;

	while (off < len && err != -ENOMEM) {
		struct rd_record rec = {0};
		int rerr;

		used = 0;
		rerr = pmc__rd_record_parse(&rec, p + off, len - off, &used);
		if (!rerr && !rec.started)
			rerr = merge(d, &rec);
		if (rec.pid && note_pid(d, &rec))
			rerr = -ENOMEM;
		pmc__rd_record_free(&rec);
		if (rerr) {
			err = err ? err : rerr;
			if (rerr != -ENOMEM)
				d->nr_lost++;
			if (!used)
				break;
		} else {
			nr++;
		}
		off += used;
	}
	return err ? err : nr;
}

/* Whether process pid has ended: a process still running may yet write its own record. */
static bool gone(int pid, void *ctx)
{
	char path[32], buf[256], *paren;
	ssize_t n;
	int fd;

	(void)ctx;
	if (pid <= 0)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n == 0 || errno == ESRCH;
	buf[n] = '\0';
	/* "pid (comm) S ...": the state after the last ')'; Z and X have ended. */
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}

/* A record built from the arena (docs/regions.md, "The arena"), read as a written one. */
static int recovered(const char *rec, size_t len, void *ctx)
{
	struct pmc_region_data *d = ctx;
	int nr = parse_records(d, rec, len);

	if (nr > 0)
		d->nr_recovered++;
	return nr == -ENOMEM ? nr : 0;
}

int pmc__rd_parse_parts(struct pmc_region_data *d, const struct pmc__rd_parts *parts)
{
	int nr = parse_records(d, parts->rec, parts->rec_len);

	if (parts->arena) {
		int r = pmc__region_arena_recover(parts->arena, parts->arena_len, gone, recovered,
						  d);

		/* An arena that cannot be walked recovers nothing: its processes stay lost. */
		if (r < 0 && r != -PMC_E_FORMAT && nr >= 0)
			nr = r;
		else if (r > 0 && nr >= 0)
			nr += r;
	}
	/* Also after a failed record: the getters read the order of what the data holds. */
	if (d->region_order)
		order(d);
	return nr;
}

int pmc_region_data__parse(struct pmc_region_data *d, const void *buf, size_t len)
{
	struct pmc__rd_parts parts;
	int err = split(buf, len, &parts);

	return err ? err : pmc__rd_parse_parts(d, &parts);
}
