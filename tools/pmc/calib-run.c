// SPDX-License-Identifier: MIT
/*
 * pmc calibrate: the counts an empty program adds under pmc stat (the thesis's Table D.1),
 * the terminal summary, and the calibration file handed to libpmc's writer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "calib-measure.h"
#include "cli.h"

int calib_empty_program(const struct calib_params *p, struct pmc_evlist *l, json_t **out);
json_t *calib_regions(const struct calib_params *p, const char *events);
int calib_check_output(const char *path);
int calib_save(const char *path, json_t *entries, const struct calib_params *p);
void calib_print(FILE *f, json_t *entries, const struct calib_params *p);

static json_t *summary(const struct pmc_run_event *e)
{
	json_t *values = json_array();

	for (int i = 0; i < e->nr; i++)
		json_array_append_new(values, json_real(e->values[i]));
	return json_pack("{s:o, s:i, s:f, s:f, s:f, s:f, s:f}", "values", values, "runs", e->nr,
			 "mean", e->sum.mean, "ci", e->sum.ci, "ci_pct", e->sum.ci_pct, "median",
			 e->sum.median, "stddev", e->sum.stddev);
}

/*
 * argv under the library's runner, as pmc stat runs a command: a warm-up run, then p->runs
 * repetitions of each pass. Events that cannot be counted here are said once (quiet: not
 * again). Returns 0 with *out to delete, or an error already printed.
 */
static int run_command(const struct calib_params *p, struct pmc_evlist *l, char **argv, bool quiet,
		       struct pmc_run **out)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	struct pmc_run_opts ro = {.sz = sizeof(ro),
				  .repeat = p->runs,
				  .priv = p->priv,
				  .backend = p->backend,
				  .who = "pmc calibrate"};
	const struct pmc_run_results *res;
	int err = pmc_run__new(l, &t, &ro, out);

	if (err) {
		fprintf(stderr, "pmc calibrate: cannot plan the passes: %s\n", pmc_strerror(err));
		return err;
	}
	res = pmc_run__results(*out);
	for (size_t i = 0; !quiet && i < res->nr_events; i++)
		if (!res->events[i].supported)
			fprintf(stderr, "pmc calibrate: skipping '%s': %s\n",
				pmc_evsel__name(res->events[i].evsel), res->events[i].why);
	err = pmc_run__execute(*out);
	if (!err && res->have_status && !(WIFEXITED(res->status) && !WEXITSTATUS(res->status)))
		err = -PMC_E_EXEC;
	if (err) {
		fprintf(stderr, "pmc calibrate: running '%s': %s\n", argv[0], pmc_strerror(err));
		pmc_run__delete(*out);
		*out = NULL;
	}
	return err;
}

/* {event: summary} for each event the empty program counted. */
int calib_empty_program(const struct calib_params *p, struct pmc_evlist *l, json_t **out)
{
	const struct pmc_run_results *res;
	struct pmc_run *run;
	int err = run_command(p, l, p->empty_argv, false, &run);

	*out = json_object();
	if (err)
		return err;
	res = pmc_run__results(run);
	for (size_t i = 0; i < res->nr_events; i++)
		if (res->events[i].nr)
			json_object_set_new(*out, pmc_evsel__name(res->events[i].evsel),
					    summary(&res->events[i]));
	pmc_run__delete(run);
	return 0;
}

/* The distribution over runs of region name's count per entry of event idx; NULL if none. */
static json_t *per_entry(struct pmc_run *run, const char *name, size_t idx)
{
	const struct pmc_run_results *res = pmc_run__results(run);
	const struct pmc_run_cell *c = NULL;
	double v[4096];
	size_t n = 0;

	for (size_t r = 0; r < res->nr_regions && !c; r++)
		if (!strcmp(res->regions[r].name, name))
			c = pmc_run__cell(run, r, -1, idx);
	for (int i = 0; c && i < c->nr && n < sizeof(v) / sizeof(*v); i++)
		if (c->entered[i] > 0)
			v[n++] = c->values[i] / c->entered[i];
	return n ? json_pack("{s:o}", "counts", calib_distribution(v, n)) : NULL;
}

/*
 * The empty regions of pmc-calibrate-regions (p->regions_argv; named: its named markers)
 * under the runner, counting events (one, or a set counted together: a region's cost grows
 * with the events it reads, and the in-process measurement reads one): {name: {"first_entry":
 * {"counts"}, "region_pair": {"counts"}}}, distributions over the runs of the process's first
 * entry and of the later entries' count per entry, for each event. NULL, said, when one was
 * not counted.
 */
static json_t *regions_form(const struct calib_params *p, const char *events, bool named)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo), .backend = p->backend, .priv = p->priv};
	char *argv[4] = {p->regions_argv[0], p->regions_argv[1], named ? (char *)"named" : NULL,
			 NULL};
	struct pmc_evlist *l = NULL;
	struct pmc_run *run = NULL;
	json_t *all = json_object();
	int err = all ? pmc_evlist__new(&eo, &l) : -ENOMEM;

	if (!err)
		err = pmc_evlist__parse(l, events, NULL);
	if (!err)
		err = run_command(p, l, argv, true, &run);
	for (size_t i = 0; !err && i < pmc_evlist__nr(l); i++) {
		const char *name = pmc_evsel__name(pmc_evlist__at(l, i));
		json_t *first = per_entry(run, "first", i), *next = per_entry(run, "next", i);

		if (!first || !next) {
			fprintf(stderr, "pmc calibrate: '%s': no empty region was counted\n",
				cli_show(name));
			json_decref(first ? first : next);
			err = -ENOENT;
			break;
		}
		json_object_set_new(
			all, name,
			json_pack("{s:o, s:o}", "first_entry", first, "region_pair", next));
	}
	pmc_run__delete(run);
	pmc_evlist__delete(l);
	if (err) {
		json_decref(all);
		return NULL;
	}
	return all;
}

/*
 * Both marker forms (regions_form()): the markers by id as the entry's "first_entry" and
 * "region_pair", the named markers' as its "named": {"first_entry", "region_pair"}.
 */
json_t *calib_regions(const struct calib_params *p, const char *events)
{
	json_t *all = regions_form(p, events, false), *named, *v;
	const char *k;

	named = all ? regions_form(p, events, true) : NULL;
	if (!named) {
		json_decref(all);
		return NULL;
	}
	json_object_foreach(all, k, v) json_object_set(v, "named", json_object_get(named, k));
	json_decref(named);
	return all;
}

static double num(json_t *j, const char *a, const char *b, const char *c)
{
	j = json_object_get(j, a);
	j = b ? json_object_get(j, b) : j;
	return json_number_value(c ? json_object_get(j, c) : j);
}

/* An empty region's time, a read's and a start/stop's, where measured in this process. */
static void print_times(FILE *f, json_t *e)
{
	json_t *pair = json_object_get(e, "region_pair");

	fprintf(f,
		"  empty region, ns per pair:      median %.0f  p90 %.0f  p99 %.0f  max "
		"%.0f\n",
		num(pair, "ns", "median", NULL), num(pair, "ns", "p90", NULL),
		num(pair, "ns", "p99", NULL), num(pair, "ns", "max", NULL));
	fprintf(f,
		"  read, ns:                       median %.0f  p90 %.0f  p99 %.0f  max "
		"%.0f\n",
		num(e, "read", "ns", "median"), num(e, "read", "ns", "p90"),
		num(e, "read", "ns", "p99"), num(e, "read", "ns", "max"));
	fprintf(f,
		"  start+stop, ns:                 median %.0f  p90 %.0f  p99 %.0f  max "
		"%.0f\n",
		num(e, "start_stop", "ns", "median"), num(e, "start_stop", "ns", "p90"),
		num(e, "start_stop", "ns", "p99"), num(e, "start_stop", "ns", "max"));
}

void calib_print(FILE *f, json_t *entries, const struct calib_params *p)
{
	size_t i;
	json_t *e;

	fprintf(f, "# pmc calibrate: %zu samples per distribution, %d empty-program runs ('%s')\n",
		p->samples, p->runs, p->empty_argv[0]);
	json_array_foreach(entries, i, e)
	{
		json_t *pair = json_object_get(e, "region_pair");
		json_t *hist = json_object_get(json_object_get(pair, "ns"), "histogram");

		fprintf(f, "%s (%s):\n", json_string_value(json_object_get(e, "event")),
			json_string_value(json_object_get(e, "backend")));
		fprintf(f,
			"  empty region, counts per entry: median %.1f  p90 %.1f  p99 %.1f  max "
			"%.1f\n",
			num(pair, "counts", "median", NULL), num(pair, "counts", "p90", NULL),
			num(pair, "counts", "p99", NULL), num(pair, "counts", "max", NULL));
		fprintf(f,
			"  first region entry, counts:     median %.1f  (the process's first "
			"entry: "
			"lazy binding)\n",
			num(e, "first_entry", "counts", "median"));
		fprintf(f,
			"  named markers, counts:          per entry %.1f  first entry %.1f  "
			"(pmc_region_begin(name))\n",
			num(json_object_get(e, "named"), "region_pair", "counts", "median"),
			num(json_object_get(e, "named"), "first_entry", "counts", "median"));
		if (!json_object_get(pair, "ns"))
			fprintf(f,
				"  times:                          not measured (%s counts only "
				"a program under the runner)\n",
				json_string_value(json_object_get(e, "backend")));
		else
			print_times(f, e);
		fprintf(f,
			"  empty program under pmc stat:   %.1f +/- %.1f (%.3f%%)  [median %.1f]\n",
			num(e, "empty_program", "mean", NULL), num(e, "empty_program", "ci", NULL),
			num(e, "empty_program", "ci_pct", NULL),
			num(e, "empty_program", "median", NULL));
		if (!hist)
			continue;
		fprintf(f, "  histogram, ns per pair:        ");
		for (size_t b = 0; b < json_array_size(json_object_get(hist, "counts")); b++)
			fprintf(f, " %s%.0f:%lld", b == 8 ? ">" : "",
				json_number_value(
					json_array_get(json_object_get(hist, "edges"), b)),
				json_integer_value(
					json_array_get(json_object_get(hist, "counts"), b)));
		fputc('\n', f);
	}
}

/*
 * The calibration file (-o, else this machine's) made ready before anything is measured: its
 * folder made and checked, a file made there and removed (pmc_data_file_prepare()).
 */
int calib_check_output(const char *path)
{
	char *def = path ? NULL : pmc_calibration_default_path(), why[512];
	int err =
		path || def ? pmc_data_file_prepare(path ? path : def, why, sizeof(why)) : -ENOMEM;

	if (err)
		fprintf(stderr, "pmc calibrate: %s; nothing was measured\n",
			*why ? why : pmc_strerror(err));
	free(def);
	return err ? 1 : 0;
}

/* The calibration file, through libpmc's writer (pmc_calibration_save()), said on stderr. */
int calib_save(const char *path, json_t *entries, const struct calib_params *p)
{
	char *def = path ? NULL : pmc_calibration_default_path();
	char *text = json_dumps(entries, JSON_COMPACT | JSON_REAL_PRECISION(17));
	const char *target = path ? path : def;
	int err = target && text ? pmc_calibration_save(target, text, p->empty_argv[0]) : -ENOMEM;

	if (err)
		cli_say_unwritable("calibrate", target ? target : "(this machine's)", err);
	else if (strcmp(target, "-"))
		fprintf(stderr, "pmc calibrate: calibration written to %s\n", target);
	free(text);
	free(def);
	return err;
}
