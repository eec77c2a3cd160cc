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

/* perf's "run" field: the counter's running time in ns, one run's wall time times its share. */
static unsigned long long runtime_ns(const struct stat_run *run, const struct stat_view *v)
{
	const struct pmc_run_results *res = run->res;

	if (!v->counted || !res->nr_runs)
		return 0;
	return (unsigned long long)(res->wall.mean * 1e9 * v->running_pct / 100.0 + 0.5);
}

/* A text field: as it is, unless it holds the separator, a quote or a line break (RFC 4180). */
static void put_field(FILE *f, const char *s, const char *sep)
{
	if (!strstr(s, sep) && !strpbrk(s, "\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++)
		fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
	fputc('"', f);
}

static void csv_line(FILE *f, const struct stat_run *run, const struct stat_view *v,
		     const char *sep)
{
	const struct pmc_run_event *e = v->e;
	const char *note = pmc_evsel__note(e->evsel);

	if (v->counted)
		fprintf(f, v->scale != 1 ? "%.2f%s" : "%.0f%s", v->value, sep);
	else
		fprintf(f, "%s%s", e->supported ? "<not counted>" : "<not supported>", sep);
	fprintf(f, "%s%s", v->unit, sep);
	put_field(f, v->name, sep);
	if (run->res->nr_reps > 1)
		fprintf(f, "%s%.2f%%", sep, v->counted ? e->sum.ci_pct : 0.0);
	fprintf(f, "%s%llu%s%.2f%s", sep, runtime_ns(run, v), sep, v->running_pct, sep);
	if (v->has_derived)
		fprintf(f, "%.*f%s%s", v->derived.decimals, v->derived.value, sep, v->derived.unit);
	else
		fputs(sep, f);
	/* pmc's fields: the pass, then the reason or how the event was counted. */
	fprintf(f, "%s%d%s", sep, pmc_evsel__pass(e->evsel), sep);
	put_field(f, !e->supported ? e->why : note ? note : "", sep);
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

static void json_line(FILE *f, const struct stat_run *run, const struct stat_view *v)
{
	const struct pmc_run_event *e = v->e;
	const char *note = pmc_evsel__note(e->evsel);
	char num[64];

	snprintf(num, sizeof(num), "%f", v->value);
	fputc('{', f);
	json_key(f, "counter-value",
		 v->counted	? num
		 : e->supported ? "<not counted>"
				: "<not supported>");
	json_key(f, "unit", v->unit);
	json_key(f, "event", v->name);
	if (run->res->nr_reps > 1)
		fprintf(f, "\"variance\" : %.2f, ", v->counted ? e->sum.ci_pct : 0.0);
	fprintf(f, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ", runtime_ns(run, v),
		v->running_pct);
	fprintf(f, "\"metric-value\" : %f, ", v->has_derived ? v->derived.value : 0.0);
	json_key(f, "metric-unit", v->has_derived ? v->derived.unit : "");
	/* pmc's keys: the pass, the runs, the interval and its level, the backend, why. */
	fprintf(f, "\"pass\" : %d, \"runs\" : %d, \"ci\" : %f, \"confidence\" : %g, ",
		pmc_evsel__pass(e->evsel), e->nr, v->counted ? e->sum.ci * v->scale : 0.0,
		run->opts->level * 100);
	if (!e->supported)
		json_key(f, "reason", e->why);
	else if (note)
		json_key(f, "note", note);
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
		const struct metric_row *row = &run->rows.v[i];
		json_t *j = metric_json(&row->r);
		char *s;

		if (j && row->region) {
			json_object_set_new(j, "region", json_string(row->region));
			if (row->thread >= 0)
				json_object_set_new(j, "thread", json_integer(row->thread));
		}
		s = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
		if (s)
			fprintf(f, "%s\n", s);
		free(s);
		json_decref(j);
	}
}

void stat_print_machine(FILE *f, const struct stat_run *run, const char *sep)
{
	struct stat_view *v;

	if (stat_views__new(run, &v)) {
		fprintf(stderr, "pmc stat: cannot print the results: out of memory\n");
		return;
	}
	if (sep)
		csv_header(f, run);
	for (size_t i = 0; i < run->res->nr_events; i++) {
		if (sep)
			csv_line(f, run, &v[i], sep);
		else
			json_line(f, run, &v[i]);
	}
	free(v);
	if (run->metrics)
		print_metrics(f, run, sep);
}
