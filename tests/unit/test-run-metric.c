// SPDX-License-Identifier: MIT
/* pmc_run__add_metric(): what it refuses, and the results files that carry what it took. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>

static struct pmc_evlist *evlist;
static struct pmc_run *run;

/* A runner of "true" counting task-clock, never executed: the model without values. */
static struct pmc_run *new_run(void)
{
	static char *argv[] = {"true", NULL};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	struct pmc_run_opts ro = {.sz = sizeof(ro), .repeat = 1};
	struct pmc_run *r = NULL;

	cr_assert_eq(pmc_run__new(evlist, &t, &ro, &r), 0);
	return r;
}

static void setup(void)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo)};
	int passes;

	cr_assert_eq(pmc_evlist__new(&eo, &evlist), 0);
	cr_assert_eq(pmc_evlist__parse(evlist, "task-clock", NULL), 0);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	run = new_run();
}

static void teardown(void)
{
	pmc_run__delete(run);
	pmc_evlist__delete(evlist);
}

TestSuite(run_metric, .init = setup, .fini = teardown);

static int add(const char *region, int thread, long unit, const char *json)
{
	struct pmc_run_metric m = {
		.sz = sizeof(m), .region = region, .thread = thread, .unit = unit, .json = json};

	return pmc_run__add_metric(run, &m);
}

Test(run_metric, refuses_what_is_no_metric_or_no_scope)
{
	struct pmc_run_metric small = {
		.sz = 1, .thread = -1, .unit = -1, .json = "{\"name\":\"a\"}"};

	cr_assert_eq(pmc_run__add_metric(run, &small), -EINVAL, "a bad sz");
	cr_assert_eq(add(NULL, -1, -1, NULL), -EINVAL, "no object");
	cr_assert_eq(add(NULL, -1, -1, "[1]"), -EINVAL, "not an object");
	cr_assert_eq(add(NULL, -1, -1, "{\"value\": 1}"), -EINVAL, "no name");
	cr_assert_eq(add(NULL, -1, -1, "{\"name\": 1}"), -EINVAL, "a name that is no string");
	cr_assert_eq(add(NULL, -1, -1, "{\"name\": \"a\""), -EINVAL, "not JSON");
	cr_assert_eq(add(NULL, 0, -1, "{\"name\": \"a\"}"), -EINVAL, "a thread without a region");
	cr_assert_eq(add(NULL, -1, 0, "{\"name\": \"a\"}"), -EINVAL, "a unit the run lacks");
	cr_assert_eq(add("r", -1, 0, "{\"name\": \"a\"}"), -EINVAL, "a region's unit");
}

/* The file of fmt written into a string (free() it). */
static char *written(enum pmc_run_format fmt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	cr_assert_eq(pmc_run__write(run, f, fmt, 0), 0);
	cr_assert_eq(fclose(f), 0);
	return text;
}

Test(run_metric, the_files_carry_what_was_added)
{
	char *s;

	s = written(PMC_RUN_FORMAT_JSON);
	cr_assert_null(strstr(s, "\"metrics\""), "no metric added: no key");
	free(s);
	cr_assert_eq(
		add(NULL, -1, -1,
		    "{\"name\": \"a b\", \"value\": 0.5, \"ci\": 0.25, \"ci_pct\": 50, \"n\": 3, "
		    "\"method\": \"per-repetition\", \"unit\": \"%\", \"status\": \"ok\"}"),
		0);
	cr_assert_eq(add(NULL, -1, -1,
			 "{\"name\": \"z\", \"value\": null, \"status\": \"n/a\", "
			 "\"reason\": \"division by zero\"}"),
		     0);
	s = written(PMC_RUN_FORMAT_JSON);
	cr_assert_not_null(strstr(s, "\"metrics\": [\n    {\n      \"name\": \"a b\""), "%s", s);
	free(s);
	s = written(PMC_RUN_FORMAT_TEXT);
	cr_assert_not_null(strstr(s, "# Metric Scope Name Value [conf.int] [percentage] Runs "
				     "Method [unit]\n"
				     "a%20b program - 0.5 0.25 50.000 3 per-repetition %25\n"
				     "# z program -: n/a: division by zero\n"),
			   "%s", s);
	free(s);
}

/* The same metric as JSON text and as fields gives the same files, byte for byte. */
Test(run_metric, fields_are_the_object_the_text_would_be)
{
	static const double values[] = {0.25, NAN, 0.75};
	static const char *const inputs[] = {"instructions", "cycles"};
	const struct pmc_run_field f[] = {
		{.key = "name", .kind = PMC_RUN_FIELD_STRING, .s = "a b"},
		{.key = "value", .kind = PMC_RUN_FIELD_NUMBER, .d = 0.5},
		{.key = "ci", .kind = PMC_RUN_FIELD_NUMBER, .d = 0.25},
		{.key = "ci_pct", .kind = PMC_RUN_FIELD_NUMBER, .d = 50},
		{.key = "n", .kind = PMC_RUN_FIELD_INTEGER, .i = 3},
		{.key = "values", .kind = PMC_RUN_FIELD_NUMBERS, .v = values, .n = 3},
		{.key = "inputs", .kind = PMC_RUN_FIELD_STRINGS, .strs = inputs, .n = 2},
		{.key = "flagged", .kind = PMC_RUN_FIELD_BOOL, .b = true},
		{.key = "threshold", .kind = PMC_RUN_FIELD_NULL},
		{.key = "exact", .kind = PMC_RUN_FIELD_NUMBER, .d = INFINITY},
		{.key = "reason", .kind = PMC_RUN_FIELD_STRING, .s = NULL},
		{.key = "unit", .kind = PMC_RUN_FIELD_STRING, .s = "%"},
	};
	const char *text =
		"{\"name\": \"a b\", \"value\": 0.5, \"ci\": 0.25, \"ci_pct\": 50.0, "
		"\"n\": 3, \"values\": [0.25, null, 0.75], \"inputs\": [\"instructions\", "
		"\"cycles\"], \"flagged\": true, \"threshold\": null, \"exact\": null, "
		"\"reason\": null, \"unit\": \"%\"}";
	struct pmc_run_metric m = {.sz = sizeof(m), .thread = -1, .unit = -1, .fields = f};
	char *by_text[2], *by_fields[2];
	const enum pmc_run_format fmt[2] = {PMC_RUN_FORMAT_JSON, PMC_RUN_FORMAT_TEXT};

	cr_assert_eq(add(NULL, -1, -1, text), 0);
	for (int i = 0; i < 2; i++)
		by_text[i] = written(fmt[i]);
	pmc_run__delete(run);
	run = new_run();
	m.nr_fields = sizeof(f) / sizeof(f[0]);
	cr_assert_eq(pmc_run__add_metric(run, &m), 0);
	for (int i = 0; i < 2; i++) {
		by_fields[i] = written(fmt[i]);
		cr_expect_str_eq(by_fields[i], by_text[i]);
		free(by_text[i]);
		free(by_fields[i]);
	}
}

Test(run_metric, refuses_fields_that_are_no_metric)
{
	struct pmc_run_field f[2] = {{.key = "name", .kind = PMC_RUN_FIELD_STRING, .s = "a"},
				     {.key = "name", .kind = PMC_RUN_FIELD_INTEGER, .i = 1}};
	struct pmc_run_metric m = {.sz = sizeof(m), .thread = -1, .unit = -1, .fields = f};
	const struct pmc_run_metric_v1 {
		size_t sz;
		const char *region;
		int thread;
		long unit;
		const char *json;
	} v1 = {.sz = sizeof(v1), .thread = -1, .unit = -1, .json = "{\"name\": \"old\"}"};

	m.nr_fields = 2;
	cr_expect_eq(pmc_run__add_metric(run, &m), -EINVAL, "a key twice");
	m.nr_fields = 0;
	cr_expect_eq(pmc_run__add_metric(run, &m), -EINVAL, "no name");
	f[1] = (struct pmc_run_field){.key = NULL, .kind = PMC_RUN_FIELD_NULL};
	m.nr_fields = 2;
	cr_expect_eq(pmc_run__add_metric(run, &m), -EINVAL, "no key");
	f[1] = (struct pmc_run_field){.key = "v", .kind = PMC_RUN_FIELD_NUMBERS, .n = 2};
	cr_expect_eq(pmc_run__add_metric(run, &m), -EINVAL, "an array without its items");
	f[1] = (struct pmc_run_field){.key = "v", .kind = (enum pmc_run_field_kind)99};
	cr_expect_eq(pmc_run__add_metric(run, &m), -EINVAL, "a kind there is not");
	f[1] = (struct pmc_run_field){.key = "s", .kind = PMC_RUN_FIELD_STRING, .s = "\xff"};
	cr_expect_eq(pmc_run__add_metric(run, &m), -EINVAL, "a string that is not UTF-8");
	f[1] = (struct pmc_run_field){.key = "n", .kind = PMC_RUN_FIELD_INTEGER, .i = 1};
	cr_expect_eq(pmc_run__add_metric(run, &m), 0);
	cr_expect_eq(pmc_run__add_metric(run, (const struct pmc_run_metric *)&v1), 0,
		     "a caller of the first version (sz ends at json)");
}
