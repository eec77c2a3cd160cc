// SPDX-License-Identifier: MIT
/* The runner's results as JSON, schema "pmc-stat/1" (docs/stat-output.md), and as HTML. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <jansson.h>
#include "core/html.h"
#include "core/jsonstr.h"
#include "core/launcher.h"
#include "metric/metric.h"
#include "run/output.h"

/* "SIGSEGV" for 11; NULL for no signal. */
static json_t *signal_name(int sig)
{
	const char *abbrev = sig > 0 ? sigabbrev_np(sig) : NULL;
	char buf[32];

	if (!sig)
		return json_null();
	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return json_string(buf);
}

static const char *const aggr_names[] = {
	[PMC_RUN_AGGR_GLOBAL] = "none",	  [PMC_RUN_AGGR_CPU] = "cpu",
	[PMC_RUN_AGGR_CORE] = "core",	  [PMC_RUN_AGGR_SOCKET] = "socket",
	[PMC_RUN_AGGR_THREAD] = "thread", [PMC_RUN_AGGR_DIE] = "die",
};

static json_t *command(const struct pmc_run *run)
{
	json_t *cmd = json_array();

	for (char *const *a = run->target.argv; a && *a; a++)
		json_array_append_new(cmd, pmc__json_bytes(*a));
	return cmd;
}

/*
 * The events that count the whole host (pmc_evsel__per_host()): pmc merge says they are summed
 * over hosts, each counted by its local rank 0 (docs/mpi.md, "Per-host events").
 */
static json_t *per_host_events(const struct pmc_evlist *evlist)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < pmc_evlist__nr(evlist); i++)
		if (pmc_evsel__per_host(pmc_evlist__at(evlist, i)))
			json_array_append_new(
				a, pmc__json_bytes(pmc_evsel__name(pmc_evlist__at(evlist, i))));
	return a;
}

static json_t *provenance(const struct pmc_run *run)
{
	const struct pmc_caps *caps = pmc_caps();
	const struct pmc_run_opts *o = &run->opts;
	char date[64];
	time_t t = time(NULL);
	struct pmc_launcher l;
	json_t *j, *mpi;

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	j = json_pack("{s:s, s:s, s:o, s:o, s:i, s:o, s:i, s:i, s:f, s:b, s:b, s:s, s:b, s:f}",
		      "pmc_version", pmc_version(), "backend", pmc_evlist__backend(run->evlist),
		      "cpu_model", pmc__json_bytes(caps->cpu_model), "kernel",
		      pmc__json_bytes(caps->kernel), "paranoid", caps->paranoid, "command",
		      command(run), "repetitions", o->repeat, "passes", run->res.nr_passes,
		      "confidence", o->level, "warmup", !o->no_warmup, "multiplex", o->multiplex,
		      "date", date, "interrupted", run->res.stop_signal != 0, "elapsed_s",
		      run->res.elapsed_s);
	if (j) {
		json_object_set_new(j, "aggregation", json_string(aggr_names[o->aggr]));
		json_object_set_new(j, "interval_ms", json_integer(o->interval_ms));
		json_object_set_new(j, "delay_ms", json_integer(o->delay_ms));
		/* The machine's '#' literals, for metrics computed from the file elsewhere. */
		json_object_set_new(j, "literals",
				    pmc__literals_json(pmc_evlist__backend(run->evlist),
						       run->target.kind == PMC_TARGET_CPUS,
						       run->target.cpus));
		pmc_launcher_detect(&l);
		if ((mpi = pmc__launcher_json(&l))) {
			json_object_set_new(mpi, "per_host_events", per_host_events(run->evlist));
			json_object_set_new(j, "mpi", mpi);
		}
	}
	if (j && run->res.stop_signal) {
		json_object_set_new(j, "stopped_by", signal_name(run->res.stop_signal));
		json_object_set_new(j, "stopped_in_warmup", json_boolean(run->res.in_warmup));
	}
	return j;
}

static void set_summary(json_t *j, const struct pmc_summary *s)
{
	json_object_set_new(j, "mean", json_real(s->mean));
	json_object_set_new(j, "stddev", json_real(s->stddev));
	json_object_set_new(j, "median", json_real(s->median));
	json_object_set_new(j, "min", json_real(s->min));
	json_object_set_new(j, "max", json_real(s->max));
	json_object_set_new(j, "ci", json_real(s->ci));
	json_object_set_new(j, "ci_pct", json_real(s->ci_pct));
}

static json_t *event_json(const struct pmc_run_event *e)
{
	char enc[256];
	json_t *values = json_array(), *ratios = json_array(), *j;

	pmc_evsel__encoding(e->evsel, enc, sizeof(enc));
	for (int r = 0; r < e->nr; r++) {
		json_array_append_new(values, json_real(e->values[r]));
		json_array_append_new(ratios, json_real(e->ratio[r]));
	}
	j = json_pack("{s:o, s:s, s:o, s:b, s:i, s:o, s:o, s:b}", "name",
		      pmc__json_bytes(pmc_evsel__name(e->evsel)), "kind",
		      pmc_event_kind__name(pmc_evsel__kind(e->evsel)), "encoding",
		      pmc__json_bytes(enc), "supported", e->supported, "pass",
		      pmc_evsel__pass(e->evsel), "values", values, "running_ratio", ratios,
		      "scaled", e->scaled);
	if (!j)
		return NULL;
	if (!e->supported)
		json_object_set_new(j, "reason", pmc__json_bytes(e->why));
	else if (pmc_evsel__note(e->evsel))
		json_object_set_new(j, "note", pmc__json_bytes(pmc_evsel__note(e->evsel)));
	if (pmc_evsel__filter(e->evsel))
		json_object_set_new(j, "filter", pmc__json_bytes(pmc_evsel__filter(e->evsel)));
	if (!e->nr)
		return j;
	set_summary(j, &e->sum);
	json_object_set_new(j, "overhead_subtracted", json_real(e->overhead));
	if (e->nr_clamped) /* runs whose count was below it, counted as 0 */
		json_object_set_new(j, "overhead_clamped", json_integer(e->nr_clamped));
	return j;
}

static json_t *cells_json(const struct pmc_run *run, size_t ri, int t)
{
	json_t *events = json_array();

	for (size_t e = 0; e < run->res.nr_events; e++) {
		const struct pmc_run_cell *c = pmc_run__cell(run, ri, t, e);
		json_t *values, *entered, *j;

		if (!c || !c->nr)
			continue;
		values = json_array();
		entered = json_array();
		for (int k = 0; k < c->nr; k++) {
			json_array_append_new(values, json_real(c->values[k]));
			json_array_append_new(entered, json_real(c->entered[k]));
		}
		j = json_pack("{s:o, s:o, s:o, s:f, s:f}", "name",
			      pmc__json_bytes(pmc_evsel__name(run->res.events[e].evsel)), "values",
			      values, "entered", entered, "per_entry", c->per_entry,
			      "overhead_per_entry", run->res.overhead_entry[e]);
		if (j && run->res.first_entry_region && ri == 0 && t < 1)
			json_object_set_new(j, "overhead_first_entry",
					    json_real(run->res.overhead_first_entry[e]));
		if (j && c->nr_clamped) /* runs below the overhead, counted as 0 */
			json_object_set_new(j, "overhead_clamped", json_integer(c->nr_clamped));
		if (j)
			set_summary(j, &c->sum);
		json_array_append_new(events, j);
	}
	return events;
}

/* "metrics" of obj: the caller's metrics of that scope, when it added any (metrics.c). */
static json_t *with_metrics(json_t *obj, json_t *metrics)
{
	if (obj && metrics)
		json_object_set_new(obj, "metrics", metrics);
	else
		json_decref(metrics);
	return obj;
}

static json_t *regions_json(const struct pmc_run *run)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < run->res.nr_regions; i++) {
		const struct pmc_run_region *r = &run->res.regions[i];
		json_t *threads = json_array();

		for (int t = 0; run->opts.per_thread && t < r->nr_threads; t++)
			json_array_append_new(
				threads, with_metrics(json_pack("{s:i, s:o}", "thread", t, "events",
								cells_json(run, i, t)),
						      pmc__run_metrics_json(run, r->name, t, -1)));
		json_array_append_new(
			arr, with_metrics(json_pack("{s:o, s:I, s:I, s:b, s:I, s:I, s:o, s:o}",
						    "name", pmc__json_bytes(r->name), "entered",
						    (json_int_t)r->entered, "exited",
						    (json_int_t)r->exited, "entries_vary",
						    r->varies, "open_at_exit",
						    (json_int_t)r->open_at_exit, "unmatched_end",
						    (json_int_t)r->unmatched_end, "events",
						    cells_json(run, i, -1), "threads", threads),
					  pmc__run_metrics_json(run, r->name, -1, -1)));
	}
	return arr;
}

/* A unit's values of one event: its name, each repetition's value, their summary. */
static json_t *unit_event_json(const struct pmc_run_event *e)
{
	json_t *values = json_array(), *j;

	for (int r = 0; r < e->nr; r++)
		json_array_append_new(values, json_real(e->values[r]));
	j = json_pack("{s:o, s:o}", "name", pmc__json_bytes(pmc_evsel__name(e->evsel)), "values",
		      values);
	if (j && e->nr)
		set_summary(j, &e->sum);
	return j;
}

/* opts.aggr's units (docs/stat-output.md): where each is, and its events. */
static json_t *units_json(const struct pmc_run *run)
{
	json_t *arr = json_array();

	for (size_t u = 0; u < run->res.nr_units; u++) {
		const struct pmc_run_unit *un = &run->res.units[u];
		json_t *events = json_array(), *j;

		for (size_t i = 0; i < run->res.nr_events; i++)
			if (un->events[i].supported && un->events[i].nr)
				json_array_append_new(events, unit_event_json(&un->events[i]));
		j = json_pack("{s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o}", "label",
			      pmc__json_bytes(un->label), "cpu", un->cpu, "nr_cpus", un->nr_cpus,
			      "socket", un->socket, "die", un->die, "core", un->core, "pid",
			      (int)un->pid, "tid", (int)un->tid, "events", events);
		json_array_append_new(
			arr, with_metrics(j, pmc__run_metrics_json(run, NULL, -1, (long)u)));
	}
	return arr;
}

/* {"subtracted": bool, "calibration": file, "calibrated": date, "what": ...}. */
static json_t *overhead_json(const struct pmc_run *run)
{
	if (!run->res.calibration)
		return json_pack("{s:b}", "subtracted", false);
	return json_pack("{s:b, s:o, s:o, s:s, s:o}", "subtracted", true, "calibration",
			 pmc__json_bytes(run->res.calibration), "calibrated",
			 pmc__json_bytes(run->res.calibration_date), "what",
			 "per run from whole-program values, per entry from region values, the "
			 "first-entry cost from a run's first entry",
			 "first_entry_region",
			 run->res.first_entry_region ? pmc__json_bytes(run->res.first_entry_region)
						     : json_null());
}

/*
 * The wall time of one run, pass by pass: the passes count different events, so each pass
 * has its own summary over its own runs, and wall_pass is the one the footer's is of.
 */
static json_t *elapsed_json(const struct pmc_run_results *res)
{
	json_t *passes = json_array();

	for (int p = 0; res->pass_wall && p < res->nr_passes; p++) {
		const struct pmc_summary *s = &res->pass_wall[p];
		json_t *j;

		if (!s->n)
			continue;
		j = json_pack("{s:i, s:I}", "pass", p, "n", (json_int_t)s->n);
		if (j)
			set_summary(j, s);
		json_array_append_new(passes, j);
	}
	return json_pack("{s:s, s:o, s:i}", "unit", "s", "passes", passes, "footer_pass",
			 res->wall_pass);
}

/* The results as the pmc-stat/1 JSON model: the JSON file's and the HTML page's one source. */
static json_t *run_json(const struct pmc_run *run)
{
	const struct pmc_run_results *res = &run->res;
	json_t *events = json_array(), *root;

	for (size_t i = 0; i < res->nr_events; i++) {
		json_t *e = event_json(&res->events[i]);

		/* pmc validate's verdict, and what --subtract-overhead took (docs/accuracy.md) */
		if (e && res->trust && res->trust[i])
			json_object_set_new(e, "trust", json_string(res->trust[i]));
		if (e && res->overhead_from[i])
			json_object_set_new(
				e, "overhead_from",
				json_string(res->overhead_from[i] == PMC_RUN_OVERHEAD_VALIDATED
						    ? "validated bias"
						    : "calibration"));
		json_array_append_new(events, e);
	}
	root = json_pack("{s:s, s:o, s:o}", "schema", "pmc-stat/1", "provenance", provenance(run),
			 "events", events);
	if (!root)
		return NULL;
	if (res->have_status && WIFEXITED(res->status))
		json_object_set_new(root, "exit_code", json_integer(WEXITSTATUS(res->status)));
	if (res->have_status && WIFSIGNALED(res->status))
		json_object_set_new(root, "signal", signal_name(WTERMSIG(res->status)));
	json_object_set_new(root, "overhead", overhead_json(run));
	json_object_set_new(root, "elapsed", elapsed_json(res));
	if (res->trust_file || res->trust_note)
		json_object_set_new(root, "trust",
				    res->trust_file ? json_pack("{s:o}", "file",
								pmc__json_bytes(res->trust_file))
						    : json_pack("{s:s}", "note", res->trust_note));
	json_object_set_new(root, "regions", regions_json(run));
	with_metrics(root, pmc__run_metrics_json(run, NULL, -1, -1));
	if (run->opts.aggr != PMC_RUN_AGGR_GLOBAL) {
		json_object_set_new(root, "units", units_json(run));
		json_object_set_new(root, "lost_threads",
				    json_integer((json_int_t)res->lost_threads));
	}
	/* What the command's markers could not deliver: never silent (docs/regions.md). */
	json_object_set_new(root, "region_problems",
			    json_pack("{s:I, s:I, s:i, s:I, s:I, s:I}", "lost_records",
				      (json_int_t)res->lost_records, "recovered_records",
				      (json_int_t)res->recovered_records, "unreadable_runs",
				      res->bad_runs, "unknown_ids", (json_int_t)res->bad_ids,
				      "failed_reads", (json_int_t)res->failed_reads,
				      "threads_without_counters", (json_int_t)res->unopened));
	return root;
}

int pmc__run_write_json(const struct pmc_run *run, FILE *f)
{
	json_t *root = run_json(run);
	int err;

	if (!root)
		return -ENOMEM;
	err = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	fputc('\n', f);
	json_decref(root);
	return err ? -EIO : 0;
}

/*
 * pmc stat's picture (docs/stat-output.md, "HTML"): the same results model as the JSON file,
 * drawn by data/html/stat.js, so the page and the file never disagree.
 */
int pmc__run_write_html(const struct pmc_run *run, FILE *f)
{
	json_t *root = run_json(run);
	int err;

	if (!root)
		return -ENOMEM;
	err = pmc__html_write(f, PMC__HTML_STAT, "pmc stat", root);
	json_decref(root);
	return err;
}
