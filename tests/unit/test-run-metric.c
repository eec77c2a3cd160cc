// SPDX-License-Identifier: MIT
/*
 * Metrics computed by the runner (pmc_run_opts.metrics), through the public API only (no
 * internal header): a set whose events pmc_metrics__add_events() adds, a command counted under
 * vpmu (exact: a loop of N iterations runs 4N instructions), each metric's typed row
 * (pmc_run__metrics()) with its value and interval, pmc_run__metrics_of() and
 * pmc_metric__summarize() over the same counts, the results files that carry the rows, and a
 * saved results file read back (pmc_run_saved) giving the same rows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

TestSuite(run_metric, .fini = teardown);

/*
 * A vpmu list of events with the metrics of defs (';'-separated definitions) and those of the
 * metric file (NULL: none) added to it, planned.
 */
static void prepare_with(const char *events, const char *defs, const char *file)
{
	struct pmc_metrics_opts mo = {.sz = sizeof(mo), .backend = "vpmu", .no_shipped = true};
	struct pmc_evlist_opts eo = {.sz = sizeof(eo), .backend = "vpmu"};
	struct pmc_metric_error err;
	char buf[512], *save, *def;
	int passes;

	if (!pmc_caps__backend(pmc_caps(), "vpmu")->usable)
		cr_skip_test("vpmu tool not available: %s",
			     pmc_caps__backend(pmc_caps(), "vpmu")->why);
	cr_assert_eq(pmc_metrics__new(&mo, &err, &set), 0);
	snprintf(buf, sizeof(buf), "%s", defs);
	for (def = strtok_r(buf, ";", &save); def; def = strtok_r(NULL, ";", &save))
		cr_assert_eq(pmc_metrics__define(set, def, &err), 0, "%s: %s", def, err.parse.msg);
	if (file) {
		cr_assert_eq(pmc_metrics__load(set, file, &err), 0, "%s", err.parse.msg);
		cr_assert_eq(pmc_metrics__select(set, "all", &err), 0);
	}
	cr_assert_eq(pmc_evlist__new(&eo, &evlist), 0);
	if (events)
		cr_assert_eq(pmc_evlist__parse(evlist, events, NULL), 0);
	cr_assert_eq(pmc_metrics__add_events(set, evlist, &eo, &err), 0, "%s", err.parse.msg);
	cr_assert_eq(pmc_evlist__plan(evlist, false, &passes), 0);
}

static void prepare(const char *events, const char *defs)
{
	prepare_with(events, defs, NULL);
}

/* Runs vpmu-loop loop n, repeat times, with the set's metrics (or none). */
static const struct pmc_run_results *execute(const char *n, int repeat, bool metrics)
{
	/* the runner keeps argv (the results name the command): static */
	static char prog[] = PMC_PROGS_DIR "/vpmu-loop", mode[] = "loop", num[32];
	static char *argv[] = {prog, mode, num, NULL};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	struct pmc_run_opts ro = {.sz = sizeof(ro),
				  .repeat = repeat,
				  .no_warmup = true,
				  .backend = "vpmu",
				  .metrics = metrics ? set : NULL};

	snprintf(num, sizeof(num), "%s", n);
	pmc_run__delete(run);
	run = NULL;
	cr_assert_eq(pmc_run__new(evlist, &t, &ro, &run), 0);
	cr_assert_eq(pmc_run__execute(run), 0);
	return pmc_run__results(run);
}

/* The whole program's row of the metric named name. */
static const struct pmc_metric_summary *row_of(const char *name)
{
	size_t nr;
	const struct pmc_run_metric_row *v = pmc_run__metrics(run, &nr);

	for (size_t i = 0; i < nr; i++)
		if (!v[i].region && v[i].unit < 0 &&
		    !strcmp(pmc_metric__info(v[i].s.metric)->name, name))
			return &v[i].s;
	cr_assert_fail("no row of %s", name);
	return NULL;
}

/* The mean of the event of the list named (a weak group's member included) name. */
static double mean_of(const struct pmc_run_results *res, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < res->nr_events; i++) {
		const char *n = pmc_evsel__name(res->events[i].evsel);

		if (!strncmp(n, name, len) && (!n[len] || !strcmp(n + len, ":W")))
			return res->events[i].sum.mean;
	}
	cr_assert_fail("no event %s", name);
	return 0;
}

Test(run_metric, exact_counts_give_exact_values)
{
	const struct pmc_run_results *res;
	const struct pmc_metric_summary *ins, *ipc;
	double at1, at2;

	prepare(NULL, "ins = instructions;ipc = instructions / cycles");
	res = execute("100000", 3, true);
	ins = row_of("ins");
	ipc = row_of("ipc");
	/* vpmu counts each run the same: the interval of three equal values is 0 */
	cr_expect_eq(ins->v.status, PMC_METRIC_OK, "%s", ins->v.why);
	cr_expect_eq(ins->method, PMC_METRIC_PER_REP);
	cr_expect_eq(ins->n, 3);
	cr_expect_eq(ins->ci, 0);
	cr_assert_not_null(ins->values);
	for (int r = 0; r < 3; r++)
		cr_expect_eq(ins->values[r], ins->v.value, "repetition %d", r);
	cr_expect_eq(ins->v.value, mean_of(res, "instructions"));
	cr_expect_eq(ipc->v.value, mean_of(res, "instructions") / mean_of(res, "cycles"));
	cr_expect_str_eq(ipc->inputs, "instructions, cycles");
	at1 = ins->v.value;
	/* 100000 more iterations of {nop; add; dec; jnz}: 400000 more instructions, exactly */
	execute("200000", 1, true);
	ins = row_of("ins");
	at2 = ins->v.value;
	cr_expect_eq(ins->method, PMC_METRIC_ONE_RUN);
	cr_expect_eq(at2 - at1, 400000, "%.0f - %.0f", at2, at1);
}

Test(run_metric, the_calls_agree_on_the_same_counts)
{
	const struct pmc_run_results *res;
	struct pmc_metric_summary *of, s = {.sz = sizeof(s)};
	struct pmc_metric_counts *in;
	size_t nr;

	prepare("branches", "bpi = branches / instructions");
	res = execute("1000", 2, true);
	cr_assert_eq(pmc_run__metrics_of(run, res->events, &of, &nr), 0);
	cr_assert_eq(nr, 1);
	cr_expect_eq(of[0].v.value, row_of("bpi")->v.value);
	cr_expect_eq(of[0].ci, row_of("bpi")->ci);
	/* the same counts handed to the summary by the caller */
	in = calloc(res->nr_events, sizeof(*in));
	for (size_t i = 0; i < res->nr_events; i++)
		in[i] = (struct pmc_metric_counts){.name = pmc_evsel__name(res->events[i].evsel),
						   .pass = pmc_evsel__pass(res->events[i].evsel),
						   .counted = res->events[i].nr > 0,
						   .nr = res->events[i].nr,
						   .values = res->events[i].values};
	cr_assert_eq(
		pmc_metric__summarize(pmc_metrics__selected(set, 0), in, res->nr_events, NULL, &s),
		0);
	cr_expect_eq(s.v.value, of[0].v.value);
	cr_expect_eq(s.method, of[0].method);
	cr_expect_eq(s.first, 0, "branches' line, the first the formula names");
	pmc_metric_summary__fini(&s);
	pmc_run_metrics__delete(of, nr);
	free(in);
}

Test(run_metric, none_asked_none_computed)
{
	struct pmc_metric_summary *of;
	size_t nr = 7;

	prepare("instructions", "ins = instructions");
	execute("10", 1, false);
	cr_expect_null(pmc_run__metrics(run, &nr));
	cr_expect_eq(nr, 0);
	cr_expect_eq(pmc_run__metrics_of(run, pmc_run__results(run)->events, &of, &nr), -EINVAL);
}

Test(run_metric, a_definition_of_no_event_is_refused)
{
	struct pmc_metrics_opts mo = {.sz = sizeof(mo), .backend = "vpmu", .no_shipped = true};
	struct pmc_evlist_opts eo = {.sz = sizeof(eo), .backend = "vpmu"};
	struct pmc_metric_error err;

	cr_assert_eq(pmc_metrics__new(&mo, &err, &set), 0);
	cr_assert_eq(pmc_metrics__define(set, "x = instructions / no_such_event", &err), 0);
	cr_assert_eq(pmc_evlist__new(&eo, &evlist), 0);
	cr_expect_eq(pmc_metrics__add_events(set, evlist, &eo, &err), -PMC_E_UNKNOWN_EVENT);
	cr_expect_str_eq(err.where, "-M 'x = ...'");
	cr_expect_eq(pmc_evlist__nr(evlist), 0, "nothing added");
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

Test(run_metric, the_files_carry_the_rows)
{
	const struct pmc_metric_summary *ins;
	char line[256], *s;

	prepare(NULL, "ins = instructions;z = instructions / (cycles - cycles)");
	execute("1000", 2, true);
	ins = row_of("ins");
	s = written(PMC_RUN_FORMAT_JSON);
	cr_expect_not_null(strstr(s, "\"metrics\": [\n    {\n      \"name\": \"ins\""), "%s", s);
	free(s);
	s = written(PMC_RUN_FORMAT_TEXT);
	snprintf(line, sizeof(line), "ins program - %.17g 0 0.000 2 per-repetition\n",
		 ins->v.value);
	cr_expect_not_null(strstr(s, "# Metrics (2, 95% confidence level):\n"
				     "# Metric Scope Name Value [conf.int] [percentage] Runs "
				     "Method [unit]\n"),
			   "%s", s);
	cr_expect_not_null(strstr(s, line), "%s", s);
	cr_expect_not_null(strstr(s, "# z program -: n/a: "), "%s", s);
	free(s);
	s = written(PMC_RUN_FORMAT_CSV);
	cr_expect_not_null(strstr(s, "\nmetric,region,thread,n,value,ci,ci_pct,unit,method,"), "%s",
			   s);
	snprintf(line, sizeof(line), "\nins,,,2,%.17g,0,0,,per-repetition,", ins->v.value);
	cr_expect_not_null(strstr(s, line), "%s", s);
	free(s);
}

Test(run_metric, an_event_unknown_here_makes_its_metric_unavailable)
{
	static const char file[] = "[{\"MetricName\": \"u\", "
				   "\"MetricExpr\": \"instructions / no_such_event\"}]";
	const struct pmc_metric_summary *u;
	char path[] = "/tmp/test-run-metric-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, file, sizeof(file) - 1), (ssize_t)sizeof(file) - 1);
	close(fd);
	/* a file's metric is no one-off definition: its unknown event is kept, not refused */
	prepare_with(NULL, "ins = instructions", path);
	unlink(path);
	execute("10", 1, true);
	u = row_of("u");
	cr_expect_eq(u->v.status, PMC_METRIC_UNAVAILABLE);
	cr_expect(strstr(u->v.why, "'no_such_event' is not an event here"), "%s", u->v.why);
	cr_expect_eq(row_of("ins")->v.status, PMC_METRIC_OK, "the others are counted");
}

Test(run_metric, a_saved_file_gives_the_same_rows)
{
	const struct pmc_run_metric_row *run_rows, *rows;
	struct pmc_run_saved *saved;
	char path[] = "/tmp/test-run-metric-XXXXXX", why[256];
	int fd = mkstemp(path);
	size_t nr_run, nr;
	bool own = true;
	FILE *f;

	cr_assert_geq(fd, 0);
	prepare("branches", "ipc = instructions / cycles;bpi = branches / instructions");
	execute("1000", 3, true);
	f = fdopen(fd, "w");
	cr_assert_eq(pmc_run__write(run, f, PMC_RUN_FORMAT_JSON, 0), 0);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(pmc_run_saved__read(path, &saved, why, sizeof(why)), 0, "%s", why);
	unlink(path);
	cr_expect_str_eq(pmc_run_saved__backend(saved), "vpmu");
	cr_assert_eq(pmc_run_saved__metrics(saved, set, &rows, &nr, &own), 0);
	run_rows = pmc_run__metrics(run, &nr_run);
	cr_assert_eq(nr, nr_run);
	cr_expect_not(own, "the file records the literals of the machine that counted");
	for (size_t i = 0; i < nr; i++) {
		cr_expect_eq(rows[i].s.v.value, run_rows[i].s.v.value, "row %zu", i);
		cr_expect_eq(rows[i].s.ci, run_rows[i].s.ci, "row %zu", i);
		cr_expect_eq(rows[i].s.method, run_rows[i].s.method, "row %zu", i);
		cr_expect_eq(rows[i].s.n, run_rows[i].s.n, "row %zu", i);
	}
	pmc_run_saved__delete(saved);
	cr_expect_eq(pmc_run_saved__read("/nonexistent/x.json", &saved, why, sizeof(why)), -ENOENT);
	cr_expect_eq(pmc_run_saved__read("/dev/null", &saved, why, sizeof(why)), -PMC_E_NOTREG,
		     "a device is refused, not read");
}
