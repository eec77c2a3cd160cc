// SPDX-License-Identifier: MIT
/* pmc_run__add_metric(): what it refuses, and the results files that carry what it took. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>

static struct pmc_evlist *evlist;
static struct pmc_run *run;

/* A runner of "true" counting task-clock, never executed: the model without values. */
static void setup(void)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo)};
	static char *argv[] = {"true", NULL};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	struct pmc_run_opts ro = {.sz = sizeof(ro), .repeat = 1};
	int passes;

	cr_assert_eq(pmc_evlist__new(&eo, &evlist), 0);
	cr_assert_eq(pmc_evlist__parse(evlist, "task-clock", NULL), 0);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	cr_assert_eq(pmc_run__new(evlist, &t, &ro, &run), 0);
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
