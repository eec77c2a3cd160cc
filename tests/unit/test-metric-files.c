// SPDX-License-Identifier: MIT
/*
 * Metric files (docs/metrics.md, "Files"): perf's schema read field by field, each fault
 * named with its entry and field; a user's file over the shipped ones; selections and
 * one-off definitions with their errors; the '#' literals from recorded sysfs trees.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pmc/error.h>
#include <pmc/metric.h>
#include <vpmu/protocol.h>
#include "core/sysfile.h"

#define SHIPPED PMC_TEST_DATA "/../../data/metrics"

static char *write_file(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/pmc-metric-file-XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static struct pmc_metrics *empty_set(void)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .no_shipped = true};
	struct pmc_metrics *m;

	cr_assert_eq(pmc_metrics__new(&o, NULL, &m), 0);
	return m;
}

/* Table rows leave trailing fields out on purpose: they are zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* A file that is refused: the code, and words of where and msg. */
struct bad {
	const char *text;
	int code;
	const char *where, *msg;
	int offset;	     /* into err.text, when the fault is in an expression; else -1 */
	const char *suggest; /* the first suggestion, or NULL */
};

#define M(fields) "[{\"MetricName\": \"m\", " fields "}]"

static const struct bad bad[] = {
	{"", -PMC_E_FORMAT, "", "line 1", -1},
	{"[1,", -PMC_E_FORMAT, "", "line 1, column 3", -1},
	{"{\"MetricName\": \"m\"}", -PMC_E_FORMAT, "", "not a JSON list", -1},
	{"[17]", -PMC_E_FORMAT, ": entry 0", "is not an object", -1},
	{"[{\"MetricExpr\": \"1\"}]", -PMC_E_FORMAT, ": entry 0", "has no MetricName", -1},
	{"[{\"MetricName\": 3, \"MetricExpr\": \"1\"}]", -PMC_E_FORMAT, ": entry 0",
	 "MetricName is not a string", -1},
	{M("\"MetricExpr\": \"1\", \"MetricExpr\": \"2\""), -PMC_E_FORMAT, "", "duplicate", -1},
	{M("\"MetricGroup\": \"g\""), -PMC_E_FORMAT, "entry 0 (metric 'm')", "no MetricExpr", -1},
	{M("\"MetricExpr\": 1"), -PMC_E_FORMAT, "(metric 'm'): MetricExpr", "not a string", -1},
	{M("\"MetricExpr\": \"1\", \"MetricExp\": \"2\""), -PMC_E_FORMAT, "(metric 'm')",
	 "unknown key 'MetricExp'", -1, "MetricExpr"},
	{M("\"MetricExpr\": \"1\", \"ScaleUnit\": \"%100\""), -PMC_E_FORMAT, ": ScaleUnit",
	 "'%100' is not a factor and a unit", -1},
	{M("\"MetricExpr\": \"1\", \"ScaleUnit\": \"0x10%\""), -PMC_E_FORMAT, ": ScaleUnit", "",
	 -1},
	{M("\"MetricExpr\": \"1\", \"ScaleUnit\": \"0%\""), -PMC_E_FORMAT, ": ScaleUnit", "", -1},
	{M("\"MetricExpr\": \"1\", \"ScaleUnit\": 100"), -PMC_E_FORMAT, ": ScaleUnit",
	 "not a string", -1},
	{M("\"MetricExpr\": \"1\", \"MetricConstraint\": \"NO_NMI_WATCHDOGS\""), -PMC_E_FORMAT,
	 ": MetricConstraint", "unknown constraint", -1, "NO_NMI_WATCHDOG"},
	{M("\"MetricExpr\": \"1\", \"MetricGroup\": \"a,b\""), -PMC_E_FORMAT, ": MetricGroup",
	 "separated by ';'", -1},
	{M("\"MetricExpr\": \"1 +* 2\""), -PMC_E_EXPR, "(metric 'm'): MetricExpr",
	 "expected an operand", 3},
	{M("\"MetricExpr\": \"1\", \"MetricThreshold\": \"m >\""), -PMC_E_EXPR, ": MetricThreshold",
	 "found the end", 3},
	{M("\"MetricExpr\": \"1\", \"PmcExactExpr\": \"m >\""), -PMC_E_EXPR, ": PmcExactExpr",
	 "found the end", 3},
	{M("\"MetricExpr\": \"#smt_o\""), -PMC_E_EXPR, ": MetricExpr", "unknown literal", 0,
	 "#smt_on"},
	{"[{\"MetricName\": \"a,b\", \"MetricExpr\": \"1\"}]", -PMC_E_FORMAT, ": MetricName",
	 "holds ','", -1},
	{"[{\"MetricName\": \"\", \"MetricExpr\": \"1\"}]", -PMC_E_FORMAT, ": MetricName", "empty",
	 -1},
	{"[{\"MetricName\": \"a\\u0000b\", \"MetricExpr\": \"1\"}]", -PMC_E_FORMAT, "", "u0000",
	 -1},
	{"[{\"MetricName\": \"x\", \"MetricExpr\": \"1\"}, {\"MetricName\": \"X\", \"MetricExpr\": "
	 "\"2\"}]",
	 -PMC_E_FORMAT, "entry 1 (metric 'X'): MetricName", "also the name of an earlier entry",
	 -1},
};

Test(metric_files, schema_faults_name_entry_and_field)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct bad *b = &bad[i];
		struct pmc_metrics *m = empty_set();
		struct pmc_metric_error err;
		char *path = write_file(b->text);
		int ret = pmc_metrics__load(m, path, &err);

		cr_expect_eq(ret, b->code, "%s: %d (%s: %s)", b->text, ret, err.where,
			     err.parse.msg);
		cr_expect(strstr(err.where, path), "%s: where '%s' names not the file", b->text,
			  err.where);
		cr_expect(strstr(err.where, b->where), "%s: where '%s' lacks '%s'", b->text,
			  err.where, b->where);
		cr_expect(strstr(err.parse.msg, b->msg), "%s: '%s' lacks '%s'", b->text,
			  err.parse.msg, b->msg);
		cr_expect_eq(err.parse.offset, b->offset, "%s: offset %d", b->text,
			     err.parse.offset);
		if (b->suggest)
			cr_expect_str_eq(err.parse.suggest[0], b->suggest, "%s", b->text);
		cr_expect_eq(pmc_metrics__nr(m), 0, "a failed load adds nothing");
		unlink(path);
		pmc_metrics__delete(m);
	}
}

/* A file as perf 6.1 ships them: events beside metrics, event keys on a metric, escapes. */
Test(metric_files, perf_files_load)
{
	const char *text =
		"[{\"BriefDescription\": \"an event\", \"EventCode\": \"0x3c\", \"EventName\": "
		"\"E\","
		"  \"SampleAfterValue\": \"2000003\", \"UMask\": \"0x1\"},"
		" {\"BriefDescription\": \"Instructions per cycle\", \"MetricExpr\": "
		"  \"INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD\", \"MetricGroup\": "
		"\"Ret;Summary\","
		"  \"MetricName\": \"IPC\", \"PublicDescription\": \"Longer words.\"},"
		" {\"BriefDescription\": \"PCIe\", \"EventCode\": \"0x83\", \"EventName\": \"L.P\","
		"  \"MetricExpr\": \"cpu_core@INST_DECODED.DECODERS\\\\,cmask\\\\=1@ * 2\","
		"  \"MetricName\": \"LLC_MISSES.PCIE_WRITE\", \"PerPkg\": \"1\", \"ScaleUnit\": "
		"\"4Bytes\", \"Unit\": \"IIO\", \"MetricConstraint\": \"NO_NMI_WATCHDOG\"}]";
	struct pmc_metrics *m = empty_set();
	struct pmc_metric_error err;
	char *path = write_file(text);
	const struct pmc_metric_info *i;

	cr_assert_eq(pmc_metrics__load(m, path, &err), 0, "%s: %s", err.where, err.parse.msg);
	cr_assert_eq(pmc_metrics__nr(m), 2);
	i = pmc_metric__info(pmc_metrics__at(m, 0));
	cr_expect_str_eq(i->name, "IPC");
	cr_expect_str_eq(i->groups, "Ret;Summary");
	cr_expect_str_eq(i->brief, "Instructions per cycle");
	cr_expect_str_eq(i->desc, "Longer words.");
	cr_expect_str_eq(i->unit, "");
	cr_expect_eq(i->scale, 1);
	cr_expect_null(i->threshold);
	cr_expect_null(i->constraint);
	cr_expect_str_eq(i->file, path);
	cr_expect_not(i->selected);
	i = pmc_metric__info(pmc_metrics__at(m, 1));
	cr_expect_eq(i->scale, 4);
	cr_expect_str_eq(i->unit, "Bytes");
	cr_expect_str_eq(i->constraint, "NO_NMI_WATCHDOG");
	cr_expect_str_eq(i->groups, "");
	unlink(path);
	pmc_metrics__delete(m);
}

Test(metric_files, only_regular_files_are_read)
{
	struct pmc_metrics *m = empty_set();
	struct pmc_metric_error err;
	char fifo[] = "/tmp/pmc-metric-fifo-XXXXXX";

	cr_expect_eq(pmc_metrics__load(m, "/nonexistent/metrics.json", &err), -ENOENT);
	cr_expect(strstr(err.where, "/nonexistent/metrics.json"), "%s", err.where);
	cr_expect_eq(pmc_metrics__load(m, "/tmp", &err), -PMC_E_NOTREG);
	cr_assert_not_null(mkdtemp(fifo));
	rmdir(fifo);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	cr_expect_eq(pmc_metrics__load(m, fifo, &err), -PMC_E_NOTREG,
		     "a FIFO neither hangs nor feeds");
	unlink(fifo);
	pmc_metrics__delete(m);
}

/* A user's file replaces the shipped metrics of its names, in their place. */
Test(metric_files, users_file_overrides_shipped)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .dir = SHIPPED};
	const char *text = "[{\"MetricName\": \"INSN_per_cycle\", \"MetricExpr\": \"1\"},"
			   " {\"MetricName\": \"mine\", \"MetricExpr\": \"insn_per_cycle * 2\"}]";
	struct pmc_metrics *m;
	struct pmc_metric_error err;
	struct pmc_metric *old;
	size_t nr;
	char *path = write_file(text);

	cr_assert_eq(pmc_metrics__new(&o, &err, &m), 0, "%s", err.parse.msg);
	nr = pmc_metrics__nr(m);
	cr_assert_gt(nr, 10);
	cr_assert_eq(pmc_metrics__select(m, "insn_per_cycle", &err), 0);
	old = pmc_metrics__find(m, "insn_per_cycle");
	cr_assert_eq(pmc_metrics__load(m, path, &err), 0, "%s", err.parse.msg);
	cr_expect_eq(pmc_metrics__nr(m), nr + 1);
	cr_expect_str_eq(pmc_metric__info(pmc_metrics__at(m, 0))->name, "INSN_per_cycle");
	cr_expect_str_eq(pmc_metric__info(old)->name, "insn_per_cycle", "the old one is kept");
	cr_expect_eq(pmc_metrics__nr_selected(m), 1);
	cr_expect_eq(pmc_metrics__selected(m, 0), pmc_metrics__at(m, 0), "and its selection moved");
	cr_expect(pmc_metric__info(pmc_metrics__at(m, 0))->selected);
	unlink(path);
	pmc_metrics__delete(m);
}

Test(metric_files, selection_by_names_and_groups)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .dir = SHIPPED};
	struct pmc_metrics *m;
	struct pmc_metric_error err;

	cr_assert_eq(pmc_metrics__new(&o, &err, &m), 0, "%s", err.parse.msg);
	cr_assert_eq(pmc_metrics__select(m, " cycles_per_insn , tlb", &err), 0, "%s",
		     err.parse.msg);
	cr_assert_eq(pmc_metrics__nr_selected(m), 3);
	cr_expect_str_eq(pmc_metric__info(pmc_metrics__selected(m, 0))->name, "cycles_per_insn");
	cr_expect_str_eq(pmc_metric__info(pmc_metrics__selected(m, 1))->name,
			 "dtlb_load_miss_rate");
	cr_expect_str_eq(pmc_metric__info(pmc_metrics__selected(m, 2))->name,
			 "itlb_load_miss_rate");
	/* Selected again, nothing moves. */
	cr_assert_eq(pmc_metrics__select(m, "Pipeline", &err), 0);
	cr_expect_str_eq(pmc_metric__info(pmc_metrics__selected(m, 0))->name, "cycles_per_insn");
	cr_expect_eq(pmc_metrics__select(m, "cycles_per_insn,insn_per_cyle", &err),
		     -PMC_E_UNKNOWN_METRIC);
	cr_expect_eq(err.parse.offset, 16);
	cr_expect_str_eq(err.text, "cycles_per_insn,insn_per_cyle");
	cr_expect_str_eq(err.parse.msg, "no metric or metric group 'insn_per_cyle'");
	cr_assert_geq(err.parse.nr_suggest, 1);
	cr_expect_str_eq(err.parse.suggest[0], "insn_per_cycle");
	cr_expect_eq(pmc_metrics__select(m, "Cahce", &err), -PMC_E_UNKNOWN_METRIC);
	cr_expect_str_eq(err.parse.suggest[0], "Cache");
	cr_expect_eq(pmc_metrics__select(m, "tlb,,cache", &err), -PMC_E_UNKNOWN_METRIC);
	cr_expect_eq(err.parse.offset, 4);
	cr_expect_eq(pmc_metrics__select(m, "", &err), -PMC_E_UNKNOWN_METRIC);
	cr_expect_eq(pmc_metrics__select(m, "all", &err), 0);
	cr_expect_eq(pmc_metrics__nr_selected(m), pmc_metrics__nr(m));
	pmc_metrics__delete(m);
}

static const struct {
	const char *def;
	int code, offset;
	const char *msg;
} bad_defs[] = {
	{"= 1", -PMC_E_EXPR, 0, "expected a metric name"},
	{"  9x = 1", -PMC_E_EXPR, 2, "expected a metric name"},
	{"x 1", -PMC_E_EXPR, 2, "expected '=' after the metric's name"},
	{"x-y = 1", -PMC_E_EXPR, 1, "expected '='"},
	{"x = 1 +", -PMC_E_EXPR, 7, "found the end"},
	{"x =", -PMC_E_EXPR, 3, "empty"},
	{"ipc = instructions / / cycles", -PMC_E_EXPR, 21, "expected an operand"},
};

Test(metric_files, one_off_definitions)
{
	struct pmc_metrics *m = empty_set();
	struct pmc_metric_error err;
	const struct pmc_metric_info *i;

	for (size_t k = 0; k < sizeof(bad_defs) / sizeof(bad_defs[0]); k++) {
		cr_expect_eq(pmc_metrics__define(m, bad_defs[k].def, &err), bad_defs[k].code, "%s",
			     bad_defs[k].def);
		cr_expect_eq(err.parse.offset, bad_defs[k].offset, "%s: at %d", bad_defs[k].def,
			     err.parse.offset);
		cr_expect_str_eq(err.text, bad_defs[k].def);
		cr_expect(strstr(err.parse.msg, bad_defs[k].msg), "%s: %s", bad_defs[k].def,
			  err.parse.msg);
	}
	cr_expect_eq(pmc_metrics__nr(m), 0);
	cr_assert_eq(pmc_metrics__define(m, " my.ipc\t=instructions / cycles ", &err), 0);
	i = pmc_metric__info(pmc_metrics__find(m, "my.ipc"));
	cr_expect_str_eq(i->expr, "instructions / cycles ");
	cr_expect_null(i->file);
	cr_expect(i->selected, "a definition is selected");
	cr_expect_eq(pmc_metrics__nr_selected(m), 1);
	pmc_metrics__delete(m);
}

/* A long expression's error carries the part around the fault, the offset into it. */
Test(metric_files, long_texts_are_windowed_around_the_fault)
{
	struct pmc_metrics *m = empty_set();
	struct pmc_metric_error err;
	char def[4096];
	size_t n = (size_t)snprintf(def, sizeof(def), "x = ");

	while (n < 3000) /* long names: a long sum nests deeper than the limit */
		n += (size_t)snprintf(def + n, sizeof(def) - n,
				      "a_rather_long_event_name_of_sixty_bytes_or_so_%04zu + ", n);
	snprintf(def + n, sizeof(def) - n, "* b");
	cr_assert_eq(pmc_metrics__define(m, def, &err), -PMC_E_EXPR);
	cr_assert_geq(err.parse.offset, 0);
	cr_assert_lt((size_t)err.parse.offset, strlen(err.text));
	cr_expect_eq(err.text[err.parse.offset], '*', "the offset is into the window");
	cr_expect_lt(strlen(err.text), strlen(def));
	pmc_metrics__delete(m);
}

static void literals_of(const char *root, const char *cpu_list, bool system_wide,
			const double *want)
{
	static const char *const names[] = {"#num_cpus", "#num_cpus_online", "#num_cores",
					    "#num_dies", "#num_packages",    "#smt_on",
					    "#core_wide"};
	struct pmc_metrics_opts o = {.sz = sizeof(o),
				     .no_shipped = true,
				     .system_wide = system_wide,
				     .cpu_list = cpu_list};
	struct pmc_metrics *m;
	double v;

	pmc__sysfs_set_root(root);
	cr_assert_eq(pmc_metrics__new(&o, NULL, &m), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		cr_expect_eq(pmc_metrics__literal(m, names[i], &v), 0, "%s", names[i]);
		cr_expect_eq(v, want[i], "%s %s: %g, expected %g", root, names[i], v, want[i]);
	}
	pmc_metrics__delete(m);
	pmc__sysfs_set_root(NULL);
}

Test(metric_files, literals_from_recorded_topologies)
{
	const char *smt = PMC_TEST_DATA "/sysfs/topo-2s2c2t",
		   *old = PMC_TEST_DATA "/sysfs/topo-old-nosmt";

	/* cpus online cores dies packages smt_on core_wide */
	literals_of(smt, NULL, false, (double[]){8, 8, 4, 2, 2, 1, 0});
	literals_of(smt, NULL, true, (double[]){8, 8, 4, 2, 2, 1, 1});
	literals_of(smt, "0-3", true, (double[]){8, 8, 4, 2, 2, 1, 1});
	literals_of(smt, "0-2", true, (double[]){8, 8, 4, 2, 2, 1, 0}); /* half of core 2-3 */
	/* Older names, no dies, SMT off by the kernel's word, two CPUs offline. */
	literals_of(old, NULL, false, (double[]){6, 4, 4, 0, 1, 0, 0});
	literals_of(old, "0", true, (double[]){6, 4, 4, 0, 1, 0, 1});
}

static int no_input(const char *event, struct pmc_metric_input *in, char *why, size_t len,
		    void *arg)
{
	(void)event, (void)in, (void)why, (void)len, (void)arg;
	return -ENOENT;
}

/* The counts of the ground-truth test: a model's exact stall cycles beside what made them. */
static int exact_input(const char *event, struct pmc_metric_input *in, char *why, size_t len,
		       void *arg)
{
	static const struct {
		const char *event;
		double value;
	} c[] = {{"l2_hits", 10}, {"misps", 2}, {"stalls_exact", 100}, {"cycles", 1000}};

	(void)arg;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (!strcmp(event, c[i].event)) {
			in->value = c[i].value;
			return 0;
		}
	snprintf(why, len, "which the backend lacks");
	return -PMC_E_UNSUPPORTED;
}

static int list_event(const struct pmc_metric_event *ev, void *arg)
{
	char *out = arg;

	strcat(out, ev->event);
	strcat(out, ev->exact ? "(exact) " : " ");
	return 0;
}

/* PmcExactExpr: loaded, walked after the formula, evaluated with opts.exact; a metric it
 * refers to gives its own exact value; a metric without one is unavailable, saying why. */
Test(metric_files, exact_values_beside_estimates)
{
	const char *text =
		"[{\"MetricName\": \"stall\", \"MetricExpr\": \"6 * l2_hits + 17 * misps\", "
		"\"PmcExactExpr\": \"stalls_exact\", \"MetricThreshold\": \"stall > 99\"},"
		" {\"MetricName\": \"share\", \"MetricExpr\": \"stall / cycles\", "
		"\"PmcExactExpr\": \"stall / cycles\", \"ScaleUnit\": \"100%\"},"
		" {\"MetricName\": \"plain\", \"MetricExpr\": \"cycles\", "
		"\"MetricThreshold\": \"plain > 1\"}]";
	struct pmc_metric_eval_opts e = {.sz = sizeof(e), .input = exact_input};
	struct pmc_metric_value est = {.sz = sizeof(est)}, ex = {.sz = sizeof(ex)};
	struct pmc_metrics *m = empty_set();
	struct pmc_metric_error err;
	char events[256] = "";

	cr_assert_eq(pmc_metrics__load(m, write_file(text), &err), 0, "%s", err.parse.msg);
	cr_expect_str_eq(pmc_metric__info(pmc_metrics__find(m, "stall"))->exact, "stalls_exact");
	cr_expect_null(pmc_metric__info(pmc_metrics__find(m, "plain"))->exact);
	cr_assert_eq(pmc_metrics__select(m, "share,plain", &err), 0);
	cr_assert_eq(pmc_metrics__for_each_event(m, list_event, events), 0);
	cr_expect_str_eq(events, "l2_hits misps cycles stalls_exact(exact) ");

	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "stall"), &e, &est), 0);
	e.exact = true;
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "stall"), &e, &ex), 0);
	cr_expect_eq(est.raw, 94);
	cr_expect_eq(est.flagged, 0);
	cr_expect_eq(ex.raw, 100, "the exact value, not the formula's");
	cr_expect_eq(ex.flagged, 1, "the threshold reads the exact value");

	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "share"), &e, &ex), 0);
	cr_expect_eq(ex.status, PMC_METRIC_OK);
	cr_expect_float_eq(ex.value, 10, 1e-9, "100 / 1000 in %%: 'stall' gives its exact value");
	e.exact = false;
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "share"), &e, &est), 0);
	cr_expect_float_eq(est.value, 9.4, 1e-9);

	e.exact = true;
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "plain"), &e, &ex), 0);
	cr_expect_eq(ex.status, PMC_METRIC_UNAVAILABLE);
	cr_expect(strstr(ex.why, "metric 'plain' has no exact value"), "%s", ex.why);
	cr_expect_eq(ex.flagged, -1, "no exact value, no verdict on it");
	pmc_metrics__delete(m);
}

/* vpmu's #slots is the issue width its models declare, from the one place that declares it. */
Test(metric_files, vpmu_slots_are_the_models_issue_width)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .backend = "vpmu", .no_shipped = true};
	struct pmc_metrics *m;
	double x;

	cr_assert_eq(pmc_metrics__new(&o, NULL, &m), 0);
	cr_expect_eq(pmc_metrics__literal(m, "#slots", &x), 0);
	cr_expect_eq(x, VPMU_ISSUE_WIDTH);
	cr_expect_eq(x, 1, "docs/vpmu.md states W = 1");
	pmc_metrics__delete(m);
}

Test(metric_files, literals_without_topology_have_no_value)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .no_shipped = true, .slots = 6};
	struct pmc_metric_eval_opts e = {.sz = sizeof(e), .input = no_input};
	struct pmc_metric_value v = {.sz = sizeof(v)};
	struct pmc_metrics *m;
	double x;

	pmc__sysfs_set_root(PMC_TEST_DATA "/sysfs/fake-2s2c2t"); /* online only */
	cr_assert_eq(pmc_metrics__new(&o, NULL, &m), 0);
	cr_expect_lt(pmc_metrics__literal(m, "#smt_on", &x), 0);
	cr_expect_eq(pmc_metrics__literal(m, "#slots", &x), 0);
	cr_expect_eq(x, 6, "opts.slots wins");
	cr_expect_eq(pmc_metrics__literal(m, "#system_tsc_freq", &x), 0);
	cr_expect_geq(x, 0);
	cr_expect_eq(pmc_metrics__literal(m, "#nope", &x), -ENOENT);
	cr_assert_eq(pmc_metrics__define(m, "t = 2 if #smt_on else 3", NULL), 0);
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "t"), &e, &v), 0);
	cr_expect_eq(v.status, PMC_METRIC_NA);
	cr_expect(strstr(v.why, "#smt_on has no value on this machine"), "%s", v.why);
	pmc_metrics__delete(m);
	pmc__sysfs_set_root(NULL);
}

static int events_of(const struct pmc_metric_event *ev, void *arg)
{
	strcat(arg, ev->event);
	strcat(arg, " ");
	return 0;
}

/* perf's compute_ids: a condition of literals only takes one branch's events. */
Test(metric_files, constant_conditions_prune_events)
{
	const char *roots[] = {PMC_TEST_DATA "/sysfs/topo-2s2c2t",
			       PMC_TEST_DATA "/sysfs/topo-old-nosmt"};
	const char *want[] = {"smt_ev both_ev x ", "nosmt_ev both_ev x "};

	for (int i = 0; i < 2; i++) {
		struct pmc_metrics_opts o = {.sz = sizeof(o), .no_shipped = true};
		struct pmc_metrics *m;
		char seen[256] = "";

		pmc__sysfs_set_root(roots[i]);
		cr_assert_eq(pmc_metrics__new(&o, NULL, &m), 0);
		cr_assert_eq(
			pmc_metrics__define(
				m,
				"t = (smt_ev if #SMT_on else nosmt_ev) + (both_ev if x > 1 else 0)",
				NULL),
			0);
		cr_assert_eq(pmc_metrics__for_each_event(m, events_of, seen), 0);
		cr_expect_str_eq(seen, want[i], "%s", roots[i]);
		pmc_metrics__delete(m);
	}
	pmc__sysfs_set_root(NULL);
}

Test(metric_files, the_shipped_folder_must_hold_its_index)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .dir = "/tmp"};
	struct pmc_metrics *m;
	struct pmc_metric_error err;

	cr_expect_eq(pmc_metrics__new(&o, &err, &m), -ENOENT);
	cr_expect_null(m);
	cr_expect(strstr(err.parse.msg, "/tmp holds no index.tsv"), "%s", err.parse.msg);
	o.dir = NULL;
	setenv("PMC_METRICS_DIR", "/nonexistent", 1);
	cr_expect_eq(pmc_metrics__new(&o, &err, &m), -ENOENT);
	cr_expect(strstr(err.parse.msg, "PMC_METRICS_DIR=/nonexistent"), "%s", err.parse.msg);
	setenv("PMC_METRICS_DIR", SHIPPED, 1);
	cr_expect_eq(pmc_metrics__new(&o, &err, &m), 0);
	pmc_metrics__delete(m);
	unsetenv("PMC_METRICS_DIR");
	o.backend = "nope";
	cr_expect_eq(pmc_metrics__new(&o, &err, &m), -PMC_E_NOBACKEND);
}
