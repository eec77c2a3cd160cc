// SPDX-License-Identifier: MIT
/*
 * pmc stat -x SEP and -j: perf stat's CSV and JSON lines, field for field (perf 6.1's
 * stat-display.c), pmc's additions after perf's fields (docs/stat-output.md, "-x and -j").
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cli.h"
#include "stat.h"

/* What a line is of: the run's total, a unit's (-A, --per-*), an interval's (-I). */
struct line_of {
	double t_s;			 /* the interval's time, or < 0 */
	const struct pmc_run_unit *unit; /* or NULL */
	double wall_ns;			 /* the time it covers: one run's, the interval's */
};

/* perf's "run" field: the counter's running time in ns, the time covered times its share. */
static unsigned long long runtime_ns(const struct line_of *l, const struct pmc_stat_view *v)
{
	if (!v->counted || l->wall_ns <= 0)
		return 0;
	return (unsigned long long)(l->wall_ns * v->running_pct / 100.0 + 0.5);
}

static bool aggregated(const struct stat_run *run)
{
	return run->opts->aggr == PMC_RUN_AGGR_CORE || run->opts->aggr == PMC_RUN_AGGR_SOCKET ||
	       run->opts->aggr == PMC_RUN_AGGR_DIE;
}

/* perf's leading fields: the interval's time, the unit, the CPUs of a core or socket. */
static void lead_fields(FILE *f, const struct stat_run *run, const struct line_of *l,
			const char *sep)
{
	if (l->t_s >= 0)
		fprintf(f, "%.9f%s", l->t_s, sep);
	if (l->unit) {
		stat_csv_field(f, l->unit->label, sep);
		fputs(sep, f);
		if (aggregated(run))
			fprintf(f, "%d%s", l->unit->nr_cpus, sep);
	}
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

static void csv_line(FILE *f, const struct stat_run *run, const struct line_of *l,
		     const struct pmc_stat_view *v, const char *sep)
{
	const struct pmc_run_event *e = v->e;
	char buf[1024];
	const char *note = event_note(e, buf, sizeof(buf));

	lead_fields(f, run, l, sep);
	if (v->counted)
		fprintf(f, v->scale != 1 ? "%.2f%s" : "%.0f%s", v->value, sep);
	else
		fprintf(f, "%s%s", e->supported ? "<not counted>" : "<not supported>", sep);
	fprintf(f, "%s%s", v->unit, sep);
	stat_csv_field(f, v->name, sep);
	if (run->res->nr_reps > 1)
		fprintf(f, "%s%.2f%%", sep, v->counted ? e->sum.ci_pct : 0.0);
	fprintf(f, "%s%llu%s%.2f%s", sep, runtime_ns(l, v), sep, v->running_pct, sep);
	if (v->has_shadow)
		fprintf(f, "%.*f%s%s", v->shadow.decimals, v->shadow.value, sep, v->shadow.unit);
	else
		fputs(sep, f);
	/* pmc's fields: the pass, then the reason or how the event was counted. */
	fprintf(f, "%s%d%s", sep, pmc_evsel__pass(e->evsel), sep);
	stat_csv_field(f, !e->supported ? e->why : note ? note : "", sep);
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

/* perf's key of a unit, "cpu", "core", "socket" or "thread", and its value into val. */
static const char *unit_key(const struct stat_run *run, const struct pmc_run_unit *u, char *val,
			    size_t len)
{
	switch (run->opts->aggr) {
	case PMC_RUN_AGGR_CPU:
		snprintf(val, len, "%d", u->cpu);
		return "cpu";
	case PMC_RUN_AGGR_CORE:
	case PMC_RUN_AGGR_SOCKET:
	case PMC_RUN_AGGR_DIE:
		snprintf(val, len, "%s", u->label);
		return run->opts->aggr == PMC_RUN_AGGR_CORE  ? "core"
		       : run->opts->aggr == PMC_RUN_AGGR_DIE ? "die"
							     : "socket";
	default:
		snprintf(val, len, "%s", u->label);
		return "thread";
	}
}

/* perf's keys of a unit: "cpu", "core" or "socket" with "aggregate-number", "thread". */
static void json_unit(FILE *f, const struct stat_run *run, const struct pmc_run_unit *u)
{
	char val[sizeof(u->label)];

	json_key(f, unit_key(run, u, val, sizeof(val)), val);
	if (aggregated(run))
		fprintf(f, "\"aggregate-number\" : %d, ", u->nr_cpus);
}

static void json_line(FILE *f, const struct stat_run *run, const struct line_of *l,
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
	if (run->res->nr_reps > 1)
		fprintf(f, "\"variance\" : %.2f, ", v->counted ? e->sum.ci_pct : 0.0);
	fprintf(f, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ", runtime_ns(l, v),
		v->running_pct);
	fprintf(f, "\"metric-value\" : %f, ", v->has_shadow ? v->shadow.value : 0.0);
	json_key(f, "metric-unit", v->has_shadow ? v->shadow.unit : "");
	/* pmc's keys: the pass, the runs, the interval and its level, the backend, why. */
	fprintf(f, "\"pass\" : %d, \"runs\" : %d, \"ci\" : %f, \"confidence\" : %g, ",
		pmc_evsel__pass(e->evsel), e->nr, v->counted ? e->sum.ci * v->scale : 0.0,
		run->opts->level * 100);
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

/* The summary's header as one '#' line, ahead of the CSV lines. */
static void csv_header(FILE *f, const struct stat_run *run)
{
	char *text = NULL, *p;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	stat_print_header(m, run);
	if (fclose(m) || !text) {
		free(text);
		return;
	}
	for (p = text; *p == '\n' || *p == ' '; p++)
		;
	for (char *q = p; *q; q++)
		if (*q == '\n')
			*q = ' ';
	for (size_t n = strlen(p); n && p[n - 1] == ' '; n--)
		p[n - 1] = 0;
	fprintf(f, "# pmc stat: %s\n", p);
	free(text);
}

/*
 * The metrics after the events: with -x a '#' line naming the fields, then one line per metric
 * (whole program, regions, threads); with -j one object per metric.
 */
static void print_metrics(FILE *f, const struct stat_run *run, const char *sep)
{
	if (sep) {
		fputs("# ", f);
		metric_rows__csv(f, &run->rows, sep);
		return;
	}
	for (size_t i = 0; i < run->rows.nr; i++) {
		const struct pmc_run_metric_row *row = &run->rows.v[i];
		json_t *extra = json_object();

		if (extra && row->region) {
			json_object_set_new(extra, "region", json_string(row->region));
			if (row->thread >= 0)
				json_object_set_new(extra, "thread", json_integer(row->thread));
		}
		metric_json_line(f, &row->s, extra);
	}
}

/* The '#' line naming the fields of a unit's or an interval's metric lines. */
static void metric_header(FILE *f, const struct stat_run *run, bool interval, const char *sep)
{
	fputs("# ", f);
	if (interval)
		fprintf(f, "interval%s", sep);
	if (run->opts->aggr != PMC_RUN_AGGR_GLOBAL)
		fprintf(f, "unit_label%s", sep);
	if (aggregated(run))
		fprintf(f, "unit_cpus%s", sep);
	pmc_metric_summary__csv_header(f, sep);
}

/* One metric of a unit's or an interval's line: -j's object with its interval and unit keys. */
static void json_metric(FILE *f, const struct stat_run *run, const struct line_of *l,
			const struct pmc_metric_summary *r)
{
	json_t *j = json_object();
	char val[sizeof(l->unit->label)];
	/* the key first: it writes val, which the value then reads */
	const char *key = l->unit ? unit_key(run, l->unit, val, sizeof(val)) : NULL;

	if (j && l->t_s >= 0)
		json_object_set_new(j, "interval", json_real(l->t_s));
	if (j && key)
		json_object_set_new(j, key, json_string(val));
	if (j && l->unit && aggregated(run))
		json_object_set_new(j, "aggregate-number", json_integer(l->unit->nr_cpus));
	metric_json_line(f, r, j);
}

/*
 * The metrics of a unit's or an interval's events after its event lines, each led by the
 * lines' fields; those with an input it did not count (of another pass) are left out.
 */
static void line_metrics(FILE *f, const struct stat_run *run, const struct line_of *l,
			 const struct pmc_run_event *events, const char *sep)
{
	struct metric_rows rows;

	if (stat_metrics__of(run, events, &rows)) {
		fprintf(stderr, "pmc stat: cannot compute the metrics: out of memory\n");
		return;
	}
	for (size_t i = 0; i < rows.nr; i++) {
		if (rows.v[i].s.v.status == PMC_METRIC_UNAVAILABLE)
			continue;
		if (!sep) {
			json_metric(f, run, l, &rows.v[i].s);
			continue;
		}
		lead_fields(f, run, l, sep);
		pmc_metric_summary__csv(f, &rows.v[i].s, sep, NULL, -1);
	}
	metric_rows__free(&rows);
}

static void print_lines(FILE *f, const struct stat_run *run, const struct line_of *l,
			const struct pmc_run_event *events, size_t nr, const char *sep)
{
	struct pmc_stat_view *v;

	if (pmc_stat_views__of(events, nr, l->wall_ns, stat_merge_by(run->opts), run->opts->level,
			       &v)) {
		fprintf(stderr, "pmc stat: cannot print the results: out of memory\n");
		return;
	}
	for (size_t i = 0; i < nr; i++) {
		/* an interval's or unit's line of an event not in its run is not printed */
		if (((l->t_s >= 0 || l->unit) && !v[i].counted) || v[i].merged)
			continue;
		if (sep)
			csv_line(f, run, l, &v[i], sep);
		else
			json_line(f, run, l, &v[i]);
	}
	pmc_stat_views__delete(v, nr);
	if (run->metrics && (l->t_s >= 0 || l->unit))
		line_metrics(f, run, l, events, sep);
}

/* A unit's lines in place of the totals (perf's -A, --per-core, ... -x and -j), or the totals. */
static void print_all(FILE *f, const struct stat_run *run, struct line_of *l,
		      const struct pmc_run_event *events, size_t nr,
		      const struct pmc_run_unit *units, size_t nr_units, const char *sep)
{
	if (run->opts->aggr == PMC_RUN_AGGR_GLOBAL) {
		print_lines(f, run, l, events, nr, sep);
		return;
	}
	for (size_t u = 0; u < nr_units; u++) {
		l->unit = &units[u];
		print_lines(f, run, l, units[u].events, nr, sep);
	}
	l->unit = NULL;
}

void stat_print_machine(FILE *f, const struct stat_run *run, const char *sep)
{
	const struct pmc_run_results *res = run->res;
	struct line_of l = {.t_s = -1, .wall_ns = res->nr_runs ? res->wall.mean * 1e9 : 0};

	if (sep)
		csv_header(f, run);
	if (sep && run->metrics && run->opts->aggr != PMC_RUN_AGGR_GLOBAL)
		metric_header(f, run, false, sep);
	print_all(f, run, &l, res->events, res->nr_events, res->units, res->nr_units, sep);
	if (run->metrics)
		print_metrics(f, run, sep);
}

void stat_print_machine_interval(FILE *f, struct stat_run *run, const struct pmc_run_interval *iv,
				 const char *sep)
{
	struct line_of l = {.t_s = iv->t_s, .wall_ns = iv->span_s * 1e9};

	if (sep && run->metrics && !run->iv_metric_header)
		metric_header(f, run, true, sep);
	run->iv_metric_header = true;

	print_all(f, run, &l, iv->events, iv->nr_events, iv->units, iv->nr_units, sep);
}
