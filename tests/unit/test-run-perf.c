// SPDX-License-Identifier: MIT
/*
 * perf stat's outputs as libpmc writes them, through the public API only (no internal header):
 * a vpmu run's events viewed with their shadow values (pmc_stat_views__new()), its -x and -j
 * lines (pmc_run__write_perf()) with the header line and the metrics after the events, and
 * pmc list's and pmc doctor's JSON (pmc_event_list__write_json(), pmc_caps__write_json()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>

static struct pmc_metrics *set;
static struct pmc_evlist *evlist;
static struct pmc_run *run;

static void teardown(void)
{
	pmc_run__delete(run);
	pmc_evlist__delete(evlist);
	pmc_metrics__delete(set);
}

TestSuite(run_perf, .fini = teardown);

/* vpmu-loop loop 1000 under vpmu, instructions and cycles, with the metric "ins". */
static const struct pmc_run_results *execute(void)
{
	static char prog[] = PMC_PROGS_DIR "/vpmu-loop", mode[] = "loop", num[] = "1000";
	static char *argv[] = {prog, mode, num, NULL};
	struct pmc_metrics_opts mo = {.sz = sizeof(mo), .backend = "vpmu", .no_shipped = true};
	struct pmc_evlist_opts eo = {.sz = sizeof(eo), .backend = "vpmu"};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	struct pmc_run_opts ro = {.sz = sizeof(ro), .no_warmup = true, .backend = "vpmu"};
	struct pmc_metric_error err;
	int passes;

	if (!pmc_caps__backend(pmc_caps(), "vpmu")->usable)
		cr_skip_test("vpmu tool not available: %s",
			     pmc_caps__backend(pmc_caps(), "vpmu")->why);
	cr_assert_eq(pmc_metrics__new(&mo, &err, &set), 0);
	cr_assert_eq(pmc_metrics__define(set, "ins = instructions", &err), 0);
	cr_assert_eq(pmc_evlist__new(&eo, &evlist), 0);
	cr_assert_eq(pmc_evlist__parse(evlist, "instructions,cycles", NULL), 0);
	cr_assert_eq(pmc_metrics__add_events(set, evlist, &eo, &err), 0);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
	ro.metrics = set;
	cr_assert_eq(pmc_run__new(evlist, &t, &ro, &run), 0);
	cr_assert_eq(pmc_run__execute(run), 0);
	return pmc_run__results(run);
}

/* What pmc_run__write_perf() writes with o, as a string to free. */
static char *perf_lines(const struct pmc_run_perf_opts *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	cr_assert_not_null(m);
	cr_assert_eq(pmc_run__write_perf(run, m, o), 0);
	cr_assert_eq(fclose(m), 0);
	return text;
}

Test(run_perf, views_carry_perf_units_and_shadow_values)
{
	const struct pmc_run_results *res = execute();
	struct pmc_stat_view *v;
	double ins = res->events[0].sum.mean, cyc = res->events[1].sum.mean;

	cr_assert_eq(pmc_stat_views__new(res, PMC_RUN_MERGE_UNITS, 0.95, &v), 0);
	cr_assert_str_eq(v[0].name, "instructions");
	cr_expect(v[0].counted);
	cr_expect_eq(v[0].value, ins);
	cr_expect_str_eq(v[0].unit, "");
	cr_assert(v[0].has_shadow);
	cr_expect_str_eq(v[0].shadow.unit, "insn per cycle");
	cr_expect_float_eq(v[0].shadow.value, ins / cyc, 1e-12);
	cr_expect_eq(v[0].shadow.decimals, 2);
	cr_expect_not(v[1].has_shadow, "cycles without a clock has no GHz");
	pmc_stat_views__delete(v, res->nr_events);
}

Test(run_perf, csv_lines_header_events_metrics)
{
	const struct pmc_run_results *res = execute();
	struct pmc_run_perf_opts o = {.sep = ";",
				      .merge = PMC_RUN_MERGE_UNITS,
				      .header = "\n  Stats for 'x'\n\n  (1 run) \n"};
	char *text = perf_lines(&o), want[256];
	double ins = res->events[0].sum.mean, cyc = res->events[1].sum.mean;

	/* leading breaks and spaces gone, each break a space, trailing spaces gone */
	snprintf(want, sizeof(want), "# pmc stat: Stats for 'x'    (1 run)\n");
	cr_expect(!strncmp(text, want, strlen(want)), "%s", text);
	snprintf(want, sizeof(want), "\n%.0f;;instructions;", ins);
	cr_expect_not_null(strstr(text, want), "%s in %s", want, text);
	snprintf(want, sizeof(want), ";100.00;%.2f;insn per cycle;0;\n", ins / cyc);
	cr_expect_not_null(strstr(text, want), "%s in %s", want, text);
	cr_expect_not_null(strstr(text, "\n# metric;region;thread;n;value;"), "%s", text);
	snprintf(want, sizeof(want), "\nins;;;1;%.0f;", ins);
	cr_expect_not_null(strstr(text, want), "%s in %s", want, text);
	free(text);
}

Test(run_perf, json_lines_events_then_metrics)
{
	const struct pmc_run_results *res = execute();
	struct pmc_run_perf_opts o = {.merge = PMC_RUN_MERGE_UNITS, .header = "ignored"};
	char *text = perf_lines(&o), want[256];

	snprintf(want, sizeof(want), "{\"counter-value\" : \"%f\", \"unit\" : \"\", ",
		 res->events[0].sum.mean);
	cr_expect(!strncmp(text, want, strlen(want)), "%s", text);
	cr_expect_not_null(strstr(text, "\"metric-unit\" : \"insn per cycle\", \"pass\" : 0, "));
	cr_expect_not_null(strstr(text, "\"backend\" : \"vpmu\"}\n"));
	cr_expect_not_null(strstr(text, "\n{\"name\":\"ins\","), "%s", text);
	free(text);
}

Test(run_perf, list_json)
{
	struct pmc_event_listed ev[] = {
		{.info = {.name = "cs", .kind = PMC_EV_SOFTWARE, .alias_of = "context-switches"},
		 .supported = true},
		{.info = {.name = "x", .kind = PMC_EV_SOFTWARE}, .why = "no"}};
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	cr_assert_eq(pmc_event_list__write_json(ev, 2, NULL, m), 0);
	cr_assert_eq(fclose(m), 0);
	cr_expect_str_eq(text, "{\n"
			       "  \"schema\": \"pmc-list/1\",\n"
			       "  \"backend\": \"perf\",\n"
			       "  \"events\": [\n"
			       "    {\n"
			       "      \"name\": \"cs\",\n"
			       "      \"kind\": \"software\",\n"
			       "      \"supported\": true,\n"
			       "      \"alias_of\": \"context-switches\"\n"
			       "    },\n"
			       "    {\n"
			       "      \"name\": \"x\",\n"
			       "      \"kind\": \"software\",\n"
			       "      \"supported\": false,\n"
			       "      \"reason\": \"no\"\n"
			       "    }\n"
			       "  ]\n"
			       "}\n");
	free(text);
}

Test(run_perf, doctor_json)
{
	const struct pmc_caps *c = pmc_caps();
	struct pmc_cap_check mine = {.key = "k", .name = "a check", .ok = true, .value = 3};
	const struct pmc_cap_check *checks[] = {&mine};
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	cr_assert_eq(pmc_caps__write_json(c, checks, 1, m), 0);
	cr_assert_eq(fclose(m), 0);
	cr_expect(!strncmp(text, "{\n  \"schema\": \"pmc-doctor/1\",\n", 30), "%s", text);
	cr_expect_not_null(
		strstr(text, "\"checks\": [\n    {\n      \"check\": \"a check\",\n"
			     "      \"key\": \"k\",\n      \"ok\": true,\n      \"value\": 3,"));
	cr_expect_not_null(strstr(text, "\"backends\": [\n    {\n      \"name\": \"perf\",\n"));
	cr_expect(len > 2 && !strcmp(text + len - 2, "}\n"));
	free(text);
}
