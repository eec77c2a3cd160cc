// SPDX-License-Identifier: MIT
/*
 * Standalone mode's outputs, asked for with PMC_EVENTS: a summary in the layout of the
 * thesis's Figure 4.5 on stderr, or JSON (schema "pmc-regions/1") to PMC_OUTPUT.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include <pmc/bytes.h>
#include <pmc/outfile.h>
#include "core/jsonstr.h"
#include "core/launcher.h"
#include "region/region.h"

static double per_entry(uint64_t v, uint64_t entered)
{
	return entered ? (double)v / (double)entered : 0.0;
}

/* The unit of an event's values: the clocks count nanoseconds ("task-clock:u" too). */
static const char *unit(const char *event)
{
	size_t len = strcspn(event, ":/");

	return (len == 10 && !strncmp(event, "task-clock", len)) ||
			       (len == 9 && !strncmp(event, "cpu-clock", len))
		       ? " ns"
		       : "";
}

static void text_values(FILE *f, const struct pmc_region_data *d, const struct pmc_region_values *v,
			const char *indent)
{
	for (size_t e = 0; e < pmc_region_data__nr_events(d); e++) {
		const char *ev = pmc_region_data__event(d, e);

		fprintf(f, "%s%s: %" PRIu64 "%s [%.1f%s]\n", indent, ev, v->values[e], unit(ev),
			per_entry(v->values[e], v->entered), unit(ev));
	}
}

static void text_warnings(FILE *f, const struct pmc_region_values *v)
{
	if (v->entered != v->exited)
		fprintf(f,
			"    warning: entered %" PRIu64 " time%s but exited %" PRIu64
			" time%s: a begin or an end is missing\n",
			v->entered, v->entered == 1 ? "" : "s", v->exited,
			v->exited == 1 ? "" : "s");
	if (v->open_at_exit)
		fprintf(f,
			"    warning: %" PRIu64 " entr%s still open at exit (counted up to the"
			" exit)\n",
			v->open_at_exit, v->open_at_exit == 1 ? "y" : "ies");
	if (v->unmatched_end)
		fprintf(f, "    warning: %" PRIu64 " end%s without a begin\n", v->unmatched_end,
			v->unmatched_end == 1 ? "" : "s");
}

int pmc__region_report_text(FILE *f, const struct pmc_region_data *d, bool per_thread)
{
	size_t nr = pmc_region_data__nr_regions(d);
	uint64_t bad, failed;

	fprintf(f, "pmc: region results of pid %d (%zu region%s, %zu thread%s):\n", (int)getpid(),
		nr, nr == 1 ? "" : "s", pmc_region_data__nr_threads(d),
		pmc_region_data__nr_threads(d) == 1 ? "" : "s");
	for (size_t r = 0; r < nr; r++) {
		struct pmc_region_values v;

		pmc_region_data__get(d, r, -1, &v);
		fprintf(f, "  Region ");
		pmc_fput_printable(f, v.name); /* a name is bytes: none reaches a terminal raw */
		fprintf(f, ", entered %" PRIu64 " time%s and exited %" PRIu64 " time%s:\n",
			v.entered, v.entered == 1 ? "" : "s", v.exited, v.exited == 1 ? "" : "s");
		text_values(f, d, &v, "    ");
		text_warnings(f, &v);
		for (size_t t = 0; per_thread && t < pmc_region_data__nr_threads(d); t++) {
			int tid;

			pmc_region_data__thread(d, t, NULL, &tid);
			pmc_region_data__get(d, r, (int)t, &v);
			if (!v.entered && !v.exited)
				continue;
			fprintf(f,
				"    thread %zu (tid %d), entered %" PRIu64 " and exited %" PRIu64
				":\n",
				t, tid, v.entered, v.exited);
			text_values(f, d, &v, "      ");
		}
	}
	pmc_region_data__problems(d, &bad, &failed);
	if (bad)
		fprintf(f, "  warning: %" PRIu64 " markers named an unknown region id\n", bad);
	if (failed)
		fprintf(f, "  warning: %" PRIu64 " counter reads failed\n", failed);
	if (pmc_region_data__nr_unopened(d))
		fprintf(f,
			"  warning: %" PRIu64 " threads entered regions without counters: their "
			"entries are not counted\n",
			pmc_region_data__nr_unopened(d));
	return fflush(f) || ferror(f) ? -EIO : 0;
}

static json_t *json_values(const struct pmc_region_data *d, const struct pmc_region_values *v)
{
	json_t *events = json_array();

	for (size_t e = 0; e < pmc_region_data__nr_events(d); e++) {
		double x = (double)v->values[e];

		json_array_append_new(events,
				      json_pack("{s:o, s:[f], s:f, s:f, s:f}", "name",
						pmc__json_bytes(pmc_region_data__event(d, e)),
						"values", x, "mean", x, "ci", 0.0, "per_entry",
						per_entry(v->values[e], v->entered)));
	}
	return events;
}

static json_t *json_region(const struct pmc_region_data *d, size_t r)
{
	struct pmc_region_values v;
	json_t *threads = json_array(), *j;

	for (size_t t = 0; t < pmc_region_data__nr_threads(d); t++) {
		int pid, tid;

		pmc_region_data__thread(d, t, &pid, &tid);
		pmc_region_data__get(d, r, (int)t, &v);
		if (v.entered || v.exited)
			json_array_append_new(threads, json_pack("{s:i, s:i, s:I, s:I, s:o}", "pid",
								 pid, "tid", tid, "entered",
								 (json_int_t)v.entered, "exited",
								 (json_int_t)v.exited, "events",
								 json_values(d, &v)));
	}
	pmc_region_data__get(d, r, -1, &v);
	j = json_pack("{s:o, s:I, s:I, s:I, s:I, s:o, s:o}", "name", pmc__json_bytes(v.name),
		      "entered", (json_int_t)v.entered, "exited", (json_int_t)v.exited,
		      "open_at_exit", (json_int_t)v.open_at_exit, "unmatched_end",
		      (json_int_t)v.unmatched_end, "events", json_values(d, &v), "threads",
		      threads);
	return j;
}

int pmc__region_report_json(const char *path, const char *backend, int stopped_by,
			    const struct pmc_region_data *d)
{
	json_t *regions = json_array(), *events = json_array(), *root, *prov, *mpi;
	struct pmc_outfile *out = NULL;
	struct pmc_launcher l;
	char where[4096];
	uint64_t bad, failed;
	int err;

	pmc_launcher_detect(&l);
	err = pmc_launcher_path(&l, path, (int)getpid(), where, sizeof(where));
	mpi = pmc__launcher_json(&l);

	for (size_t e = 0; e < pmc_region_data__nr_events(d); e++)
		json_array_append_new(events, pmc__json_bytes(pmc_region_data__event(d, e)));
	for (size_t r = 0; r < pmc_region_data__nr_regions(d); r++)
		json_array_append_new(regions, json_region(d, r));
	prov = json_pack("{s:s, s:s}", "pmc_version", pmc_version(), "backend",
			 backend ? backend : "perf");
	/* Written on the way out from a signal: the regions counted until then (docs/mpi.md). */
	if (prov && stopped_by) {
		char name[32];

		snprintf(name, sizeof(name), "SIG%s", sigabbrev_np(stopped_by) ?: "?");
		json_object_set_new(prov, "interrupted", json_true());
		json_object_set_new(prov, "stopped_by", json_string(name));
	}
	if (prov && mpi)
		json_object_set_new(prov, "mpi", mpi);
	else
		json_decref(mpi);
	pmc_region_data__problems(d, &bad, &failed);
	root = json_pack("{s:s, s:i, s:o, s:o, s:o*, s:{s:I, s:I, s:I}}", "schema", "pmc-regions/1",
			 "pid", (int)getpid(), "events", events, "regions", regions, "provenance",
			 prov, "region_problems", "unknown_ids", (json_int_t)bad, "failed_reads",
			 (json_int_t)failed, "threads_without_counters",
			 (json_int_t)pmc_region_data__nr_unopened(d));
	if (!err)
		err = root ? pmc_outfile__open(where, &out) : -ENOMEM;
	if (!err &&
	    json_dumpf(root, pmc_outfile__stream(out), JSON_INDENT(2) | JSON_REAL_PRECISION(17))) {
		err = pmc_outfile__fail(out, -EIO);
	} else if (!err) {
		err = pmc_outfile__commit(out);
	}
	json_decref(root);
	return err;
}
