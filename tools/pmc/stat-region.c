// SPDX-License-Identifier: MIT
/*
 * pmc stat and region markers: each run gets an anonymous results file (memfd) that starts
 * with the pass's events (docs/regions.md, runner protocol version 2); afterwards its records
 * are merged per region, event, repetition and, with --per-thread, thread. Overhead
 * subtraction is applied here too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "calib.h"
#include "stat-region.h"

static struct stat_regions *regions_of(struct stat_run *run)
{
	size_t nr_ev = pmc_evlist__nr(run->evlist);
	struct stat_regions *s = run->regions;

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->fd = -1;
	s->nr_ev = nr_ev;
	s->oh_entry = calloc(nr_ev + 1, sizeof(double));
	s->oh_run = calloc(nr_ev + 1, sizeof(double));
	s->warned = calloc(nr_ev + 1, sizeof(bool));
	if (!s->oh_entry || !s->oh_run || !s->warned) {
		free(s->warned);
		free(s->oh_entry);
		free(s->oh_run);
		free(s);
		return NULL;
	}
	run->regions = s;
	return s;
}

/* The events of pass as an event string, groups in braces, for the command's own counters. */
static char *pass_events(const struct stat_run *run, int pass)
{
	size_t len = 0, left = 0;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);
	bool first = true;

	if (!f)
		return NULL;
	for (size_t i = 0; i < pmc_evlist__nr(run->evlist); i++) {
		struct pmc_evsel *ev = pmc_evlist__at(run->evlist, i);
		size_t gsz = pmc_evsel__group_size(ev);
		bool opens = pmc_evsel__leader(ev) == ev && gsz > 1;

		if (pmc_evsel__pass(ev) != pass)
			continue;
		fprintf(f, "%s%s%s", first ? "" : ",", opens ? "{" : "", pmc_evsel__name(ev));
		first = false;
		if (opens)
			left = gsz;
		if (left && --left == 0)
			fputc('}', f);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * The pass header of runner protocol 2 (docs/regions.md) at offset 0, the offset left after
 * it: the command's records are appended there, at the offset it shares with us.
 */
static int write_pass(int fd, const char *events)
{
	char *buf;
	int len, err = 0;

	if (strchr(events, '\n'))
		return -EINVAL;
	len = asprintf(&buf, "PMC-PASS 2 %zu\nevents %s\n", strlen("events \n") + strlen(events),
		       events);
	if (len < 0)
		return -ENOMEM;
	for (char *p = buf, *end = buf + len; p < end;) {
		ssize_t n = write(fd, p, (size_t)(end - p));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		p += n;
	}
	free(buf);
	return err;
}

int stat_regions__prepare(struct stat_run *run, int pass, struct pmc_target *t)
{
	struct stat_regions *s = regions_of(run);
	char *events, num[16];
	int err;

	if (!s || t->kind != PMC_TARGET_COMMAND)
		return 0;
	if (s->fd < 0)
		s->fd = memfd_create("pmc-regions", MFD_CLOEXEC);
	/* The offset is shared with the command: back to 0, or its write leaves a hole. */
	if (s->fd < 0 || ftruncate(s->fd, 0) || lseek(s->fd, 0, SEEK_SET))
		return 0; /* regions are an extra: whole-program counting goes on without */
	events = pass_events(run, pass);
	if (!events)
		return -ENOMEM;
	/*
	 * The events go into the descriptor, not the environment: the environment's size moves
	 * the command's stack, so every pass gets the same one, byte for byte.
	 */
	err = write_pass(s->fd, events);
	free(events);
	if (err)
		return 0; /* as above: this run's regions go unmeasured */
	/* The command inherits the environment at the fork in pmc_evlist__open(). */
	snprintf(num, sizeof(num), "%u", run->opts->priv);
	setenv("PMC_REGION_PRIV", num, 1);
	if (run->opts->backend)
		setenv("PMC_REGION_BACKEND", run->opts->backend, 1);
	t->child_fd = s->fd;
	t->child_fd_env = "PMC_REGION_FD";
	return 0;
}

static struct sr_region *find_region(struct stat_regions *s, const char *name)
{
	struct sr_region *r;

	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->r[i].name, name))
			return &s->r[i];
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		void *p = realloc(s->r, cap * sizeof(*s->r));

		if (!p)
			return NULL;
		s->r = p;
		s->cap = cap;
	}
	r = &s->r[s->nr];
	*r = (struct sr_region){.name = strdup(name)};
	if (!r->name)
		return NULL;
	s->nr++;
	return r;
}

/* Cell of thread (-1: all threads) and event idx; grows the region's thread cells. */
static struct sr_cell *cell(struct stat_regions *s, struct sr_region *r, int thread, size_t idx)
{
	size_t need = (size_t)(thread + 2);

	if (need > r->nr_slots) {
		struct sr_cell *p = realloc(r->cells, need * s->nr_ev * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + r->nr_slots * s->nr_ev, 0, (need - r->nr_slots) * s->nr_ev * sizeof(*p));
		r->cells = p;
		r->nr_slots = need;
	}
	return &r->cells[(size_t)(thread + 1) * s->nr_ev + idx];
}

static void store(const struct stat_run *run, struct sr_cell *c, int rep, double v, double entered)
{
	int reps = run->opts->repeat;

	if (!c->values)
		c->values = calloc((size_t)reps, sizeof(double));
	if (!c->entered)
		c->entered = calloc((size_t)reps, sizeof(double));
	if (!c->values || !c->entered)
		return;
	c->values[rep] = v;
	c->entered[rep] = entered;
	if (c->nr < rep + 1)
		c->nr = rep + 1;
}

static void note_counts(struct sr_region *r, const struct pmc_region_values *v)
{
	if (!r->counted) {
		r->entered = v->entered;
		r->exited = v->exited;
		r->counted = true;
	} else if (r->entered != v->entered || r->exited != v->exited) {
		r->varies = true;
	}
	r->open_at_exit += v->open_at_exit;
	r->unmatched_end += v->unmatched_end;
}

/* Stores one region of one run: totals and, with --per-thread, each thread. */
static void add_region(struct stat_run *run, const struct pmc_region_data *d, size_t ri,
		       const long *map, int rep)
{
	struct stat_regions *s = run->regions;
	struct pmc_region_values v;
	struct sr_region *r;
	int nr_threads = run->opts->per_thread ? (int)pmc_region_data__nr_threads(d) : 0;

	pmc_region_data__get(d, ri, -1, &v);
	r = find_region(s, v.name);
	if (!r)
		return;
	note_counts(r, &v);
	for (int t = -1; t < nr_threads; t++) {
		if (t >= 0)
			pmc_region_data__get(d, ri, t, &v);
		if (t >= r->nr_threads && (v.entered || v.exited))
			r->nr_threads = t + 1;
		for (size_t e = 0; e < pmc_region_data__nr_events(d); e++) {
			struct sr_cell *c = map[e] >= 0 ? cell(s, r, t, (size_t)map[e]) : NULL;

			if (c)
				store(run, c, rep, (double)v.values[e], (double)v.entered);
		}
	}
}

/* Which evlist event each recorded event is: the pass's events in order, by name. */
static bool map_events(const struct stat_run *run, int pass, const struct pmc_region_data *d,
		       long *map)
{
	size_t next = 0, nr = pmc_evlist__nr(run->evlist);
	bool any = false;

	for (size_t e = 0; e < pmc_region_data__nr_events(d); e++) {
		map[e] = -1;
		while (next < nr && pmc_evsel__pass(pmc_evlist__at(run->evlist, next)) != pass)
			next++;
		if (next < nr && !strcmp(pmc_evsel__name(pmc_evlist__at(run->evlist, next)),
					 pmc_region_data__event(d, e))) {
			map[e] = (long)next++;
			any = true;
		}
	}
	return any;
}

/*
 * Events of the pass that the command's regions did not count: on limited counters (hardware
 * counters, debug registers) pmc stat's own whole-program counters take them first.
 */
static void warn_missing(struct stat_run *run, int pass, const struct pmc_region_data *d,
			 const long *map)
{
	struct stat_regions *s = run->regions;

	for (size_t i = 0; i < s->nr_ev; i++) {
		bool found = false;

		if (pmc_evsel__pass(run->ev[i].evsel) != pass || s->warned[i])
			continue;
		for (size_t e = 0; e < pmc_region_data__nr_events(d); e++)
			found |= map[e] == (long)i;
		if (found)
			continue;
		s->warned[i] = true;
		fprintf(stderr,
			"pmc stat: regions could not count '%s' inside the command: its "
			"counter is taken by the whole-program count (see docs/regions.md)\n",
			pmc_evsel__name(run->ev[i].evsel));
	}
}

void stat_regions__collect(struct stat_run *run, int pass, int rep)
{
	struct stat_regions *s = run->regions;
	struct pmc_region_data *d = NULL;
	uint64_t bad, failed;
	long *map = NULL;
	int n;

	if (!s || s->fd < 0 || pmc_region_data__new(&d))
		return;
	n = pmc_region_data__read_fd(d, s->fd);
	/* A record at all means the command used markers, even if its counters failed. */
	if (n > 0)
		run->regions_seen = true;
	if (rep < 0) { /* the warm-up run only tells whether the command uses regions */
		pmc_region_data__delete(d);
		return;
	}
	if (n < 0) {
		fprintf(stderr, "pmc stat: the command's region results are unreadable: %s\n",
			pmc_strerror(n));
		s->bad_runs++;
	} else if (pmc_region_data__nr_regions(d)) {
		map = calloc(pmc_region_data__nr_events(d) + 1, sizeof(*map));
		if (map && !map_events(run, pass, d, map))
			fprintf(stderr,
				"pmc stat: the command counted other events in its regions\n");
		if (map)
			warn_missing(run, pass, d, map);
		for (size_t r = 0; map && r < pmc_region_data__nr_regions(d); r++)
			add_region(run, d, r, map, rep);
		pmc_region_data__problems(d, &bad, &failed);
		s->bad_ids += bad;
		s->failed_reads += failed;
	}
	free(map);
	pmc_region_data__delete(d);
}

/* Loads the calibration and subtracts per run from the whole-program values. */
static void subtract_runs(struct stat_run *run, struct stat_regions *s)
{
	const char *backend = pmc_evlist__backend(run->evlist);
	char why[256];
	int err = calib_load(run->opts->calibration, &s->calib, why, sizeof(why));

	if (err == -ENOENT) {
		fprintf(stderr,
			"pmc stat: --subtract-overhead: no calibration (%s); run 'pmc "
			"calibrate' first\n",
			pmc_strerror(err));
		return;
	}
	if (err) {
		fprintf(stderr,
			"pmc stat: --subtract-overhead: cannot use the calibration file %s: %s\n",
			run->opts->calibration ? run->opts->calibration
					       : "(this machine's default)",
			why);
		return;
	}
	for (size_t i = 0; i < s->nr_ev; i++) {
		struct stat_event *e = &run->ev[i];
		const char *name = pmc_evsel__name(e->evsel);

		bool entry =
			calib_per_entry(s->calib, backend, name, run->opts->priv, &s->oh_entry[i]);
		bool per_run =
			calib_per_run(s->calib, backend, name, run->opts->priv, &s->oh_run[i]);

		if (!entry || !per_run)
			fprintf(stderr,
				"pmc stat: --subtract-overhead: '%s' is not calibrated%s; "
				"run 'pmc calibrate -e %s'\n",
				name,
				entry	  ? " for whole runs"
				: per_run ? " for regions"
					  : "",
				name);
		for (int r = 0; r < e->nr; r++)
			e->values[r] =
				e->values[r] > s->oh_run[i] ? e->values[r] - s->oh_run[i] : 0;
	}
}

static void summarize_cell(const struct stat_run *run, struct sr_cell *c, double oh)
{
	double entered = 0;

	for (int r = 0; r < c->nr; r++) {
		double sub = oh * c->entered[r];

		c->values[r] = c->values[r] > sub ? c->values[r] - sub : 0; /* never negative */
		entered += c->entered[r];
	}
	if (c->nr)
		pmc_summarize(c->values, (size_t)c->nr, run->opts->level, &c->sum);
	c->per_entry = entered > 0 ? c->sum.mean / (entered / c->nr) : 0;
}

void stat_regions__summarize(struct stat_run *run)
{
	struct stat_regions *s = run->regions;

	if (!s)
		return;
	if (run->opts->subtract_overhead)
		subtract_runs(run, s);
	for (size_t i = 0; i < s->nr; i++)
		for (size_t c = 0; c < s->r[i].nr_slots * s->nr_ev; c++)
			if (s->r[i].cells[c].nr)
				summarize_cell(run, &s->r[i].cells[c], s->oh_entry[c % s->nr_ev]);
}

void stat_regions__free(struct stat_run *run)
{
	struct stat_regions *s = run->regions;

	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++) {
		for (size_t c = 0; c < s->r[i].nr_slots * s->nr_ev; c++) {
			free(s->r[i].cells[c].values);
			free(s->r[i].cells[c].entered);
		}
		free(s->r[i].cells);
		free(s->r[i].name);
	}
	if (s->fd >= 0)
		close(s->fd);
	calib_free(s->calib);
	free(s->r);
	free(s->oh_entry);
	free(s->oh_run);
	free(s->warned);
	free(s);
	run->regions = NULL;
}
