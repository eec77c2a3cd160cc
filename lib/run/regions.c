// SPDX-License-Identifier: MIT
/*
 * The runner and region markers: after each run the records in its results file (made by
 * pass-file.c) are merged per region, event, repetition and, with per_thread, thread. Overhead
 * subtraction is applied here too.
 */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/grow.h"
#include "run/calib.h"
#include "run/regions.h"

static struct pmc_run_region *find_region(struct pmc_run *run, const char *name)
{
	struct pmc_run_results *res = &run->res;
	struct pmc_run_region *r;

	for (size_t i = 0; i < res->nr_regions; i++)
		if (!strcmp(res->regions[i].name, name))
			return &res->regions[i];
	if (PMC_ENSURE(res->regions, run->region_cap, res->nr_regions + 1))
		return NULL;
	r = &res->regions[res->nr_regions];
	*r = (struct pmc_run_region){.name = strdup(name)};
	if (!r->name)
		return NULL;
	res->nr_regions++;
	return r;
}

/* Cell of thread (-1: all threads) and event idx; grows the region's thread cells. */
static struct pmc_run_cell *cell(size_t nr_ev, struct pmc_run_region *r, int thread, size_t idx)
{
	size_t need = (size_t)(thread + 2);

	if (need > r->nr_slots) {
		struct pmc_run_cell *p = realloc(r->cells, need * nr_ev * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + r->nr_slots * nr_ev, 0, (need - r->nr_slots) * nr_ev * sizeof(*p));
		r->cells = p;
		r->nr_slots = need;
	}
	return &r->cells[(size_t)(thread + 1) * nr_ev + idx];
}

const struct pmc_run_cell *pmc_run__cell(const struct pmc_run *run, size_t r, int thread,
					 size_t idx)
{
	const struct pmc_run_region *reg;
	size_t slot = (size_t)(thread + 1);

	if (r >= run->res.nr_regions || thread < -1 || idx >= run->res.nr_events)
		return NULL;
	reg = &run->res.regions[r];
	return slot < reg->nr_slots ? &reg->cells[slot * run->res.nr_events + idx] : NULL;
}

static void store(struct pmc_run *run, struct pmc_run_cell *c, int rep, double v, double entered,
		  double named)
{
	int reps = run->opts.repeat;

	if (!c->values)
		c->values = calloc((size_t)reps, sizeof(double));
	if (!c->entered)
		c->entered = calloc((size_t)reps, sizeof(double));
	if (!c->named)
		c->named = calloc((size_t)reps, sizeof(double));
	if (!c->values || !c->entered || !c->named)
		return;
	c->values[rep] = v;
	c->entered[rep] = entered;
	c->named[rep] = named;
	run->regions_named |= named > 0;
	if (c->nr < rep + 1)
		c->nr = rep + 1;
}

static void note_counts(struct pmc_run_region *r, const struct pmc_region_values *v)
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
static void add_region(struct pmc_run *run, const struct pmc_region_data *d, size_t ri,
		       const long *map, int rep)
{
	struct pmc_region_values v;
	struct pmc_run_region *r;
	uint64_t named = 0;
	int nr_threads = run->opts.per_thread ? (int)pmc_region_data__nr_threads(d) : 0;

	pmc_region_data__get(d, ri, -1, &v);
	r = find_region(run, v.name);
	if (!r)
		return;
	note_counts(r, &v);
	for (int t = -1; t < nr_threads; t++) {
		if (t >= 0)
			pmc_region_data__get(d, ri, t, &v);
		if (t >= r->nr_threads && (v.entered || v.exited))
			r->nr_threads = t + 1;
		pmc_region_data__named_entries(d, ri, t, &named);
		for (size_t e = 0; e < pmc_region_data__nr_events(d); e++) {
			struct pmc_run_cell *c =
				map[e] >= 0 ? cell(run->res.nr_events, r, t, (size_t)map[e]) : NULL;

			if (c)
				store(run, c, rep, (double)v.values[e], (double)v.entered,
				      (double)named);
		}
	}
}

/* Which evlist event each recorded event is: the pass's events in order, by name. */
static bool map_events(const struct pmc_run *run, int pass, const struct pmc_region_data *d,
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
static void warn_missing(struct pmc_run *run, int pass, const struct pmc_region_data *d,
			 const long *map)
{
	for (size_t i = 0; i < run->res.nr_events; i++) {
		const struct pmc_evsel *ev = run->res.events[i].evsel;
		bool found = false;

		if (pmc_evsel__pass(ev) != pass || run->warned[i])
			continue;
		for (size_t e = 0; e < pmc_region_data__nr_events(d); e++)
			found |= map[e] == (long)i;
		if (found)
			continue;
		run->warned[i] = true;
		run_warn(run,
			 "regions could not count '%s' inside the command: its counter is taken "
			 "by the whole-program count (see docs/regions.md)\n",
			 pmc_evsel__name(ev));
	}
}

void pmc__run_regions_collect(struct pmc_run *run, int pass, int rep)
{
	struct pmc_region_data *d = NULL;
	uint64_t bad, failed, lost;
	long *map = NULL;
	int n;

	if (run->region_fd < 0 || pmc_region_data__new(&d))
		return;
	n = pmc_region_data__read_fd(d, run->region_fd);
	/* A record at all means the command used markers, even if its counters failed. */
	if (n > 0 || pmc_region_data__nr_regions(d) || pmc_region_data__nr_lost(d))
		run->res.regions_seen = true;
	if (rep < 0) { /* the warm-up run only tells whether the command uses regions */
		pmc_region_data__delete(d);
		return;
	}
	lost = pmc_region_data__nr_lost(d);
	run->res.recovered_records += pmc_region_data__nr_recovered(d);
	if (lost) {
		/* Every record is kept or its loss said: here, and in the results files. */
		run_warn(run,
			 "%" PRIu64 " of the command's region record%s could not be read (%s) and "
			 "%s lost; the others are counted\n",
			 lost, lost == 1 ? "" : "s",
			 n < 0 ? pmc_strerror(n)
			       : "a process that counted regions wrote none: it left with _exit(), "
				 "crashed or was killed",
			 lost == 1 ? "is" : "are");
		run->res.lost_records += lost;
	} else if (n < 0) {
		run_warn(run, "the command's region results are unreadable: %s\n", pmc_strerror(n));
		run->res.bad_runs++;
	}
	if ((n >= 0 || lost) && pmc_region_data__nr_regions(d)) {
		map = calloc(pmc_region_data__nr_events(d) + 1, sizeof(*map));
		if (map && !map_events(run, pass, d, map))
			run_warn(run, "the command counted other events in its regions\n");
		if (map)
			warn_missing(run, pass, d, map);
		for (size_t r = 0; map && r < pmc_region_data__nr_regions(d); r++)
			add_region(run, d, r, map, rep);
		pmc_region_data__problems(d, &bad, &failed);
		run->res.bad_ids += bad;
		run->res.failed_reads += failed;
	}
	run->res.unopened += pmc_region_data__nr_unopened(d);
	free(map);
	pmc_region_data__delete(d);
}

/*
 * What is subtracted per run from event i's whole-program values: the trust file's validated
 * bias where the event has one (measured against a known count, not an empty program), else
 * the calibrated empty program's median. Returns false when neither is known.
 */
static bool per_run_overhead(struct pmc_run *run, size_t i, const char *backend, double *out)
{
	const char *name = pmc_evsel__name(run->res.events[i].evsel);

	run->res.overhead_from[i] = PMC_RUN_OVERHEAD_NONE;
	if (pmc__run_trust_bias(run, i, out) && *out >= 0) {
		run->res.overhead_from[i] = PMC_RUN_OVERHEAD_VALIDATED;
		return true;
	}
	if (run->calib && pmc__calib_per_run(run->calib, backend, name, run->opts.priv, out)) {
		run->res.overhead_from[i] = PMC_RUN_OVERHEAD_CALIBRATED;
		return true;
	}
	*out = 0;
	return false;
}

/*
 * Event i's costs for entries made with the named markers (run->overhead_named[2i], the first
 * entry's at [2i + 1]): the calibration's "named" form, else (a file of a pmc that calibrated
 * the id form only) the id form's, said once when a region used the named markers.
 */
static void named_costs(struct pmc_run *run, size_t i, const char *backend, const char *name)
{
	double *n = &run->overhead_named[2 * i];
	bool entry = run->calib &&
		     pmc__calib_per_entry(run->calib, backend, name, run->opts.priv, true, &n[0]);

	if (!entry)
		n[0] = run->res.overhead_entry[i];
	if (!entry && run->calib && run->regions_named)
		run_warn(run,
			 "--subtract-overhead: '%s' has no calibration of the named markers "
			 "(pmc_region_begin(name)); the cost of the markers by id is subtracted "
			 "instead; run 'pmc calibrate -e %s'\n",
			 name, name);
	if (!run->calib ||
	    !pmc__calib_first_entry(run->calib, backend, name, run->opts.priv, true, &n[1]))
		n[1] = n[0] + run->res.overhead_first_entry[i] - run->res.overhead_entry[i];
}

/*
 * Subtracts e's per-run overhead from each repetition; a count below it is counted as 0, and
 * said (a bias larger than the count means the trust or calibration file does not fit).
 */
static void clamp_runs(struct pmc_run *run, struct pmc_run_event *e)
{
	double least = INFINITY;

	for (int r = 0; r < e->nr; r++) {
		if (e->values[r] < e->overhead && e->overhead > 0) {
			e->nr_clamped++;
			least = fmin(least, e->values[r]);
		}
		e->values[r] = e->values[r] > e->overhead ? e->values[r] - e->overhead : 0;
	}
	if (e->nr_clamped)
		run_warn(
			run,
			"--subtract-overhead: the %s subtracted from '%s' (%.0f per run) is larger "
			"than its count (%.0f) in %d of %d runs: those are counted as 0\n",
			run->res.overhead_from[e - run->res.events] == PMC_RUN_OVERHEAD_VALIDATED
				? "validated bias"
				: "calibrated overhead",
			pmc_evsel__name(e->evsel), e->overhead, least, e->nr_clamped, e->nr);
}

/* Loads the calibration, said when there is none or it cannot be used, and tells it the
 * events counted together. */
static void load_calibration(struct pmc_run *run)
{
	char why[256];
	int err = pmc__calib_load(run->opts.calibration, &run->calib, why, sizeof(why));

	if (err == -ENOENT)
		run_warn(run,
			 "--subtract-overhead: no calibration (%s); run 'pmc calibrate' first\n",
			 pmc_strerror(err));
	else if (err)
		run_warn(run, "--subtract-overhead: cannot use the calibration file %s: %s\n",
			 run->opts.calibration ? run->opts.calibration : "(this machine's default)",
			 why);
	if (run->calib) {
		const char *names[run->res.nr_events + 1];

		for (size_t i = 0; i < run->res.nr_events; i++)
			names[i] = pmc_evsel__name(run->res.events[i].evsel);
		if (pmc__calib_use_set(run->calib, names, run->res.nr_events))
			run_warn(run, "--subtract-overhead: out of memory: the events' costs "
				      "calibrated alone are used\n");
		run->res.calibration = pmc__calib_path(run->calib);
		run->res.calibration_date = pmc__calib_date(run->calib);
	}
}

/*
 * Loads the calibration and subtracts per run from the whole-program values (a validated
 * bias first, see per_run_overhead()); regions get the calibrated per-entry overhead of the
 * marker form each entry used.
 */
static void subtract_runs(struct pmc_run *run)
{
	const char *backend = pmc_evlist__backend(run->evlist);

	free(run->overhead_named);
	run->overhead_named = calloc(2 * run->res.nr_events + 1, sizeof(double));
	load_calibration(run);
	for (size_t i = 0; i < run->res.nr_events; i++) {
		struct pmc_run_event *e = &run->res.events[i];
		const char *name = pmc_evsel__name(e->evsel);
		bool entry = run->calib &&
			     pmc__calib_per_entry(run->calib, backend, name, run->opts.priv, false,
						  &run->res.overhead_entry[i]);
		bool per_run = per_run_overhead(run, i, backend, &e->overhead);

		if (!run->calib ||
		    !pmc__calib_first_entry(run->calib, backend, name, run->opts.priv, false,
					    &run->res.overhead_first_entry[i])) {
			run->res.overhead_first_entry[i] = run->res.overhead_entry[i];
			if (entry && run->res.nr_regions)
				run_warn(
					run,
					"--subtract-overhead: '%s' has no first-entry calibration; "
					"its per-entry cost is subtracted from the first entry "
					"too; "
					"run 'pmc calibrate -e %s'\n",
					name, name);
		}

		if (run->calib && (!entry || !per_run))
			run_warn(
				run,
				"--subtract-overhead: '%s' is not calibrated%s; run 'pmc calibrate "
				"-e %s'\n",
				name,
				entry	  ? " for whole runs"
				: per_run ? " for regions"
					  : "",
				name);
		if (run->overhead_named)
			named_costs(run, i, backend, name);
		clamp_runs(run, e);
	}
}

/*
 * Subtracts per entry of each run oh[0] (entries by id) or oh[1] (named entries); with first
 * (the cell holds the run's first entry), first[0] or first[1] in place of it for one entry of
 * each run that entered it, of the form most of its entries used.
 */
static void summarize_cell(const struct pmc_run *run, struct pmc_run_cell *c, const double oh[2],
			   const double *first)
{
	double entered = 0;

	c->nr_clamped = 0;
	for (int r = 0; r < c->nr; r++) {
		double named = c->named ? c->named[r] : 0, by_id = c->entered[r] - named;
		int form = 2 * named > c->entered[r];
		double sub = oh[0] * by_id + oh[1] * named +
			     (first && c->entered[r] >= 1 ? first[form] - oh[form] : 0);

		c->nr_clamped += sub > 0 && c->values[r] < sub;
		c->values[r] = c->values[r] > sub ? c->values[r] - sub : 0; /* never negative */
		entered += c->entered[r];
	}
	if (c->nr)
		pmc_summarize(c->values, (size_t)c->nr, run->opts.level, &c->sum);
	c->per_entry = entered > 0 ? c->sum.mean / (entered / c->nr) : 0;
}

/* Said once per region and event (all threads): counts below the overhead taken off. */
static void warn_clamped(struct pmc_run *run)
{
	for (size_t i = 0; i < run->res.nr_regions; i++)
		for (size_t e = 0; e < run->res.nr_events; e++) {
			const struct pmc_run_cell *c = pmc_run__cell(run, i, -1, e);

			if (c && c->nr_clamped)
				run_warn(run,
					 "--subtract-overhead: in region '%s', the calibrated "
					 "overhead of the entries is larger than the count of '%s' "
					 "in %d of %d runs: those are counted as 0\n",
					 run->res.regions[i].name,
					 pmc_evsel__name(run->res.events[e].evsel), c->nr_clamped,
					 c->nr);
		}
}

void pmc__run_regions_summarize(struct pmc_run *run)
{
	size_t nr_ev = run->res.nr_events;

	if (run->opts.subtract_overhead)
		subtract_runs(run);
	/*
	 * A process's first entry is charged to the region registered first (regions are listed
	 * in the order of their ids), in all threads and in the first thread.
	 */
	if (run->res.calibration && run->res.nr_regions)
		run->res.first_entry_region = run->res.regions[0].name;
	for (size_t i = 0; i < run->res.nr_regions; i++) {
		struct pmc_run_region *r = &run->res.regions[i];

		for (size_t c = 0; c < r->nr_slots * nr_ev; c++) {
			size_t e = c % nr_ev;
			bool first = run->res.first_entry_region && i == 0 && c < 2 * nr_ev;
			const double *n = run->overhead_named ? &run->overhead_named[2 * e] : NULL;
			double oh[2] = {run->res.overhead_entry[e], run->res.overhead_entry[e]};
			double fe[2] = {run->res.overhead_first_entry[e],
					run->res.overhead_first_entry[e]};

			if (!r->cells[c].nr)
				continue;
			if (n) {
				oh[1] = n[0];
				fe[1] = n[1];
			}
			summarize_cell(run, &r->cells[c], oh, first ? fe : NULL);
			if (r->cells[c].nr > run->res.nr_region_reps)
				run->res.nr_region_reps = r->cells[c].nr;
		}
	}
	if (run->opts.subtract_overhead)
		warn_clamped(run);
}

void pmc__run_regions_free(struct pmc_run *run)
{
	struct pmc_run_results *res = &run->res;

	for (size_t i = 0; i < res->nr_regions; i++) {
		struct pmc_run_region *r = &res->regions[i];

		for (size_t c = 0; c < r->nr_slots * res->nr_events; c++) {
			free(r->cells[c].values);
			free(r->cells[c].entered);
			free(r->cells[c].named);
		}
		free(r->cells);
		free(r->name);
	}
	free(res->regions);
	res->regions = NULL;
	res->nr_regions = 0;
	run->region_cap = 0;
	res->bad_ids = res->failed_reads = res->lost_records = res->recovered_records = 0;
	res->unopened = 0;
	res->bad_runs = 0;
	if (run->warned) /* NULL until the list is planned */
		memset(run->warned, 0, res->nr_events * sizeof(*run->warned));
	if (run->region_fd >= 0)
		close(run->region_fd);
	run->region_fd = -1;
	free(run->pass_header);
	run->pass_header = NULL;
	pmc__calib_free(run->calib);
	run->calib = NULL;
	free(run->overhead_named);
	run->overhead_named = NULL;
	run->regions_named = false;
	res->calibration = res->calibration_date = NULL;
	res->first_entry_region = NULL;
}
