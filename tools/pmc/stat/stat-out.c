// SPDX-License-Identifier: MIT
/*
 * pmc stat's terminal summary, laid out as perf stat's (docs/stat-output.md): a value, unit,
 * name and comment column per event, per unit too, the repetitions in detail, the time of one
 * run; and the pass plan.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "common/cli.h"
#include "stat.h"

void stat_print_plan(FILE *f, const struct stat_run *run)
{
	const struct pmc_run_results *res = run->res;
	size_t nr = res->nr_events;

	fprintf(f, "# pass plan: %d pass%s%s\n", res->nr_passes, res->nr_passes == 1 ? "" : "es",
		run->opts->multiplex ? " (multiplexed: one run, values scaled)" : "");
	for (int pass = 0; pass < res->nr_passes; pass++) {
		fprintf(f, "pass %d:\n", pass);
		for (size_t i = 0; i < nr; i++) {
			const struct pmc_evsel *ev = res->events[i].evsel;
			const char *group = pmc_evsel__group_name(ev);
			bool grouped = pmc_evsel__group_size(pmc_evsel__leader(ev)) > 1;

			if (pmc_evsel__pass(ev) != pass)
				continue;
			fprintf(f, "  %-40s %s%s%s\n", pmc_evsel__name(ev), pmc_evsel__resource(ev),
				!grouped ? ""
				: group	 ? ", group "
					 : ", grouped",
				grouped && group ? group : "");
		}
	}
	for (size_t i = 0; i < nr; i++)
		if (!res->events[i].supported)
			fprintf(f, "not counted: %s: %s\n", pmc_evsel__name(res->events[i].evsel),
				res->events[i].why);
}

/*
 * The levels counted: the default privilege's, which applies to events that happen at either
 * level; kernel-side events without :u/:k count where they happen (docs/events.md), which is
 * said when some such event was counted so.
 */
static void print_levels(FILE *f, const struct stat_run *run)
{
	const unsigned uk = PMC_PRIV_USER | PMC_PRIV_KERNEL, priv = run->opts->priv & uk;
	const struct pmc_run_results *res = run->res;
	bool where = false;

	for (size_t i = 0; i < res->nr_events && !where; i++)
		where = res->events[i].supported && pmc_evsel__kernel_side(res->events[i].evsel) &&
			(pmc_evsel__priv(res->events[i].evsel) & uk) != priv;
	fprintf(f, "%s%s",
		priv == PMC_PRIV_USER	  ? "user level"
		: priv == PMC_PRIV_KERNEL ? "kernel level"
					  : "user and kernel levels",
		where ? "; kernel-side events where they happen" : "");
}

void stat_print_header(FILE *f, const struct stat_run *run)
{
	const struct stat_opts *o = run->opts;
	const struct pmc_run_results *res = run->res;
	int reps = res->nr_reps; /* --null: the runs, which no event counts */

	for (size_t i = 0; i < res->nr_events; i++)
		if (res->events[i].nr > reps)
			reps = res->events[i].nr;
	fprintf(f, "\n Performance counter stats for '");
	/* -p, -t, -a and -C name what is counted; a command beside them is how long. */
	if (o->pid)
		fprintf(f, "process %d", (int)o->pid);
	else if (o->tids)
		fprintf(f, "threads %s", cli_show(o->tids));
	else if (o->system_wide || o->cpus)
		fprintf(f, "CPUs %s", o->cpus ? o->cpus : "all");
	if ((o->pid || o->tids || o->system_wide || o->cpus) && *o->argv)
		fprintf(f, "' while '");
	for (char **a = o->argv; *a; a++)
		fprintf(f, "%s%s", a == o->argv ? "" : " ", cli_show(*a));
	fprintf(f, "'%s (%d repetition%s%s, %d pass%s, %g%% confidence, ",
		(o->pid || o->tids || o->system_wide || o->cpus) && *o->argv ? " ran" : "", reps,
		reps == 1 ? "" : "s", o->no_warmup || !*o->argv ? "" : " after a warm-up run",
		res->nr_passes, res->nr_passes == 1 ? "" : "es", o->level * 100);
	print_levels(f, run);
	fprintf(f, ", backend %s):\n\n", pmc_evlist__backend(run->evlist));
}

#define METRIC_LEN 35 /* perf's comment column */

/* perf's unit column: as wide as the longest unit of an event counted, "unit" at least. */
static int unit_width(const struct pmc_stat_view *v, size_t nr)
{
	int w = 4;

	for (size_t i = 0; i < nr; i++)
		if (v[i].counted && (int)strlen(v[i].unit) > w)
			w = (int)strlen(v[i].unit);
	return w;
}

static int decimals(const struct pmc_stat_view *v)
{
	return floor(v->scale) != v->scale ? 2 : 0;
}

static void print_comment(FILE *f, const struct pmc_stat_view *v, const struct stat_numfmt *nf)
{
	struct stat_numfmt plain = *nf;
	char num[64];
	int n;

	if (!v->has_shadow) {
		fprintf(f, "%-*s", METRIC_LEN, "");
		return;
	}
	plain.sep[0] = 0;
	stat_num(num, sizeof(num), v->shadow.value, v->shadow.decimals, &plain);
	n = fprintf(f, " # %*s%s", v->shadow.width, num, v->shadow.suffix);
	fprintf(f, " %-*s", n < METRIC_LEN - 1 ? METRIC_LEN - n - 1 : 0, v->shadow.unit);
}

/* Whether a metric's value is the line's own comment (insn_per_cycle and 'insn per cycle'). */
static bool same_as_comment(const struct pmc_stat_view *v, const struct pmc_run_metric_row *row)
{
	double a = v->shadow.value, b = row->s.v.value;

	return row->s.v.status == PMC_METRIC_OK && fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/*
 * The metrics that read event idx first (perf's layout): the first in its comment column when
 * the event has no comment of its own, or one whose value is that comment's, which it
 * replaces (else the value would be printed twice); returned and marked printed, or -1.
 */
static long metric_in_column(const struct stat_run *run, const struct pmc_stat_view *v, size_t idx,
			     bool *printed)
{
	for (size_t i = 0; i < run->rows.nr; i++) {
		const struct pmc_run_metric_row *row = &run->rows.v[i];

		if (row->region || row->s.first != (long)idx || printed[i] ||
		    (v->has_shadow && !same_as_comment(v, row)))
			continue;
		printed[i] = true;
		return (long)i;
	}
	return -1;
}

/*
 * The metrics of event idx that its line had no room for, each on a line of its own; idx -1:
 * every metric not printed yet (of inputs that are no event of the list).
 */
static void print_metric_lines(FILE *f, const struct stat_run *run, long idx, int uw, bool *printed)
{
	char buf[1024];

	for (size_t i = 0; i < run->rows.nr; i++) {
		const struct pmc_run_metric_row *row = &run->rows.v[i];

		if (row->region || (idx >= 0 && row->s.first != idx) || printed[i])
			continue;
		printed[i] = true;
		fprintf(f, "%18s %-*s %-32s %s\n", "", uw, "", "",
			metric_comment(buf, sizeof(buf), &row->s));
	}
}

/*
 * The metrics of a unit's or an interval's events, each on a line of its own after prefix;
 * those with an input it did not count (of another pass) are left out: the summary says why.
 */
static void print_unit_metrics(FILE *f, const struct stat_run *run, const char *prefix,
			       const struct pmc_run_event *events, int uw)
{
	struct metric_rows rows;
	char buf[1024];

	if (stat_metrics__of(run, events, &rows)) {
		fprintf(stderr, "pmc stat: cannot compute the metrics: out of memory\n");
		return;
	}
	for (size_t i = 0; i < rows.nr; i++)
		if (rows.v[i].s.v.status != PMC_METRIC_UNAVAILABLE)
			fprintf(f, "%s%18s %-*s %-32s %s\n", prefix, "", uw, "", "",
				metric_comment(buf, sizeof(buf), &rows.v[i].s));
	metric_rows__free(&rows);
}

/* An event's line; metric: the row of the metric in its comment column, or -1. */
static void print_line(FILE *f, const char *prefix, const struct pmc_stat_view *v, int uw, int reps,
		       const struct stat_numfmt *nf, long metric, const struct stat_run *run)
{
	const struct pmc_run_event *e = v->e;
	char num[64], buf[1024];

	fputs(prefix, f);
	if (!v->counted) {
		fprintf(f, "%18s %-*s %s", e->supported ? "<not counted>" : "<not supported>", uw,
			v->unit, v->name);
		if (!e->supported)
			fprintf(f, "   (%s)", e->why);
		fputc('\n', f);
		return;
	}
	stat_num(num, sizeof(num), v->value, decimals(v), nf);
	fprintf(f, "%18s %-*s %-32s", num, uw, v->unit, v->name);
	if (metric >= 0)
		fprintf(f, " %s", metric_comment(buf, sizeof(buf), &run->rows.v[metric].s));
	else
		print_comment(f, v, nf);
	if (reps > 1 && e->sum.ci_pct != 0)
		fprintf(f, "  ( +-%6.2f%% )", e->sum.ci_pct);
	if (e->scaled)
		fprintf(f, "  (%.2f%%)", v->running_pct);
	if (pmc_evsel__note(e->evsel))
		fprintf(f, "   (%s)", pmc_evsel__note(e->evsel));
	if (v->trust)
		fprintf(f, "   [%s%s%s]", v->trust, v->bias_subtracted ? ", subtracted" : "",
			e->nr_clamped ? ", larger than the count: 0" : "");
	else if (e->nr_clamped)
		fprintf(f, "   [overhead larger than the count: 0]");
	fputc('\n', f);
}

/* One event's run_p5mon statistics: mean, interval, median, extremes, spread. */
static void print_detail(FILE *f, const struct pmc_stat_view *v, bool all,
			 const struct stat_numfmt *nf)
{
	const struct pmc_summary *s = &v->e->sum;
	int d = decimals(v);
	char n[6][64];

	stat_num(n[0], sizeof(n[0]), s->mean * v->scale, d, nf);
	stat_num(n[1], sizeof(n[1]), s->ci * v->scale, d + 1, nf);
	/* A median of counts is a count, or halfway between two: no decimals it does not have. */
	stat_num(n[2], sizeof(n[2]), s->median * v->scale,
		 d + (v->scale != 1 || s->median != floor(s->median)), nf);
	stat_num(n[3], sizeof(n[3]), s->min * v->scale, d, nf);
	stat_num(n[4], sizeof(n[4]), s->max * v->scale, d, nf);
	stat_num(n[5], sizeof(n[5]), s->stddev * v->scale, d + 1, nf);
	fprintf(f, "%18s +- %-14s %16s %16s %16s %16s  %s%s%s%s\n", n[0], n[1], n[2], n[3], n[4],
		n[5], v->name, *v->unit ? " (" : "", v->unit, *v->unit ? ")" : "");
	for (int i = 0; all && i < v->e->nr; i++)
		fprintf(f, "    rep %d: %s\n", i + 1,
			stat_num(n[0], sizeof(n[0]), v->e->values[i] * v->scale, d, nf));
}

/* The second block: what run_p5mon printed of each event, when there were repetitions. */
static void print_details(FILE *f, const struct stat_run *run, const struct pmc_stat_view *v,
			  const struct stat_numfmt *nf)
{
	const struct pmc_run_results *res = run->res;
	bool all = run->opts->all_results, any = false;

	for (size_t i = 0; i < res->nr_events; i++)
		any |= v[i].counted;
	if ((res->nr_reps < 2 && !all) || !any) /* nothing counted: no table to show */
		return;
	fprintf(f, "\n %d run%s of each event, %g%% confidence interval:\n\n", res->nr_reps,
		res->nr_reps == 1 ? "" : "s", run->opts->level * 100);
	fprintf(f, "%18s +- %-14s %16s %16s %16s %16s  %s\n", "mean", "interval", "median", "min",
		"max", "stddev", "event");
	for (size_t i = 0; i < res->nr_events; i++)
		if (v[i].counted)
			print_detail(f, &v[i], all, nf);
}

/* " 0.001 +- 0.0001 seconds WHAT  ( +- 1.23% )", or without the interval for one run. */
static void print_time(FILE *f, const struct pmc_summary *s, const char *what,
		       const struct stat_numfmt *nf)
{
	struct stat_numfmt plain = *nf;
	char mean[64], ci[64];
	int prec;

	plain.sep[0] = 0;
	if (s->n < 2) {
		fprintf(f, " %17s seconds %s", stat_num(mean, sizeof(mean), s->mean, 9, &plain),
			what);
		return;
	}
	prec = stat_num_precision(s->ci) + 2;
	fprintf(f, " %17s +- %s seconds %s", stat_num(mean, sizeof(mean), s->mean, prec, &plain),
		stat_num(ci, sizeof(ci), s->ci, prec, &plain), what);
	if (s->ci_pct != 0)
		fprintf(f, "  ( +-%6.2f%% )", s->ci_pct);
}

/* With passes, which one a time is of: each pass's runs count different events. */
static void print_which_pass(FILE *f, const struct pmc_run_results *res)
{
	if (res->nr_passes > 1 && res->wall_pass >= 0)
		fprintf(f, "  (pass %d of %d)", res->wall_pass + 1, res->nr_passes);
}

/* The other passes' wall times, each over its own runs, under the footer's (pass 1's). */
static void print_pass_times(FILE *f, const struct pmc_run_results *res,
			     const struct stat_numfmt *nf)
{
	if (!res->nr_runs || res->wall_pass < 0)
		return;
	print_which_pass(f, res);
	for (int p = res->wall_pass + 1; res->pass_wall && p < res->nr_passes; p++) {
		if (!res->pass_wall[p].n)
			continue;
		fputc('\n', f);
		print_time(f, &res->pass_wall[p], "time elapsed", nf);
		fprintf(f, "  (pass %d of %d)", p + 1, res->nr_passes);
	}
}

/*
 * perf's footer: the wall time of one run, then the command's user and system time; with
 * passes, each pass's over its own runs (never one interval over runs of different passes).
 */
static void print_footer(FILE *f, const struct stat_run *run, const struct stat_numfmt *nf)
{
	const struct pmc_run_results *res = run->res;
	struct pmc_summary none = {.n = 1, .mean = res->elapsed_s};

	fputc('\n', f);
	print_time(f, res->nr_runs && res->wall_pass >= 0 ? &res->wall : &none, "time elapsed", nf);
	print_pass_times(f, res, nf);
	if (res->stop_signal)
		fprintf(f, " (stopped early: %s; the values counted so far)",
			cli_signame(res->stop_signal));
	if (res->in_warmup && (res->stop_signal || res->have_status))
		fprintf(f, "\n (the warm-up run was the only run: its values are shown)");
	fputc('\n', f);
	if (res->nr_runs && res->have_rusage) {
		fputc('\n', f);
		print_time(f, &res->user, "user", nf);
		print_which_pass(f, res);
		fputc('\n', f);
		print_time(f, &res->sys, "sys", nf);
		print_which_pass(f, res);
		fputc('\n', f);
	}
	fputc('\n', f);
}

void stat_print_events(FILE *f, const struct stat_run *run, const char *prefix,
		       const struct pmc_run_event *events, size_t nr, double wall_ns,
		       const struct stat_numfmt *nf)
{
	struct pmc_stat_view *v;
	int uw;

	if (pmc_stat_views__of(events, nr, wall_ns, stat_merge_by(run->opts), run->opts->level,
			       &v)) {
		fprintf(stderr, "pmc stat: cannot print: out of memory\n");
		return;
	}
	uw = unit_width(v, nr);
	for (size_t i = 0; i < nr; i++)
		if (v[i].counted && !v[i].merged)
			print_line(f, prefix, &v[i], uw, run->res->nr_reps, nf, -1, run);
	print_unit_metrics(f, run, prefix, events, uw);
	pmc_stat_views__delete(v, nr);
}

/* The rows per unit (-A, --per-core, --per-socket, --per-thread): docs/stat-output.md, "Units". */
/* The label column: as wide as the widest label. */
static int label_width(const struct pmc_run_unit *u, size_t n)
{
	int w = 0;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(u[i].label) > w)
			w = (int)strlen(u[i].label);
	return w;
}

/* "S0-D0-C1   2  " (a core or socket with its CPUs, as perf), "CPU3  ", "prog-1234  ". */
static void unit_prefix(char *buf, size_t len, const char *before, const struct pmc_run_unit *u,
			int w, enum pmc_run_aggr aggr)
{
	if (aggr == PMC_RUN_AGGR_CORE || aggr == PMC_RUN_AGGR_SOCKET || aggr == PMC_RUN_AGGR_DIE)
		snprintf(buf, len, "%s%-*s %3d  ", before, w, u->label, u->nr_cpus);
	else
		snprintf(buf, len, "%s%-*s  ", before, w, cli_show(u->label));
}

void stat_print_units(FILE *f, const struct stat_run *run, const char *before,
		      const struct pmc_run_unit *units, size_t nr, double wall_ns,
		      const struct stat_numfmt *nf)
{
	int w = label_width(units, nr);
	char prefix[128];

	for (size_t u = 0; u < nr; u++) {
		unit_prefix(prefix, sizeof(prefix), before, &units[u], w, run->opts->aggr);
		stat_print_events(f, run, prefix, units[u].events, run->res->nr_events, wall_ns,
				  nf);
	}
}

/* The summary's rows per unit, unless the counts are the whole program's. */
static void print_unit_rows(FILE *f, const struct stat_run *run, const struct stat_numfmt *nf)
{
	const struct pmc_run_results *res = run->res;

	if (run->opts->aggr == PMC_RUN_AGGR_GLOBAL)
		return;
	stat_print_units(f, run, "", res->units, res->nr_units,
			 res->nr_runs ? res->wall.mean * 1e9 : 0, nf);
	if (res->lost_threads)
		fprintf(f,
			"(the values of %llu threads were lost, the kernel's buffer full: the "
			"main thread's row holds them)\n",
			(unsigned long long)res->lost_threads);
	fputc('\n', f);
}

void stat_print_summary(FILE *f, const struct stat_run *run, const struct stat_numfmt *nf)
{
	const struct pmc_run_results *res = run->res;
	bool *printed = calloc(run->rows.nr + 1, sizeof(*printed));
	struct pmc_stat_view *v;
	int uw;

	if (!printed || stat_views__new(run, &v)) {
		fprintf(stderr, "pmc stat: cannot print the summary: out of memory\n");
		free(printed);
		return;
	}
	uw = unit_width(v, res->nr_events);
	stat_print_header(f, run);
	stat_print_overhead(f, run);
	print_unit_rows(f, run, nf);
	for (size_t i = 0; i < res->nr_events; i++) {
		long m = v[i].counted ? metric_in_column(run, &v[i], i, printed) : -1;

		if (!v[i].merged)
			print_line(f, "", &v[i], uw, res->nr_reps, nf, m, run);
		print_metric_lines(f, run, (long)i, uw, printed);
	}
	print_metric_lines(f, run, -1, uw, printed);
	free(printed);
	print_details(f, run, v, nf);
	stat_regions__print(f, run);
	print_footer(f, run, nf);
	pmc_stat_views__delete(v, res->nr_events);
}
