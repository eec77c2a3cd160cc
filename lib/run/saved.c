// SPDX-License-Identifier: MIT
/*
 * A results file of pmc stat (schema pmc-stat/1, docs/stat-output.md) read back, and the
 * metrics computed from its counts by pmc_metric__summarize() in the scopes the runner's are
 * (pmc_run__metrics()): the same counts give the same values and intervals, to the last digit
 * (docs/metrics.md, "pmc metrics").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include <pmc/run.h>

/* The counts of one scope of the file, as the summary reads them. */
struct scope {
	struct pmc_metric_counts *in;
	size_t nr;
	double **values; /* [nr]: what in[i].values points to */
};

/*
 * The '#' literals of the machine that counted, from the file's provenance; a file written
 * before pmc stat recorded them takes this machine's (own_used).
 */
struct file_literals {
	json_t *obj; /* provenance.literals, or NULL */
	bool own_used;
};

struct pmc_run_saved {
	json_t *root;
	double level;
	struct file_literals lit;
	struct pmc_run_metric_row *rows;
	size_t nr_rows;
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

	json_array_foreach(events, i, e)
	{
		const char *n = json_string_value(json_object_get(e, "name"));

		if (!strcmp(n ? n : "", name))
			return (int)json_integer_value(json_object_get(e, "pass"));
	}
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

int pmc_run_saved__read(const char *path, struct pmc_run_saved **out, char *why, size_t len)
{
	json_error_t jerr;
	json_t *root = NULL, *prov;
	const char *schema;
	struct pmc_run_saved *s;
	FILE *f = NULL;
	int err = pmc_fopen_input(path, &f);

	*out = NULL;
	if (err) {
		snprintf(why, len, "%s", pmc_strerror(err));
		return err;
	}
	root = json_loadf(f, 0, &jerr);
	fclose(f);
	if (!root) {
		snprintf(why, len, "%s (line %d)", jerr.text, jerr.line);
		return -PMC_E_PARSE;
	}
	schema = json_string_value(json_object_get(root, "schema"));
	if (!schema || strcmp(schema, "pmc-stat/1") ||
	    !json_is_array(json_object_get(root, "events"))) {
		snprintf(why, len, "not a pmc stat results file (schema pmc-stat/1)");
		json_decref(root);
		return -PMC_E_FORMAT;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		json_decref(root);
		return -ENOMEM;
	}
	s->root = root;
	prov = json_object_get(root, "provenance");
	s->level = json_number_value(json_object_get(prov, "confidence"));
	if (!(s->level > 0 && s->level < 1))
		s->level = 0.95; /* a file without its level, or with one out of range */
	s->lit.obj = json_object_get(prov, "literals");
	if (!json_is_object(s->lit.obj))
		s->lit.obj = NULL;
	*out = s;
	return 0;
}

static void rows_free(struct pmc_run_saved *s)
{
	for (size_t i = 0; i < s->nr_rows; i++)
		pmc_metric_summary__fini(&s->rows[i].s);
	free(s->rows);
	s->rows = NULL;
	s->nr_rows = 0;
}

void pmc_run_saved__delete(struct pmc_run_saved *s)
{
	if (!s)
		return;
	rows_free(s);
	json_decref(s->root);
	free(s);
}

const char *pmc_run_saved__backend(const struct pmc_run_saved *s)
{
	return json_string_value(
		json_object_get(json_object_get(s->root, "provenance"), "backend"));
}

int pmc_run_saved__select(const struct pmc_run_saved *s, struct pmc_metrics *m,
			  struct pmc_metric_error *err)
{
	json_t *metrics = json_object_get(s->root, "metrics"), *j;
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
			rc = pmc_metrics__select(m, name, err);
			continue;
		}
		if (asprintf(&def, "%s = %s", name, expr) < 0)
			return -ENOMEM;
		rc = pmc_metrics__define(m, def, err);
		free(def);
	}
	return rc;
}

/* A row per selected metric of m over the scope's events, in the scope given. */
static int add_scope(struct pmc_run_saved *s, struct pmc_metrics *m, json_t *events, json_t *top,
		     const char *region, int thread, long unit)
{
	struct pmc_metric_summary_opts so = {.sz = sizeof(so),
					     .level = s->level,
					     .literal = file_literal,
					     .literal_arg = &s->lit};
	size_t nr = pmc_metrics__nr_selected(m);
	struct pmc_run_metric_row *v = realloc(s->rows, (s->nr_rows + nr + 1) * sizeof(*v));
	struct scope sc = {0};
	int rc = v ? scope_read(&sc, events, top) : -ENOMEM;

	if (v)
		s->rows = v;
	for (size_t i = 0; i < nr && !rc; i++) {
		struct pmc_run_metric_row *row = &s->rows[s->nr_rows];

		*row = (struct pmc_run_metric_row){
			.region = region, .thread = thread, .unit = unit, .s.sz = sizeof(row->s)};
		rc = pmc_metric__summarize(pmc_metrics__selected(m, i), sc.in, sc.nr, &so, &row->s);
		if (!rc)
			s->nr_rows++;
	}
	scope_free(&sc);
	return rc;
}

static int regions(struct pmc_run_saved *s, struct pmc_metrics *m, json_t *top)
{
	json_t *r;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(s->root, "regions"), i, r)
	{
		const char *name = json_string_value(json_object_get(r, "name"));
		json_t *t;
		size_t k;

		if (rc || !name)
			return rc ? rc : -PMC_E_FORMAT;
		rc = add_scope(s, m, json_object_get(r, "events"), top, name, -1, -1);
		json_array_foreach(json_object_get(r, "threads"), k, t)
		{
			if (!rc)
				rc = add_scope(
					s, m, json_object_get(t, "events"), top, name,
					(int)json_integer_value(json_object_get(t, "thread")), -1);
		}
	}
	return rc;
}

int pmc_run_saved__metrics(struct pmc_run_saved *s, struct pmc_metrics *m,
			   const struct pmc_run_metric_row **rows, size_t *nr, bool *own_literals)
{
	json_t *top = json_object_get(s->root, "events"), *u;
	size_t i;
	int rc;

	rows_free(s);
	s->lit.own_used = false;
	rc = add_scope(s, m, top, NULL, NULL, -1, -1);
	if (!rc)
		rc = regions(s, m, top);
	json_array_foreach(json_object_get(s->root, "units"), i, u)
	{
		if (!rc && !json_is_string(json_object_get(u, "label")))
			rc = -PMC_E_FORMAT;
		if (!rc)
			rc = add_scope(s, m, json_object_get(u, "events"), top, NULL, -1, (long)i);
	}
	if (rc)
		rows_free(s);
	*rows = s->rows;
	*nr = s->nr_rows;
	if (own_literals)
		*own_literals = s->lit.own_used;
	return rc;
}

size_t pmc_run_saved__nr_units(const struct pmc_run_saved *s)
{
	return json_array_size(json_object_get(s->root, "units"));
}

const char *pmc_run_saved__unit_label(const struct pmc_run_saved *s, size_t u)
{
	return json_string_value(
		json_object_get(json_array_get(json_object_get(s->root, "units"), u), "label"));
}
