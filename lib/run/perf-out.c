// SPDX-License-Identifier: MIT
/*
 * perf stat's -x SEP and -j lines of a run, field for field (perf 6.1's stat-display.c),
 * pmc's additions after perf's fields (docs/stat-output.md, "-x and -j"): every field of an
 * event's line is written here, in csv_line() and json_line(); the metrics' lines after them
 * are perf-metrics.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <pmc/event.h>
#include <pmc/stat-view.h>
#include "core/field.h"
#include "metric/metric.h"
#include "run/perf-out.h"
#include "run/runner.h"

/* perf's "run" field: the counter's running time in ns, the time covered times its share. */
static unsigned long long runtime_ns(const struct pmc__perf_line *l, const struct pmc_stat_view *v)
{
	if (!v->counted || l->wall_ns <= 0)
		return 0;
	return (unsigned long long)(l->wall_ns * v->running_pct / 100.0 + 0.5);
}

/*
 * pmc's note on a counted event: how it was counted (pmc_evsel__note), then runs whose count
 * was below the overhead --subtract-overhead took off, counted as 0 (docs/accuracy.md); NULL
 * when there is none.
 */
static const char *event_note(const struct pmc_run_event *e, char *buf, size_t len)
{
	const char *note = pmc_evsel__note(e->evsel);

	if (!e->nr_clamped)
		return note;
	snprintf(buf, len, "%s%soverhead larger than the count in %d of %d runs: counted as 0",
		 note ? note : "", note ? "; " : "", e->nr_clamped, e->nr);
	return buf;
}

static void csv_line(FILE *f, const struct pmc_run *run, const struct pmc__perf_line *l,
		     const struct pmc_stat_view *v, const char *sep)
{
	const struct pmc_run_event *e = v->e;
	char buf[1024];
	const char *note = event_note(e, buf, sizeof(buf));

	pmc__perf_lead(f, run, l, sep);
	if (v->counted)
		fprintf(f, v->scale != 1 ? "%.2f%s" : "%.0f%s", v->value, sep);
	else
		fprintf(f, "%s%s", e->supported ? "<not counted>" : "<not supported>", sep);
	fprintf(f, "%s%s", v->unit, sep);
	pmc__csv_field_sep(f, v->name, sep);
	if (run->res.nr_reps > 1)
		fprintf(f, "%s%.2f%%", sep, v->counted ? e->sum.ci_pct : 0.0);
	fprintf(f, "%s%llu%s%.2f%s", sep, runtime_ns(l, v), sep, v->running_pct, sep);
	if (v->has_shadow)
		fprintf(f, "%.*f%s%s", v->shadow.decimals, v->shadow.value, sep, v->shadow.unit);
	else
		fputs(sep, f);
	/* pmc's fields: the pass, then the reason or how the event was counted. */
	fprintf(f, "%s%d%s", sep, pmc_evsel__pass(e->evsel), sep);
	pmc__csv_field_sep(f, !e->supported ? e->why : note ? note : "", sep);
	fputc('\n', f);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_key(FILE *f, const char *key, const char *val)
{
	fprintf(f, "\"%s\" : ", key);
	json_str(f, val);
	fputs(", ", f);
}

/* perf's keys of a unit: "cpu", "core" or "socket" with "aggregate-number", "thread". */
static void json_unit(FILE *f, const struct pmc_run *run, const struct pmc_run_unit *u)
{
	char val[sizeof(u->label)];

	json_key(f, pmc__perf_unit_key(run, u, val, sizeof(val)), val);
	if (pmc__perf_aggregated(run))
		fprintf(f, "\"aggregate-number\" : %d, ", u->nr_cpus);
}

static void json_line(FILE *f, const struct pmc_run *run, const struct pmc__perf_line *l,
		      const struct pmc_stat_view *v)
{
	const struct pmc_run_event *e = v->e;
	char num[64], buf[1024];
	const char *note = event_note(e, buf, sizeof(buf));

	snprintf(num, sizeof(num), "%f", v->value);
	fputc('{', f);
	if (l->t_s >= 0)
		fprintf(f, "\"interval\" : %.9f, ", l->t_s);
	if (l->unit)
		json_unit(f, run, l->unit);
	json_key(f, "counter-value",
		 v->counted	? num
		 : e->supported ? "<not counted>"
				: "<not supported>");
	json_key(f, "unit", v->unit);
	json_key(f, "event", v->name);
	if (run->res.nr_reps > 1)
		fprintf(f, "\"variance\" : %.2f, ", v->counted ? e->sum.ci_pct : 0.0);
	fprintf(f, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ", runtime_ns(l, v),
		v->running_pct);
	fprintf(f, "\"metric-value\" : %f, ", v->has_shadow ? v->shadow.value : 0.0);
	json_key(f, "metric-unit", v->has_shadow ? v->shadow.unit : "");
	/* pmc's keys: the pass, the runs, the interval and its level, the backend, why. */
	fprintf(f, "\"pass\" : %d, \"runs\" : %d, \"ci\" : %f, \"confidence\" : %g, ",
		pmc_evsel__pass(e->evsel), e->nr, v->counted ? e->sum.ci * v->scale : 0.0,
		run->opts.level * 100);
	if (!e->supported)
		json_key(f, "reason", e->why);
	else if (note)
		json_key(f, "note", note);
	if (e->nr_clamped) /* the JSON results file's name for it */
		fprintf(f, "\"overhead_clamped\" : %d, ", e->nr_clamped);
	fprintf(f, "\"backend\" : ");
	json_str(f, pmc_evlist__backend(run->evlist));
	fputs("}\n", f);
}

/* The events' lines of one total, unit or interval, then (of a unit or interval) its metrics. */
static int print_lines(FILE *f, const struct pmc_run *run, const struct pmc__perf_line *l,
		       const struct pmc_run_event *events, size_t nr,
		       const struct pmc_run_perf_opts *o)
{
	struct pmc_stat_view *v;
	int err = pmc_stat_views__of(events, nr, l->wall_ns, o->merge, run->opts.level, &v);

	if (err)
		return err;
	for (size_t i = 0; i < nr; i++) {
		/* an interval's or unit's line of an event not in its run is not printed */
		if (((l->t_s >= 0 || l->unit) && !v[i].counted) || v[i].merged)
			continue;
		if (o->sep)
			csv_line(f, run, l, &v[i], o->sep);
		else
			json_line(f, run, l, &v[i]);
	}
	pmc_stat_views__delete(v, nr);
	if (run->opts.metrics && (l->t_s >= 0 || l->unit))
		return pmc__perf_line_metrics(f, run, l, events, o->sep);
	return 0;
}

/* A unit's lines in place of the totals (perf's -A, --per-core, ... -x and -j), or the totals. */
static int print_all(FILE *f, const struct pmc_run *run, struct pmc__perf_line *l,
		     const struct pmc_run_event *events, size_t nr,
		     const struct pmc_run_unit *units, size_t nr_units,
		     const struct pmc_run_perf_opts *o)
{
	int err = 0;

	if (run->opts.aggr == PMC_RUN_AGGR_GLOBAL)
		return print_lines(f, run, l, events, nr, o);
	for (size_t u = 0; u < nr_units && !err; u++) {
		l->unit = &units[u];
		err = print_lines(f, run, l, units[u].events, nr, o);
	}
	l->unit = NULL;
	return err;
}

int pmc_run__write_perf(const struct pmc_run *run, FILE *f, const struct pmc_run_perf_opts *o)
{
	const struct pmc_run_results *res = &run->res;
	struct pmc__perf_line l = {.t_s = -1, .wall_ns = res->nr_runs ? res->wall.mean * 1e9 : 0};
	int err;

	if (o->sep && o->header)
		pmc__perf_header(f, o->header);
	if (o->sep && run->opts.metrics && run->opts.aggr != PMC_RUN_AGGR_GLOBAL)
		pmc__perf_metric_header(f, run, false, o->sep);
	err = print_all(f, run, &l, res->events, res->nr_events, res->units, res->nr_units, o);
	if (!err && run->opts.metrics)
		err = pmc__perf_metrics(f, run, o->sep);
	return err;
}

int pmc_run__write_perf_interval(const struct pmc_run *run, FILE *f,
				 const struct pmc_run_interval *iv,
				 const struct pmc_run_perf_opts *o, bool *said_header)
{
	struct pmc__perf_line l = {.t_s = iv->t_s, .wall_ns = iv->span_s * 1e9};

	if (o->sep && run->opts.metrics && !*said_header)
		pmc__perf_metric_header(f, run, true, o->sep);
	*said_header = true;
	return print_all(f, run, &l, iv->events, iv->nr_events, iv->units, iv->nr_units, o);
}
