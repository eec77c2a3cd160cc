// SPDX-License-Identifier: MIT
/*
 * What every output of pmc stat prints of an event: its mean in the unit people read
 * (task-clock in msec, tool events in ns), its running share and its comment (stat-derived.c).
 */
#include <stdlib.h>
#include <string.h>
#include "stat.h"

/* Units of perf 6.1's events (its evsel->unit and scale): clocks in msec, tool events in ns. */
static const struct {
	const char *generic, *unit;
	double scale;
} units[] = {
	{"task-clock", "msec", 1e-6}, {"cpu-clock", "msec", 1e-6}, {"duration_time", "ns", 1},
	{"user_time", "ns", 1},	      {"system_time", "ns", 1},
};

/*
 * An event's PMU alias names its own (.scale, .unit: RAPL's energy in Joules, an IMC's CAS
 * count in MiB), as perf applies them; else the generic event's.
 */
static void set_unit(struct stat_view *v, const struct pmc_evsel *evsel, const char *generic)
{
	v->unit = pmc_evsel__unit(evsel);
	v->scale = pmc_evsel__scale(evsel);
	if (*v->unit || v->scale != 1)
		return;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(generic, units[i].generic)) {
			v->unit = units[i].unit;
			v->scale = units[i].scale;
		}
}

static double running_pct(const struct pmc_run_event *e)
{
	double r = 0;

	for (int i = 0; i < e->nr; i++)
		r += e->ratio[i];
	return e->nr ? 100.0 * r / e->nr : 100.0;
}

/* The mean wall time of one run, in ns: what "CPUs utilized" divides by. */
static double wall_ns(const struct pmc_run_results *res)
{
	return res->nr_runs ? res->wall.mean * 1e9 : 0;
}

int stat_views__new(const struct stat_run *run, struct stat_view **out)
{
	const struct pmc_run_results *res = run->res;
	int err = stat_views__of(res->events, res->nr_events, wall_ns(res), !run->opts->no_merge,
				 out);

	for (size_t i = 0; !err && res->trust && i < res->nr_events; i++) {
		(*out)[i].trust = res->trust[i];
		(*out)[i].bias_subtracted = res->overhead_from[i] == PMC_RUN_OVERHEAD_VALIDATED;
	}
	return err;
}

/*
 * Adds view i into the view of the event it merges into (an earlier one of events[]): the
 * sum of the units' means, the mean of their running shares.
 */
static void merge_view(struct stat_view *v, const struct pmc_run_event *events, size_t i,
		       int *nr_in)
{
	const struct pmc_evsel *into = pmc_evsel__merged_into(events[i].evsel);
	size_t j = pmc_evsel__idx(into);

	if (into == events[i].evsel || j >= i || events[j].evsel != into)
		return;
	v[i].merged = true;
	if (!v[i].counted)
		return;
	v[j].value = (v[j].counted ? v[j].value : 0) + v[i].value;
	v[j].running_pct = (v[j].running_pct * nr_in[j] + v[i].running_pct) / (nr_in[j] + 1);
	v[j].counted = true;
	nr_in[j]++;
}

int stat_views__of(const struct pmc_run_event *events, size_t nr, double wall_ns, bool merge,
		   struct stat_view **out)
{
	struct stat_view *v = calloc(nr + 1, sizeof(*v));
	struct stat_derived_event *d = calloc(nr + 1, sizeof(*d));
	int *nr_in = calloc(nr + 1, sizeof(*nr_in));

	*out = NULL;
	if (!v || !d || !nr_in) {
		free(v);
		free(d);
		free(nr_in);
		return -1;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct pmc_run_event *e = &events[i];

		v[i].e = e;
		v[i].name = e->name ? e->name : pmc_evsel__name(e->evsel);
		pmc_evsel__generic_name(e->evsel, v[i].generic, sizeof(v[i].generic));
		set_unit(&v[i], e->evsel, v[i].generic);
		v[i].counted = e->supported && e->nr > 0;
		v[i].value = e->sum.mean * v[i].scale;
		v[i].running_pct = running_pct(e);
		nr_in[i] = 1;
		if (!merge && !pmc_evsel__unit_name(e->evsel, v[i].own_name, sizeof(v[i].own_name)))
			v[i].name = v[i].own_name;
		d[i] = (struct stat_derived_event){.generic = v[i].generic,
						   .priv = pmc_evsel__priv(e->evsel),
						   .counted = v[i].counted,
						   .mean = e->sum.mean};
	}
	for (size_t i = 0; merge && i < nr; i++)
		merge_view(v, events, i, nr_in);
	for (size_t i = 0; i < nr; i++)
		v[i].has_derived = stat_derived__compute(d, nr, i, wall_ns, &v[i].derived);
	free(d);
	free(nr_in);
	*out = v;
	return 0;
}
