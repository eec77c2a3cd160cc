// SPDX-License-Identifier: MIT
/*
 * pmc calibrate: the counts an empty program adds under pmc stat (the thesis's Table D.1),
 * the terminal summary, and saving the calibration file (merged with earlier entries).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "calib.h"
#include "calib-measure.h"
#include "cli.h"

int calib_empty_program(const struct calib_params *p, struct pmc_evlist *l, json_t **out);
int calib_save(const char *path, json_t *entries, const struct calib_params *p);
void calib_print(FILE *f, json_t *entries, const struct calib_params *p);

/* One run of the empty program with the events of pass; values[i] for each event. */
static int run_once(const struct calib_params *p, struct pmc_evlist *l, int pass, double *values)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = p->empty_argv};
	int status, err = pmc_evlist__open(l, &t, pass);

	if (!err)
		err = pmc_evlist__start(l);
	if (!err)
		err = pmc_evlist__wait(l, &status);
	if (!err)
		err = pmc_evlist__read(l);
	for (size_t i = 0; !err && values && i < pmc_evlist__nr(l); i++) {
		struct pmc_count c;

		if (!pmc_evsel__count(pmc_evlist__at(l, i), &c))
			values[i] = (double)c.value;
	}
	pmc_evlist__close(l);
	return err;
}

static json_t *summary(double *v, int n)
{
	struct pmc_summary s;
	json_t *values = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(values, json_real(v[i]));
	pmc_summarize(v, (size_t)n, 0.95, &s);
	return json_pack("{s:o, s:i, s:f, s:f, s:f, s:f, s:f}", "values", values, "runs", n, "mean",
			 s.mean, "ci", s.ci, "ci_pct", s.ci_pct, "median", s.median, "stddev",
			 s.stddev);
}

int calib_empty_program(const struct calib_params *p, struct pmc_evlist *l, json_t **out)
{
	size_t nr = pmc_evlist__nr(l);
	double *v = calloc(nr * (size_t)p->runs + 1, sizeof(double)), *one = calloc(nr + 1, 8);
	int passes, err = v && one ? pmc_evlist__plan(l, false, &passes) : -ENOMEM;
	char why[512];

	*out = json_object();
	for (size_t i = 0; !err && i < nr; i++)
		if (pmc_evsel__check(pmc_evlist__at(l, i), why, sizeof(why)))
			fprintf(stderr, "pmc calibrate: skipping '%s': %s\n",
				pmc_evsel__name(pmc_evlist__at(l, i)), why);
	for (int pass = 0; !err && pass < passes; pass++) {
		err = run_once(p, l, pass, NULL); /* the warm-up run */
		for (int r = 0; !err && r < p->runs; r++) {
			err = run_once(p, l, pass, one);
			for (size_t i = 0; i < nr; i++)
				v[i * (size_t)p->runs + (size_t)r] = one[i];
		}
		for (size_t i = 0; !err && i < nr; i++)
			if (pmc_evsel__pass(pmc_evlist__at(l, i)) == pass)
				json_object_set_new(*out, pmc_evsel__name(pmc_evlist__at(l, i)),
						    summary(&v[i * (size_t)p->runs], p->runs));
	}
	if (err)
		fprintf(stderr, "pmc calibrate: running '%s': %s\n", p->empty_argv[0],
			pmc_strerror(err));
	free(v);
	free(one);
	return err;
}

static double num(json_t *j, const char *a, const char *b, const char *c)
{
	j = json_object_get(j, a);
	j = b ? json_object_get(j, b) : j;
	return json_number_value(c ? json_object_get(j, c) : j);
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
		fprintf(f,
			"  empty program under pmc stat:   %.1f +/- %.1f (%.3f%%)  [median %.1f]\n",
			num(e, "empty_program", "mean", NULL), num(e, "empty_program", "ci", NULL),
			num(e, "empty_program", "ci_pct", NULL),
			num(e, "empty_program", "median", NULL));
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

/* Earlier entries for other events, backends or privilege levels are kept. */
static json_t *merged(const char *path, json_t *entries)
{
	json_t *old = json_load_file(path, 0, NULL), *all = json_array(), *e, *n;
	size_t i, k;

	json_array_foreach(json_object_get(old, "entries"), i, e)
	{
		bool replaced = false;

		json_array_foreach(entries, k, n) replaced |=
			json_equal(json_object_get(e, "event"), json_object_get(n, "event")) &&
			json_equal(json_object_get(e, "backend"), json_object_get(n, "backend")) &&
			json_equal(json_object_get(e, "priv"), json_object_get(n, "priv"));
		if (!replaced)
			json_array_append(all, e);
	}
	json_array_extend(all, entries);
	json_decref(old);
	return all;
}

static void make_parent(const char *path)
{
	char *d = strdup(path);

	for (char *s = d ? strchr(d + 1, '/') : NULL; s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(d, 0755);
		*s = '/';
	}
	free(d);
}

int calib_save(const char *path, json_t *entries, const struct calib_params *p)
{
	char *def = path ? NULL : calib_default_path(), host[256] = "", date[64];
	const char *target = path ? path : def;
	const struct pmc_caps *caps = pmc_caps();
	struct pmc_outfile *out;
	time_t t = time(NULL);
	json_t *root;
	int err;

	gethostname(host, sizeof(host) - 1);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if (!target)
		return -ENOMEM;
	if (strcmp(target, "-"))
		make_parent(target);
	root = json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:s, s:s}, s:o}", "schema",
			 "pmc-calibrate/1", "machine", "hostname", host, "cpu_model",
			 caps->cpu_model, "kernel", caps->kernel, "date", date, "pmc_version",
			 pmc_version(), "empty_program", p->empty_argv[0], "entries",
			 strcmp(target, "-") ? merged(target, entries) : json_copy(entries));
	err = root ? pmc_outfile__open(target, &out) : -ENOMEM;
	if (!err &&
	    json_dumpf(root, pmc_outfile__stream(out), JSON_INDENT(2) | JSON_REAL_PRECISION(17))) {
		pmc_outfile__abort(out);
		err = -EIO;
	} else if (!err) {
		fputc('\n', pmc_outfile__stream(out));
		err = pmc_outfile__commit(out);
	}
	if (err)
		fprintf(stderr, "pmc calibrate: cannot write %s: %s\n", target, pmc_strerror(err));
	else if (strcmp(target, "-"))
		fprintf(stderr, "pmc calibrate: calibration written to %s\n", target);
	json_decref(root);
	free(def);
	return err;
}
