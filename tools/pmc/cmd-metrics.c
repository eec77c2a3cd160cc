// SPDX-License-Identifier: MIT
/*
 * pmc metrics FILE.json: metrics computed offline from a saved pmc stat results file (schema
 * pmc-stat/1) by libpmc's pmc_metric__summarize(), as pmc stat's runner computes them, and
 * printed by pmc stat's printer (stat-metric.h): the same counts give the same values and
 * intervals, to the last digit (docs/metrics.md, "pmc metrics").
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cli.h"
#include "stat-metric.h"

enum { O_METRICS_FILE = CLI_LONG_ONLY, O_FORMAT, O_LIKWID_GROUP };

static const struct cli_opt options[] = {
	{"metrics", 'M', "METRICS", CLI_V_NONE, NULL,
	 "metrics and metric groups to compute, comma-separated, or one defined as 'name = "
	 "expression'; repeatable (default: the metrics the file holds)"},
	{"metrics-file", O_METRICS_FILE, "FILE", CLI_V_FILE, NULL,
	 "metric definitions in perf's JSON schema (docs/metrics.md); repeatable"},
	{"likwid-group", O_LIKWID_GROUP, "FILE|NAME", CLI_V_NONE, NULL,
	 "the metrics of a LIKWID performance group, as pmc stat --likwid-group; repeatable"},
	{"format", O_FORMAT, "FMT", CLI_V_CHOICES, "text csv json",
	 "text (the summary's metric lines, the default), csv or json"},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text"},
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

/* The counts of one scope of the file, read as libpmc takes them. */
struct scope {
	struct pmc_metric_counts *in;
	size_t nr;
	double **values; /* [nr]: what in[i].values points to */
};

static void scope_free(struct scope *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->values[i]);
	free(s->values);
	free(s->in);
	*s = (struct scope){0};
}

/* The pass of the whole-program event of that name (a region's events have none), or -1. */
static int pass_of(json_t *events, const char *name)
{
	size_t i;
	json_t *e;

	json_array_foreach(
		events, i,
		e) if (!strcmp(json_string_value(json_object_get(e, "name")) ?: "",
			       name)) return (int)json_integer_value(json_object_get(e, "pass"));
	return -1;
}

static int read_event(json_t *e, json_t *top, struct pmc_metric_counts *in, double **values)
{
	json_t *vals = json_object_get(e, "values"), *v;
	json_t *sup = json_object_get(e, "supported");
	size_t k;

	in->name = json_string_value(json_object_get(e, "name"));
	if (!in->name || !json_is_array(vals))
		return -PMC_E_FORMAT;
	in->pass =
		top ? pass_of(top, in->name) : (int)json_integer_value(json_object_get(e, "pass"));
	in->why = json_string_value(json_object_get(e, "reason"));
	in->scaled = json_is_true(json_object_get(e, "scaled"));
	*values = calloc(json_array_size(vals) + 1, sizeof(**values));
	if (!*values)
		return -ENOMEM;
	json_array_foreach(vals, k, v)
	{
		if (!json_is_number(v))
			return -PMC_E_FORMAT;
		(*values)[k] = json_number_value(v);
	}
	in->values = *values;
	in->nr = (int)json_array_size(vals);
	in->counted = (!sup || json_is_true(sup)) && in->nr > 0;
	return 0;
}

/* events: an "events" array of the file; top: the whole program's, for a region's passes. */
static int scope_read(struct scope *s, json_t *events, json_t *top)
{
	size_t nr = json_array_size(events);
	int rc = 0;

	*s = (struct scope){.in = calloc(nr + 1, sizeof(*s->in)),
			    .values = calloc(nr + 1, sizeof(*s->values))};
	if (!s->in || !s->values)
		return -ENOMEM;
	for (size_t i = 0; i < nr && !rc; i++, s->nr++)
		rc = read_event(json_array_get(events, i), top, &s->in[i], &s->values[i]);
	return rc;
}

/*
 * The '#' literals of the machine that counted, from the file's provenance; a file written
 * before pmc stat recorded them takes this machine's (own_used, said after).
 */
struct file_literals {
	json_t *obj; /* provenance.literals, or NULL */
	bool own_used;
};

static int file_literal(const char *name, double *value, void *arg)
{
	struct file_literals *fl = arg;
	json_t *v;

	if (!fl->obj) {
		fl->own_used = true;
		return -ENOENT;
	}
	v = json_object_get(fl->obj, name);
	if (!json_is_number(v))
		return -ENODATA; /* the machine that counted did not say */
	*value = json_number_value(v);
	return 0;
}

/* What every scope of the file shares: its metrics, confidence level and literals. */
struct file_ctx {
	const struct pmc_metrics *m;
	double level;
	struct file_literals lit;
	struct metric_rows *units; /* [nr_units]: each unit's (--per-thread, -A, ...) */
	size_t nr_units;
};

static int add_scope(struct metric_rows *rows, struct file_ctx *fc, json_t *events, json_t *top,
		     const char *region, int thread)
{
	struct scope s;
	int rc = scope_read(&s, events, top);

	if (!rc) {
		struct pmc_metric_summary_opts so = {.sz = sizeof(so),
						     .level = fc->level,
						     .literal = file_literal,
						     .literal_arg = &fc->lit};

		rc = metric_rows__add(rows, fc->m, s.in, s.nr, &so, region, thread);
	}
	scope_free(&s);
	return rc;
}

/* Each unit's metrics, from its own values (pmc stat's units' "metrics"). */
static int units(struct file_ctx *fc, json_t *units, json_t *top)
{
	json_t *u;
	size_t i;
	int rc = 0;

	fc->units = calloc(json_array_size(units) + 1, sizeof(*fc->units));
	if (!fc->units)
		return -ENOMEM;
	json_array_foreach(units, i, u)
	{
		if (!json_is_string(json_object_get(u, "label")))
			return -PMC_E_FORMAT;
		fc->nr_units = i + 1;
		rc = add_scope(&fc->units[i], fc, json_object_get(u, "events"), top, NULL, -1);
		if (rc)
			return rc;
	}
	return 0;
}

static int compute(struct metric_rows *rows, struct file_ctx *fc, json_t *root)
{
	json_t *top = json_object_get(root, "events"), *regions = json_object_get(root, "regions");
	json_t *prov = json_object_get(root, "provenance"), *r;
	size_t i;
	int rc;

	fc->level = json_number_value(json_object_get(prov, "confidence"));
	if (!(fc->level > 0 && fc->level < 1))
		fc->level = 0.95; /* a file without its level, or with one out of range */
	fc->lit.obj = json_object_get(prov, "literals");
	if (!json_is_object(fc->lit.obj))
		fc->lit.obj = NULL;
	rc = add_scope(rows, fc, top, NULL, NULL, -1);

	json_array_foreach(regions, i, r)
	{
		const char *name = json_string_value(json_object_get(r, "name"));
		json_t *threads = json_object_get(r, "threads"), *t;
		size_t k;

		if (rc || !name)
			return rc ? rc : -PMC_E_FORMAT;
		rc = add_scope(rows, fc, json_object_get(r, "events"), top, name, -1);
		json_array_foreach(threads, k, t)
		{
			if (!rc)
				rc = add_scope(
					rows, fc, json_object_get(t, "events"), top, name,
					(int)json_integer_value(json_object_get(t, "thread")));
		}
	}
	return rc ? rc : units(fc, json_object_get(root, "units"), top);
}

/*
 * Without -M: the metrics the file holds, each by its name where the set knows it, else
 * defined again from its formula (a one-off of the run).
 */
static int select_saved(struct pmc_metrics *m, json_t *root)
{
	json_t *metrics = json_object_get(root, "metrics"), *j;
	struct pmc_metric_error err = {0};
	size_t i;
	int rc = 0;

	json_array_foreach(metrics, i, j)
	{
		const char *name = json_string_value(json_object_get(j, "name"));
		const char *expr = json_string_value(json_object_get(j, "formula"));
		char *def;

		if (!name || !expr || rc)
			continue;
		if (pmc_metrics__find(m, name)) {
			rc = pmc_metrics__select(m, name, &err);
			continue;
		}
		if (asprintf(&def, "%s = %s", name, expr) < 0)
			return -ENOMEM;
		rc = pmc_metrics__define(m, def, &err);
		free(def);
	}
	if (rc)
		fprintf(stderr,
			"pmc metrics: a metric the file holds does not load: %s (a LIKWID group's "
			"metric: give its group with --likwid-group)\n",
			err.parse.msg);
	return rc;
}

static void print_text(const struct metric_rows *rows, const struct file_ctx *fc, json_t *root,
		       const char *path)
{
	json_t *regions = json_object_get(root, "regions"), *r, *t;
	size_t i, k;

	printf("Metrics of %s:\n\n", cli_show(path));
	metric_rows__print(stdout, rows, NULL, -1, "  ", NULL);
	for (i = 0; i < fc->nr_units; i++) {
		printf("\n  %s:\n",
		       cli_show(json_string_value(json_object_get(
			       json_array_get(json_object_get(root, "units"), i), "label"))));
		metric_rows__print(stdout, &fc->units[i], NULL, -1, "    ", NULL);
	}
	json_array_foreach(regions, i, r)
	{
		const char *name = json_string_value(json_object_get(r, "name"));

		printf("\n  Region %s:\n", cli_show(name));
		metric_rows__print(stdout, rows, name, -1, "    ", NULL);
		json_array_foreach(json_object_get(r, "threads"), k, t)
		{
			int thread = (int)json_integer_value(json_object_get(t, "thread"));

			printf("    thread %d:\n", thread);
			metric_rows__print(stdout, rows, name, thread, "      ", NULL);
		}
	}
}

static int print_json(const struct metric_rows *rows, const struct file_ctx *fc, json_t *root,
		      const char *path)
{
	json_t *out = json_object(), *regions = json_array(), *r, *t, *units = json_array();
	size_t i, k;
	int err;

	json_object_set_new(out, "schema", json_string("pmc-metrics/1"));
	json_object_set_new(out, "source", json_string(path));
	json_object_set_new(out, "metrics", metric_rows__json(rows, NULL, -1));
	for (i = 0; i < fc->nr_units; i++)
		json_array_append_new(
			units,
			json_pack("{s:O, s:o}", "label",
				  json_object_get(json_array_get(json_object_get(root, "units"), i),
						  "label"),
				  "metrics", metric_rows__json(&fc->units[i], NULL, -1)));
	if (fc->nr_units)
		json_object_set_new(out, "units", units);
	else
		json_decref(units);
	json_array_foreach(json_object_get(root, "regions"), i, r)
	{
		const char *name = json_string_value(json_object_get(r, "name"));
		json_t *threads = json_array();

		json_array_foreach(json_object_get(r, "threads"), k, t)
		{
			int thread = (int)json_integer_value(json_object_get(t, "thread"));

			json_array_append_new(threads,
					      json_pack("{s:i, s:o}", "thread", thread, "metrics",
							metric_rows__json(rows, name, thread)));
		}
		json_array_append_new(regions, json_pack("{s:s, s:o, s:o}", "name", name, "metrics",
							 metric_rows__json(rows, name, -1),
							 "threads", threads));
	}
	json_object_set_new(out, "regions", regions);
	err = json_dumpf(out, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	printf("\n");
	json_decref(out);
	return err ? 1 : 0;
}

/* The file, checked to be a pmc stat results file. Returns it, or NULL after saying why. */
static json_t *load(const char *path)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	const char *schema = json_string_value(json_object_get(root, "schema"));

	if (!root) {
		fprintf(stderr, "pmc metrics: cannot read %s: %s (line %d)\n", cli_show(path),
			jerr.text, jerr.line);
		return NULL;
	}
	if (!schema || strcmp(schema, "pmc-stat/1") ||
	    !json_is_array(json_object_get(root, "events"))) {
		fprintf(stderr,
			"pmc metrics: %s is not a pmc stat results file (schema pmc-stat/1, "
			"written by pmc stat --format json)\n",
			cli_show(path));
		json_decref(root);
		return NULL;
	}
	return root;
}

static int run(struct metric_opts *o, const char *path, const char *format)
{
	json_t *root = load(path);
	struct metric_rows rows = {0};
	struct pmc_metrics *m = NULL;
	struct file_ctx fc = {0};
	int rc;

	if (!root)
		return 2;
	o->backend =
		json_string_value(json_object_get(json_object_get(root, "provenance"), "backend"));
	rc = metric_set__new(o, "pmc metrics", &m);
	if (!rc && !metric_opts__any(o) && select_saved(m, root))
		rc = 2;
	if (!rc && !pmc_metrics__nr_selected(m)) {
		fprintf(stderr, "pmc metrics: %s holds no metrics: select some with -M\n",
			cli_show(path));
		rc = 2;
	}
	fc.m = m;
	if (!rc && compute(&rows, &fc, root)) {
		fprintf(stderr, "pmc metrics: %s: malformed counts\n", cli_show(path));
		rc = 2;
	}
	if (!rc && fc.lit.own_used)
		fprintf(stderr,
			"pmc metrics: note: %s does not record the '#' literals of the machine "
			"that "
			"counted (a pmc stat before they were recorded): this machine's are used\n",
			cli_show(path));
	if (!rc && !strcmp(format, "json"))
		rc = print_json(&rows, &fc, root, path);
	else if (!rc && !strcmp(format, "csv"))
		metric_rows__csv(stdout, &rows, ",");
	else if (!rc)
		print_text(&rows, &fc, root, path);
	metric_rows__free(&rows);
	for (size_t u = 0; u < fc.nr_units; u++)
		metric_rows__free(&fc.units[u]);
	free(fc.units);
	pmc_metrics__delete(m);
	json_decref(root);
	return rc || fflush(stdout) || ferror(stdout) ? (rc ? rc : 1) : 0;
}

int cmd_metrics(int argc, char **argv)
{
	struct metric_opts o = {.level = 0.95};
	const char *format = "text";
	int ch, rc = 0;

	while ((ch = cli_getopt(&cmd_metrics_doc, argc, argv)) != -1 && !rc) {
		if (ch == 'h') {
			cli_usage(&cmd_metrics_doc, stdout);
			goto out;
		} else if (ch == 'M') {
			rc = metric_opts__add(&o.select, &o.nr_select, optarg);
		} else if (ch == O_METRICS_FILE) {
			rc = metric_opts__add(&o.files, &o.nr_files, optarg);
		} else if (ch == O_LIKWID_GROUP) {
			rc = metric_opts__add(&o.likwid, &o.nr_likwid, optarg);
		} else if (ch == O_FORMAT && (!strcmp(optarg, "text") || !strcmp(optarg, "csv") ||
					      !strcmp(optarg, "json"))) {
			format = optarg;
		} else {
			if (ch == O_FORMAT)
				fprintf(stderr,
					"pmc metrics: --format is text, csv or json, not '%s'\n",
					cli_show(optarg));
			rc = 2;
		}
	}
	if (!rc && optind + 1 != argc) {
		fprintf(stderr, "pmc metrics: give one results file (pmc stat --format json -o "
				"FILE)\nsee 'pmc metrics --help'\n");
		rc = 2;
	}
	if (!rc)
		rc = run(&o, argv[optind], format);
out:
	free(o.select);
	free(o.files);
	free(o.likwid);
	return rc;
}
