// SPDX-License-Identifier: MIT
/*
 * pmc metrics FILE.json: metrics computed offline from a saved pmc stat results file (schema
 * pmc-stat/1) by libpmc (pmc_run_saved__metrics()), as pmc stat's runner computes them, and
 * printed by pmc stat's printer (stat-metric.h): the same counts give the same values and
 * intervals, to the last digit (docs/metrics.md, "pmc metrics").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "common/cli.h"
#include "common/stat-metric.h"

enum { O_METRICS_FILE = CLI_LONG_ONLY, O_FORMAT, O_LIKWID_GROUP };

/* What the options set. */
struct metrics_args {
	struct metric_opts o;
	int format; /* --format: text, csv or json (its choices' order) */
};

static const struct cli_opt options[] = {
	{"metrics", 'M', "METRICS", CLI_V_NONE, NULL,
	 "metrics and metric groups to compute, comma-separated, or one defined as 'name = "
	 "expression'; repeatable (default: the metrics the file holds)",
	 CLI_CALL},
	{"metrics-file", O_METRICS_FILE, "FILE", CLI_V_FILE, NULL,
	 "metric definitions in perf's JSON schema (docs/metrics.md); repeatable", CLI_CALL},
	{"likwid-group", O_LIKWID_GROUP, "FILE|NAME", CLI_V_NONE, NULL,
	 "the metrics of a LIKWID performance group, as pmc stat --likwid-group; repeatable",
	 CLI_CALL},
	{"format", O_FORMAT, "FMT", CLI_V_CHOICES, "text csv json",
	 "text (the summary's metric lines, the default), csv or json",
	 CLI_CHOICE(struct metrics_args, format)},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text", CLI_SHOW_HELP},
	{0},
};

const struct cli_cmd cmd_metrics_doc = {
	.name = "metrics",
	.summary = "compute metrics from a saved pmc stat results file",
	.synopsis = "[options] FILE.json",
	.about = "Reads a results file that pmc stat --format json wrote and computes metrics "
		 "from its counts as pmc stat does: each metric's value, its interval (per "
		 "repetition, or by the delta method across passes) and its threshold's verdict, "
		 "for the whole program, each region and each region's thread. Without -M, the "
		 "metrics the file holds are computed again.",
	.opts = options,
	.operands = CLI_V_FILE,
};

/* What the printers read: the file's rows, its units' labels. */
struct file_rows {
	struct metric_rows rows; /* not owned: the saved file's */
	const struct pmc_run_saved *saved;
};

/* The rows of a region's scopes: [*at, end) is the next region's (its own, then its threads'). */
static bool next_region(const struct metric_rows *rows, size_t *at, size_t *end)
{
	while (*at < rows->nr && !rows->v[*at].region)
		(*at)++;
	for (*end = *at; *end < rows->nr && rows->v[*end].region == rows->v[*at].region; (*end)++)
		;
	return *at < rows->nr;
}

static void print_text(const struct file_rows *fr, const char *path)
{
	const struct metric_rows *rows = &fr->rows;
	size_t at = 0, end;

	printf("Metrics of %s:\n\n", cli_show(path));
	metric_rows__print(stdout, rows, NULL, -1, "  ", NULL);
	for (size_t u = 0; u < pmc_run_saved__nr_units(fr->saved); u++) {
		printf("\n  %s:\n", cli_show(pmc_run_saved__unit_label(fr->saved, u)));
		metric_rows__print_unit(stdout, rows, (long)u, "    ");
	}
	for (; next_region(rows, &at, &end); at = end) {
		const char *name = rows->v[at].region;

		printf("\n  Region %s:\n", cli_show(name));
		metric_rows__print(stdout, rows, name, -1, "    ", NULL);
		for (size_t i = at; i < end; i++) {
			int thread = rows->v[i].thread;

			if (thread < 0 || (i > at && rows->v[i - 1].thread == thread))
				continue;
			printf("    thread %d:\n", thread);
			metric_rows__print(stdout, rows, name, thread, "      ", NULL);
		}
	}
}

/* The regions' metrics: each region's, then its threads'. */
static json_t *regions_json(const struct metric_rows *rows)
{
	json_t *regions = json_array();
	size_t at = 0, end;

	for (; next_region(rows, &at, &end); at = end) {
		const char *name = rows->v[at].region;
		json_t *threads = json_array();

		for (size_t i = at; i < end; i++) {
			int thread = rows->v[i].thread;

			if (thread < 0 || (i > at && rows->v[i - 1].thread == thread))
				continue;
			json_array_append_new(threads,
					      json_pack("{s:i, s:o}", "thread", thread, "metrics",
							metric_rows__json(rows, name, thread)));
		}
		json_array_append_new(regions, json_pack("{s:s, s:o, s:o}", "name", name, "metrics",
							 metric_rows__json(rows, name, -1),
							 "threads", threads));
	}
	return regions;
}

static int print_json(const struct file_rows *fr, const char *path)
{
	const struct metric_rows *rows = &fr->rows;
	size_t nr_units = pmc_run_saved__nr_units(fr->saved);
	json_t *out = json_object(), *units = json_array();
	int err;

	json_object_set_new(out, "schema", json_string("pmc-metrics/1"));
	json_object_set_new(out, "source", json_string(path));
	json_object_set_new(out, "metrics", metric_rows__json(rows, NULL, -1));
	for (size_t u = 0; u < nr_units; u++)
		json_array_append_new(units,
				      json_pack("{s:s, s:o}", "label",
						pmc_run_saved__unit_label(fr->saved, u), "metrics",
						metric_rows__json_unit(rows, (long)u)));
	if (nr_units)
		json_object_set_new(out, "units", units);
	else
		json_decref(units);
	json_object_set_new(out, "regions", regions_json(rows));
	err = json_dumpf(out, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	printf("\n");
	json_decref(out);
	return err ? 1 : 0;
}

/* The file, checked to be a pmc stat results file. Returns it, or NULL after saying why. */
static struct pmc_run_saved *load(const char *path)
{
	struct pmc_run_saved *saved;
	char why[256];
	int rc = pmc_run_saved__read(path, &saved, why, sizeof(why));

	if (rc == -PMC_E_PARSE)
		fprintf(stderr, "pmc metrics: cannot read %s: %s\n", cli_show(path), why);
	else if (rc == -PMC_E_FORMAT)
		fprintf(stderr,
			"pmc metrics: %s is not a pmc stat results file (schema pmc-stat/1, "
			"written by pmc stat --format json)\n",
			cli_show(path));
	else if (rc)
		fprintf(stderr, "pmc metrics: cannot read %s: %s\n", cli_show(path),
			pmc_strerror(rc));
	return rc ? NULL : saved;
}

/* The metrics the file holds, when -M and the others selected none. 0 or 2 (said). */
static int select_saved(struct pmc_run_saved *saved, struct pmc_metrics *m)
{
	struct pmc_metric_error err = {0};

	if (!pmc_run_saved__select(saved, m, &err))
		return 0;
	fprintf(stderr,
		"pmc metrics: a metric the file holds does not load: %s (a LIKWID group's "
		"metric: give its group with --likwid-group)\n",
		err.parse.msg);
	return 2;
}

static int run(struct metric_opts *o, const char *path, const char *format)
{
	struct pmc_run_saved *saved = load(path);
	struct file_rows fr = {.saved = saved};
	struct pmc_metrics *m = NULL;
	bool own = false;
	int rc;

	if (!saved)
		return 2;
	o->backend = pmc_run_saved__backend(saved);
	rc = metric_set__new(o, "pmc metrics", &m);
	if (!rc && !metric_opts__any(o))
		rc = select_saved(saved, m);
	if (!rc && !pmc_metrics__nr_selected(m)) {
		fprintf(stderr, "pmc metrics: %s holds no metrics: select some with -M\n",
			cli_show(path));
		rc = 2;
	}
	if (!rc && pmc_run_saved__metrics(saved, m, &fr.rows.v, &fr.rows.nr, &own)) {
		fprintf(stderr, "pmc metrics: %s: malformed counts\n", cli_show(path));
		rc = 2;
	}
	if (!rc && own)
		fprintf(stderr,
			"pmc metrics: note: %s does not record the '#' literals of the machine "
			"that "
			"counted (a pmc stat before they were recorded): this machine's are used\n",
			cli_show(path));
	if (!rc && !strcmp(format, "json"))
		rc = print_json(&fr, path);
	else if (!rc && !strcmp(format, "csv"))
		metric_rows__csv(stdout, &fr.rows, ",");
	else if (!rc)
		print_text(&fr, path);
	pmc_metrics__delete(m);
	pmc_run_saved__delete(saved);
	return rc || fflush(stdout) || ferror(stdout) ? (rc ? rc : 1) : 0;
}

/* The options without a target in the table (cli_parse()'s callback). */
static int apply(void *opts, int c, const char *arg)
{
	struct metric_opts *o = &((struct metrics_args *)opts)->o;

	if (c == 'M')
		return metric_opts__add(&o->select, &o->nr_select, arg) ? 1 : 0;
	if (c == O_METRICS_FILE)
		return metric_opts__add(&o->files, &o->nr_files, arg) ? 1 : 0;
	if (c == O_LIKWID_GROUP)
		return metric_opts__add(&o->likwid, &o->nr_likwid, arg) ? 1 : 0;
	return 2;
}

int cmd_metrics(int argc, char **argv)
{
	static const char *const formats[] = {"text", "csv", "json"};
	struct metrics_args a = {.o = {.level = 0.95}};
	int first, rc = cli_parse(&cmd_metrics_doc, argc, argv, &a, apply, &first);

	if (!rc && first + 1 != argc) {
		fprintf(stderr, "pmc metrics: give one results file (pmc stat --format json -o "
				"FILE)\nsee 'pmc metrics --help'\n");
		rc = 2;
	}
	if (!rc)
		rc = run(&a.o, argv[first], formats[a.format]);
	free(a.o.select);
	free(a.o.files);
	free(a.o.likwid);
	return rc < 0 ? 0 : rc;
}
