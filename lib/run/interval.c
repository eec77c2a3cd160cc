// SPDX-License-Identifier: MIT
/*
 * Intervals (pmc_run_opts.interval_ms, perf stat -I): after each read while a run counts,
 * what each event counted since the previous read, and once more after the run's final read,
 * so that the intervals of a run sum to its values.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "run/runner.h"

void pmc__run_interval_free(struct pmc_run *run)
{
	for (size_t i = 0; run->iv_events && i < run->res.nr_events; i++) {
		free(run->iv_events[i].values);
		free(run->iv_events[i].ratio);
	}
	free(run->iv_events);
	free(run->iv_prev);
	run->iv_events = NULL;
	run->iv_prev = NULL;
}

static int alloc_events(struct pmc_run *run)
{
	size_t nr = run->res.nr_events;

	run->iv_events = calloc(nr + 1, sizeof(*run->iv_events));
	run->iv_prev = calloc(nr + 1, sizeof(*run->iv_prev));
	if (!run->iv_events || !run->iv_prev)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct pmc_run_event *e = &run->iv_events[i];

		e->evsel = run->res.events[i].evsel;
		e->values = calloc(1, sizeof(double));
		e->ratio = calloc(1, sizeof(double));
		if (!e->values || !e->ratio)
			return -ENOMEM;
	}
	return 0;
}

int pmc__run_interval_begin(struct pmc_run *run, int pass, double t0)
{
	int err = 0;

	if (!run->iv_events)
		err = alloc_events(run);
	if (err) {
		pmc__run_interval_free(run);
		return err;
	}
	memset(run->iv_prev, 0, run->res.nr_events * sizeof(*run->iv_prev));
	run->iv_t0 = run->iv_last = t0;
	return pmc__run_units_interval(run, pass, true);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Event i's delta since the last interval into iv_events[i]; false when not in pass. */
static void event_delta(struct pmc_run *run, size_t i, int pass)
{
	struct pmc_run_event *e = &run->iv_events[i];
	struct pmc_count c;
	double v;

	e->supported = run->res.events[i].supported;
	memcpy(e->why, run->res.events[i].why, sizeof(e->why));
	e->nr = 0;
	if (pmc_evsel__pass(e->evsel) != pass || pmc_evsel__count(e->evsel, &c))
		return;
	v = run->opts.multiplex ? pmc_count__scaled(&c) : (double)c.value;
	e->values[0] = v - run->iv_prev[i];
	e->ratio[0] =
		c.time_enabled_ns ? (double)c.time_running_ns / (double)c.time_enabled_ns : 1.0;
	e->scaled = e->ratio[0] < 1.0;
	e->nr = 1;
	pmc_summarize(e->values, 1, run->opts.level, &e->sum);
	run->iv_prev[i] = v;
}

void pmc__run_interval(struct pmc_run *run, int pass, int rep, bool last)
{
	struct pmc_run_interval iv = {.pass = pass, .rep = rep, .last = last};
	double now = now_s();

	if (!run->iv_events || !run->opts.on_interval)
		return;
	for (size_t i = 0; i < run->res.nr_events; i++)
		event_delta(run, i, pass);
	if (!pmc__run_units_interval(run, pass, false))
		pmc__run_units_interval_view(run, &iv.nr_units, &iv.units);
	iv.t_s = now - run->iv_t0;
	iv.span_s = now - run->iv_last;
	iv.nr_events = run->res.nr_events;
	iv.events = run->iv_events;
	run->iv_last = now;
	run->opts.on_interval(&iv, run->opts.arg);
}
