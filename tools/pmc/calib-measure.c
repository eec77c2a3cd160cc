// SPDX-License-Identifier: MIT
/*
 * pmc calibrate's measurements of one event, in a forked child so that each event gets a
 * fresh region session: an empty begin/end pair (time and counts), a group read, a
 * start/stop pair; each as a distribution (median, p90, p99, max, histogram).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>
#include "calib-measure.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double quantile(const double *sorted, size_t n, double q)
{
	size_t i = (size_t)ceil(q * (double)n);

	return sorted[i ? (i > n ? n : i) - 1 : 0];
}

/* Sorts v and summarises it; the histogram has 8 equal bins from min to p99, then "more". */
json_t *calib_distribution(double *v, size_t n)
{
	json_t *edges = json_array(), *counts = json_array();
	size_t bins[9] = {0};
	double lo, hi, w;

	if (!n)
		return json_null();
	qsort(v, n, sizeof(*v), cmp);
	lo = v[0];
	hi = quantile(v, n, 0.99);
	w = hi > lo ? (hi - lo) / 8 : 1;
	for (size_t i = 0; i < n; i++)
		bins[v[i] > hi ? 8 : (size_t)fmin(7, floor((v[i] - lo) / w))]++;
	for (int b = 0; b < 9; b++) {
		json_array_append_new(edges, json_real(lo + b * w));
		json_array_append_new(counts, json_integer((json_int_t)bins[b]));
	}
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:{s:o, s:o}}", "n", (json_int_t)n, "min",
			 v[0], "median", quantile(v, n, 0.5), "p90", quantile(v, n, 0.9), "p99",
			 quantile(v, n, 0.99), "max", v[n - 1], "histogram", "edges", edges,
			 "counts", counts);
}

/* The cost of taking the time itself, subtracted from every timed sample. */
static double timer_cost(void)
{
	double v[201];

	for (int i = 0; i < 201; i++) {
		double t0 = now_ns();

		v[i] = now_ns() - t0;
	}
	qsort(v, 201, sizeof(*v), cmp);
	return v[100];
}

/* An empty region: ns per pair and counts per entry, from the library's own totals. */
static json_t *measure_pair(const struct calib_params *p, int id, size_t nr_ev)
{
	double *ns = calloc(p->samples, sizeof(double)),
	       *counts = calloc(p->samples, sizeof(double));
	uint64_t before[64], after[64];
	double tc = timer_cost();
	json_t *j = NULL;

	if (!ns || !counts || nr_ev > 64)
		goto out;
	for (size_t i = 0; i < p->warmup + p->samples; i++) {
		double t0, t1;

		pmc_region_get((unsigned)id, NULL, NULL, before, nr_ev);
		t0 = now_ns();
		pmc_region_begin_n((unsigned)id);
		pmc_region_end_n((unsigned)id);
		t1 = now_ns();
		pmc_region_get((unsigned)id, NULL, NULL, after, nr_ev);
		if (i < p->warmup)
			continue;
		ns[i - p->warmup] = fmax(0, t1 - t0 - tc);
		counts[i - p->warmup] = (double)(after[0] - before[0]);
	}
	j = json_pack("{s:o, s:o}", "counts", calib_distribution(counts, p->samples), "ns",
		      calib_distribution(ns, p->samples));
out:
	free(ns);
	free(counts);
	return j;
}

/* A bare group read and an enable/disable pair through libpmc on the calling thread. */
static json_t *measure_read_start(const struct calib_params *p, struct pmc_evlist *l)
{
	struct pmc_evsel *leader = pmc_evlist__at(l, 0);
	double *rd = calloc(p->samples, sizeof(double)), *ss = calloc(p->samples, sizeof(double));
	double tc = timer_cost();
	struct pmc_count c[8];
	json_t *j = NULL;

	if (!rd || !ss)
		goto out;
	for (size_t i = 0; i < p->warmup + p->samples; i++) {
		double t0 = now_ns(), t1, t2;

		pmc_evsel__read_group(leader, c, 8);
		t1 = now_ns();
		pmc_evlist__stop(l);
		pmc_evlist__start(l);
		t2 = now_ns();
		if (i < p->warmup)
			continue;
		rd[i - p->warmup] = fmax(0, t1 - t0 - tc);
		ss[i - p->warmup] = fmax(0, t2 - t1 - tc);
	}
	j = json_pack("{s:{s:o}, s:{s:o}}", "read", "ns", calib_distribution(rd, p->samples),
		      "start_stop", "ns", calib_distribution(ss, p->samples));
out:
	free(rd);
	free(ss);
	return j;
}

static int open_self(const struct calib_params *p, const char *event, struct pmc_evlist **out)
{
	struct pmc_evlist_opts o = {.sz = sizeof(o), .backend = p->backend, .priv = p->priv};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_SELF, .no_inherit = true};
	int passes, err = pmc_evlist__new(&o, out);

	if (!err)
		err = pmc_evlist__parse(*out, event, NULL);
	if (!err)
		err = pmc_evlist__plan(*out, false, &passes);
	if (!err)
		err = pmc_evlist__open(*out, &t, 0);
	if (!err)
		err = pmc_evlist__start(*out);
	return err;
}

/* Runs in the child: every in-process measurement of event, as one JSON object. */
json_t *calib_measure_inprocess(const struct calib_params *p, const char *event, int *err)
{
	struct pmc_region_opts ro = {.sz = sizeof(ro),
				     .events = event,
				     .backend = p->backend,
				     .priv = p->priv,
				     .sink = PMC_REGION_SINK_NONE};
	struct pmc_evlist *l = NULL;
	json_t *pair, *rs;
	int id;

	*err = pmc_region_setup(&ro);
	id = *err ? *err : pmc_region_register("pmc-calibrate");
	if (id < 0) {
		*err = id;
		return NULL;
	}
	pair = measure_pair(p, id, 1);
	*err = open_self(p, event, &l);
	rs = *err ? NULL : measure_read_start(p, l);
	pmc_evlist__delete(l);
	if (!pair || !rs) {
		json_decref(pair);
		json_decref(rs);
		*err = *err ? *err : -ENOMEM;
		return NULL;
	}
	json_object_set_new(rs, "region_pair", pair);
	return rs;
}
