// SPDX-License-Identifier: MIT
/* pmc stat's machine-readable outputs: CSV, and JSON with schema "pmc-stat/1". */
#include <stdlib.h>
#include <time.h>
#include <sys/wait.h>
#include <jansson.h>
#include "cli.h"
#include "stat.h"

int stat_write_csv(FILE *f, const struct stat_run *run);
int stat_write_json(FILE *f, const struct stat_run *run);
json_t *stat_regions__json(const struct stat_run *run);
json_t *stat_regions__overhead_json(const struct stat_run *run);

int stat_write_csv(FILE *f, const struct stat_run *run)
{
	fprintf(f, "event,supported,pass,n,mean,stddev,median,min,max,ci,ci_pct,scaled,values,"
		   "overhead_subtracted\n");
	for (size_t i = 0; i < pmc_evlist__nr(run->evlist); i++) {
		const struct stat_event *e = &run->ev[i];
		const struct pmc_summary *s = &e->sum;

		fprintf(f, "\"%s\",%s,%d,%d", pmc_evsel__name(e->evsel),
			e->supported ? "yes" : "no", pmc_evsel__pass(e->evsel), e->nr);
		if (!e->nr) {
			fprintf(f, ",,,,,,,,,,\n");
			continue;
		}
		fprintf(f, ",%.3f,%.3f,%.3f,%.0f,%.0f,%.3f,%.3f,%s,", s->mean, s->stddev, s->median,
			s->min, s->max, s->ci, s->ci_pct, e->scaled ? "yes" : "no");
		for (int r = 0; r < e->nr; r++)
			fprintf(f, "%s%.0f", r ? ";" : "", e->values[r]);
		fprintf(f, ",%.3f\n", stat_regions__overhead_run(run, i));
	}
	stat_regions__write_csv(f, run);
	return 0;
}

static json_t *provenance(const struct stat_run *run)
{
	const struct pmc_caps *caps = pmc_caps();
	const struct stat_opts *o = run->opts;
	json_t *cmd = json_array();
	char date[64];
	time_t t = time(NULL);

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	for (char **a = o->argv; a && *a; a++)
		json_array_append_new(cmd, json_string(*a));
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:o, s:i, s:i, s:f, s:b, s:b, s:s, s:b, s:f}",
			 "pmc_version", pmc_version(), "backend", pmc_evlist__backend(run->evlist),
			 "cpu_model", caps->cpu_model, "kernel", caps->kernel, "paranoid",
			 caps->paranoid, "command", cmd, "repetitions", o->repeat, "passes",
			 run->nr_passes, "confidence", o->level, "warmup", !o->no_warmup,
			 "multiplex", o->multiplex, "date", date, "interrupted", run->interrupted,
			 "elapsed_s", run->elapsed_s);
}

static json_t *event_json(const struct stat_run *run, const struct stat_event *e)
{
	char enc[256];
	json_t *values = json_array(), *ratios = json_array(), *j;

	pmc_evsel__encoding(e->evsel, enc, sizeof(enc));
	for (int r = 0; r < e->nr; r++) {
		json_array_append_new(values, json_real(e->values[r]));
		json_array_append_new(ratios, json_real(e->ratio[r]));
	}
	j = json_pack("{s:s, s:s, s:s, s:b, s:i, s:o, s:o, s:b}", "name", pmc_evsel__name(e->evsel),
		      "kind", pmc_event_kind__name(pmc_evsel__kind(e->evsel)), "encoding", enc,
		      "supported", e->supported, "pass", pmc_evsel__pass(e->evsel), "values",
		      values, "running_ratio", ratios, "scaled", e->scaled);
	if (!e->supported)
		json_object_set_new(j, "reason", json_string(e->why));
	if (!e->nr)
		return j;
	json_object_set_new(j, "mean", json_real(e->sum.mean));
	json_object_set_new(j, "stddev", json_real(e->sum.stddev));
	json_object_set_new(j, "median", json_real(e->sum.median));
	json_object_set_new(j, "min", json_real(e->sum.min));
	json_object_set_new(j, "max", json_real(e->sum.max));
	json_object_set_new(j, "ci", json_real(e->sum.ci));
	json_object_set_new(j, "ci_pct", json_real(e->sum.ci_pct));
	json_object_set_new(j, "overhead_subtracted",
			    json_real(stat_regions__overhead_run(run, pmc_evsel__idx(e->evsel))));
	return j;
}

int stat_write_json(FILE *f, const struct stat_run *run)
{
	json_t *events = json_array(), *root;
	int err;

	for (size_t i = 0; i < pmc_evlist__nr(run->evlist); i++)
		json_array_append_new(events, event_json(run, &run->ev[i]));
	root = json_pack("{s:s, s:o, s:o}", "schema", "pmc-stat/1", "provenance", provenance(run),
			 "events", events);
	if (!root)
		return -1;
	if (run->have_status && WIFEXITED(run->status))
		json_object_set_new(root, "exit_code", json_integer(WEXITSTATUS(run->status)));
	if (run->have_status && WIFSIGNALED(run->status))
		json_object_set_new(root, "signal",
				    json_string(cli_signame(WTERMSIG(run->status))));
	json_object_set_new(root, "overhead", stat_regions__overhead_json(run));
	json_object_set_new(root, "regions", stat_regions__json(run));
	err = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	fputc('\n', f);
	json_decref(root);
	return err;
}
