// SPDX-License-Identifier: MIT
/*
 * What every output of pmc stat prints of an event (include/pmc/stat-view.h): its mean in the
 * unit people read (task-clock in msec, tool events in ns), its running share and its comment
 * (shadow.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/event.h>
#include <pmc/run.h>
#include <pmc/stat-view.h>

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
static void set_unit(struct pmc_stat_view *v, const struct pmc_evsel *evsel, const char *generic)
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

int pmc_stat_views__new(const struct pmc_run_results *res, unsigned by, double level,
			struct pmc_stat_view **out)
{
	int err = pmc_stat_views__of(res->events, res->nr_events, wall_ns(res), by, level, out);

	for (size_t i = 0; !err && res->trust && i < res->nr_events; i++) {
		(*out)[i].trust = res->trust[i];
		(*out)[i].bias_subtracted = res->overhead_from[i] == PMC_RUN_OVERHEAD_VALIDATED;
	}
	return err;
}

/*
 * The event view i shows: events[i] itself, or the line it heads (libpmc's
 * pmc_run_events__merge_one(): the members summed run by run, kept in v->own), or NULL when
 * it is merged into an earlier view. 0 or -ENOMEM.
 */
static int shown_event(struct pmc_stat_view *v, const struct pmc_run_event *events, size_t nr,
		       size_t i, unsigned by, double level, const struct pmc_run_event **e)
{
	int members;

	*e = &events[i];
	if (!by)
		return 0;
	if (pmc_run_events__merge_first(events, nr, i, by) != i) {
		v->merged = true;
		return 0;
	}
	members = pmc_run_events__merge_one(events, nr, i, by, level, &v->own);
	if (members < 0)
		return -ENOMEM;
	v->has_own = true;
	if (members > 1)
		*e = &v->own;
	return 0;
}

int pmc_stat_views__of(const struct pmc_run_event *events, size_t nr, double wall_ns, unsigned by,
		       double level, struct pmc_stat_view **out)
{
	struct pmc_stat_view *v = calloc(nr + 1, sizeof(*v));
	struct pmc_stat_shadow_event *d = calloc(nr + 1, sizeof(*d));
	int err = 0;

	*out = NULL;
	if (!v || !d) {
		free(v);
		free(d);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr && !err; i++) {
		const struct pmc_run_event *e;

		err = shown_event(&v[i], events, nr, i, by, level, &e);
		v[i].e = e;
		v[i].name = e->name ? e->name : pmc_evsel__name(e->evsel);
		pmc_evsel__generic_name(e->evsel, v[i].generic, sizeof(v[i].generic));
		set_unit(&v[i], e->evsel, v[i].generic);
		v[i].counted = e->supported && e->nr > 0;
		v[i].value = e->sum.mean * v[i].scale;
		v[i].running_pct = running_pct(e);
		if (!(by & PMC_RUN_MERGE_UNITS) &&
		    !pmc_evsel__unit_name(e->evsel, v[i].own_name, sizeof(v[i].own_name)))
			v[i].name = v[i].own_name;
		d[i] = (struct pmc_stat_shadow_event){.generic = v[i].generic,
						      .priv = pmc_evsel__priv(e->evsel),
						      .counted = v[i].counted && !v[i].merged,
						      .mean = e->sum.mean};
	}
	for (size_t i = 0; i < nr && !err; i++)
		v[i].has_shadow = pmc_stat_shadow__compute(d, nr, i, wall_ns, &v[i].shadow);
	free(d);
	if (err) {
		pmc_stat_views__delete(v, nr);
		return err;
	}
	*out = v;
	return 0;
}

void pmc_stat_views__delete(struct pmc_stat_view *v, size_t nr)
{
	for (size_t i = 0; v && i < nr; i++)
		if (v[i].has_own)
			pmc_run_event__fini(&v[i].own);
	free(v);
}
