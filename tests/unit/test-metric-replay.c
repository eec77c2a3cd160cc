// SPDX-License-Identifier: MIT
/*
 * The shipped real-CPU metric files (docs/metrics.md, "Real CPUs") reproduce perf's own metric
 * values from a perf stat -j capture made on that CPU, to the last digit perf printed. A
 * capture is tests/data/perf-stat/NAME.json: '#' header lines ("# model: intel-skylake", the
 * model column of data/metrics/index.tsv; "# cpu:", "# kernel:", "# perf:" say where it was
 * made; "# literal #smt_on: 0" gives a literal of that machine), then perf stat -j's lines as
 * perf wrote them. None exists until a machine with a hardware PMU records one: the test then
 * skips, saying so. Inputs are never invented.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <jansson.h>
#include <pmc/error.h>
#include <pmc/metric.h>

#define SHIPPED PMC_TEST_DATA "/../../data/metrics"
#define CAPTURES PMC_TEST_DATA "/perf-stat"
#define MAX_ROWS 256

struct capture {
	char model[64];
	char name[MAX_ROWS][256]; /* counters: the event as perf printed it; metrics: the name */
	double value[MAX_ROWS];
	int digits[MAX_ROWS]; /* metrics: digits perf printed after the point */
	bool metric[MAX_ROWS];
	char lit_name[8][32];
	double lit[8];
	int nr, nr_lit;
};

static void add(struct capture *c, const char *name, const char *value, bool metric)
{
	const char *dot = strchr(value, '.');

	cr_assert_lt(c->nr, MAX_ROWS);
	snprintf(c->name[c->nr], sizeof(c->name[0]), "%s", name);
	c->value[c->nr] = strtod(value, NULL);
	c->digits[c->nr] = dot ? (int)strspn(dot + 1, "0123456789") : 0;
	c->metric[c->nr++] = metric;
}

/* One line: a header, a counter ("counter-value", "event") or a metric ("metric-value",
 * "metric-unit", whose last word names the metric). */
static void read_line(struct capture *c, const char *path, char *line)
{
	json_t *o, *v, *e;
	json_error_t jerr;
	char *unit;

	if (sscanf(line, "# model: %63s", c->model) == 1)
		return;
	if (c->nr_lit < 8 &&
	    sscanf(line, "# literal %31s %lf", c->lit_name[c->nr_lit], &c->lit[c->nr_lit]) == 2) {
		c->lit_name[c->nr_lit][strcspn(c->lit_name[c->nr_lit], ":")] = 0;
		c->nr_lit++;
		return;
	}
	if (line[0] == '#' || line[0] == '\n')
		return;
	o = json_loads(line, 0, &jerr);
	cr_assert_not_null(o, "%s: %s", path, jerr.text);
	if ((v = json_object_get(o, "counter-value")) && (e = json_object_get(o, "event")))
		add(c, json_string_value(e), json_string_value(v), false);
	if ((v = json_object_get(o, "metric-value")) && (e = json_object_get(o, "metric-unit"))) {
		unit = strrchr(json_string_value(e), ' ');
		add(c, unit ? unit + 1 : json_string_value(e), json_string_value(v), true);
	}
	json_decref(o);
}

static int input(const char *event, struct pmc_metric_input *in, char *why, size_t len, void *arg)
{
	const struct capture *c = arg;

	for (int i = 0; i < c->nr; i++)
		if (!c->metric[i] && !strcmp(c->name[i], event)) {
			in->value = c->value[i];
			return 0;
		}
	snprintf(why, len, "which the capture does not hold");
	return -ENOENT;
}

static int literal(const char *name, double *value, void *arg)
{
	const struct capture *c = arg;

	for (int i = 0; i < c->nr_lit; i++)
		if (!strcasecmp(c->lit_name[i], name)) {
			*value = c->lit[i];
			return 0;
		}
	return -ENOENT;
}

/* Every metric perf printed, evaluated by pmc from the capture's counts, is perf's value. */
static int replay(const char *path)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .dir = SHIPPED, .no_shipped = true};
	struct pmc_metric_error err;
	static struct capture c;
	struct pmc_metrics *m;
	char line[4096], file[512];
	FILE *f = fopen(path, "r");
	int nr = 0;

	cr_assert_not_null(f, "%s", path);
	memset(&c, 0, sizeof(c));
	while (fgets(line, sizeof(line), f))
		read_line(&c, path, line);
	fclose(f);
	cr_assert(c.model[0], "%s: no '# model:' header", path);
	snprintf(file, sizeof(file), "%s/%s.json", SHIPPED, c.model);
	cr_assert_eq(pmc_metrics__new(&o, &err, &m), 0);
	cr_assert_eq(pmc_metrics__load(m, file, &err), 0, "%s: %s", err.where, err.parse.msg);
	for (int i = 0; i < c.nr; i++) {
		struct pmc_metric_eval_opts e = {
			.sz = sizeof(e), .input = input, .literal = literal, .arg = &c};
		struct pmc_metric_value v = {.sz = sizeof(v)};
		struct pmc_metric *metric = c.metric[i] ? pmc_metrics__find(m, c.name[i]) : NULL;

		if (!metric)
			continue;
		cr_assert_eq(pmc_metric__eval(metric, &e, &v), 0);
		cr_expect_eq(v.status, PMC_METRIC_OK, "%s: %s: %s", path, c.name[i], v.why);
		cr_expect_leq(fabs(v.value - c.value[i]), 0.5 * pow(10, -c.digits[i]),
			      "%s: %s is %.*f, perf printed %.*f", path, c.name[i], c.digits[i],
			      v.value, c.digits[i], c.value[i]);
		nr++;
	}
	cr_expect_gt(nr, 0, "%s: perf printed none of the file's metrics", path);
	pmc_metrics__delete(m);
	return nr;
}

Test(metric_replay, real_cpu_captures_give_perfs_values)
{
	DIR *d = opendir(CAPTURES);
	struct dirent *de;
	char path[512];
	int files = 0;

	while (d && (de = readdir(d))) {
		if (!strstr(de->d_name, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", CAPTURES, de->d_name);
		replay(path);
		files++;
	}
	if (d)
		closedir(d);
	if (!files)
		cr_skip_test("[cap:no-real-cpu-recording] no perf stat -j capture from a real CPU "
			     "exists (tests/data/perf-stat/): recording one needs a machine with a "
			     "hardware PMU, and none has been available");
}
