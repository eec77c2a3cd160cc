// SPDX-License-Identifier: MIT
/*
 * Evaluating metrics (docs/metrics.md, "Evaluation"): n/a with the reason for a division by
 * zero or a value out of range, unavailable for a missing input, d_ratio, the branch an if
 * takes, references to metrics and their cycles, ScaleUnit, thresholds, the events listed.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <pmc/error.h>
#include <pmc/metric.h>

static const struct {
	const char *event;
	double value;
} counts[] = {
	{"instructions", 3000}, {"cycles", 1000},     {"zero", 0},
	{"big", 1e300},		{"nan", NAN},	      {"huge", 1e30},
	{"duration_time", 500}, {"task-clock", 1000},
};

static int input(const char *event, struct pmc_metric_input *in, char *why, size_t len, void *arg)
{
	int *calls = arg;

	if (calls)
		(*calls)++;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		if (!strcmp(counts[i].event, event)) {
			in->value = counts[i].value;
			return 0;
		}
	}
	if (!strcmp(event, "silent"))
		return -ENOENT; /* no reason given */
	snprintf(why, len, "which the backend lacks");
	return -PMC_E_UNSUPPORTED;
}

static struct pmc_metrics *set(void)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .no_shipped = true};
	struct pmc_metrics *m;

	cr_assert_eq(pmc_metrics__new(&o, NULL, &m), 0);
	return m;
}

static void define(struct pmc_metrics *m, const char *def)
{
	struct pmc_metric_error err;

	cr_assert_eq(pmc_metrics__define(m, def, &err), 0, "%s: %s", def, err.parse.msg);
}

static struct pmc_metric_value eval(struct pmc_metrics *m, const char *name)
{
	struct pmc_metric_eval_opts o = {.sz = sizeof(o), .input = input};
	struct pmc_metric_value v = {.sz = sizeof(v)};

	cr_assert_not_null(pmc_metrics__find(m, name), "%s", name);
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, name), &o, &v), 0);
	return v;
}

/* One expression: its status and the words its reason must hold. */
static void expect(const char *def, enum pmc_metric_status status, double value, const char *why)
{
	struct pmc_metrics *m = set();
	struct pmc_metric_value v;

	define(m, def);
	v = eval(m, "t");
	cr_expect_eq(v.status, status, "%s: status %d (%s)", def, v.status, v.why);
	if (status == PMC_METRIC_OK)
		cr_expect_eq(v.raw, value, "%s = %g", def, v.raw);
	else
		cr_expect(isnan(v.value), "%s: a value without one is NaN, not %g", def, v.value);
	cr_expect(strstr(v.why, why), "%s: '%s' lacks '%s'", def, v.why, why);
	pmc_metrics__delete(m);
}

Test(metric_eval, division_by_zero_is_na_with_the_divisor)
{
	expect("t = instructions / zero", PMC_METRIC_NA, 0,
	       "division by zero: 'zero' is 0 in 'instructions / zero'");
	expect("t = instructions / (cycles - 1000)", PMC_METRIC_NA, 0, "'(cycles - 1000)' is 0");
	expect("t = instructions % zero", PMC_METRIC_NA, 0, "division by zero");
	expect("t = 5 % 0.5", PMC_METRIC_NA, 0, "division by zero"); /* (long)0.5 is 0 */
	expect("t = 1 / 0", PMC_METRIC_NA, 0, "division by zero: '0' is 0 in '1 / 0'");
}

Test(metric_eval, d_ratio_is_zero_over_zero)
{
	expect("t = d_ratio(instructions, zero)", PMC_METRIC_OK, 0, "");
	expect("t = d_ratio(instructions, cycles)", PMC_METRIC_OK, 3, "");
	expect("t = d_ratio(zero, zero)", PMC_METRIC_OK, 0, "");
	expect("t = d_ratio(big, 1e-300)", PMC_METRIC_NA, 0, "out of range");
}

Test(metric_eval, values_out_of_range_are_na_never_inf)
{
	expect("t = big * big", PMC_METRIC_NA, 0, "'big * big' is out of range");
	expect("t = 1.5e308 + 1.5e308", PMC_METRIC_NA, 0, "'1.5e308 + 1.5e308' is out of range");
	expect("t = -big * big", PMC_METRIC_NA, 0, "out of range");
	expect("t = nan + 1", PMC_METRIC_NA, 0, "'nan' has no finite value");
	expect("t = huge | 1", PMC_METRIC_NA, 0, "out of the integer range in 'huge | 1'");
	expect("t = 1 & -huge", PMC_METRIC_NA, 0, "integer range");
	/* LONG_MIN % -1 overflows in C: 0 here. */
	expect("t = (0 - 9223372036854775808) % -1", PMC_METRIC_OK, 0, "");
	expect("t = 9223372036854775807 | 0", PMC_METRIC_NA, 0, "integer range"); /* 2^63 */
}

Test(metric_eval, missing_inputs_are_unavailable_with_the_reason)
{
	expect("t = instructions / ref\\-cycles", PMC_METRIC_UNAVAILABLE, 0,
	       "needs 'ref-cycles', which the backend lacks");
	expect("t = silent + 1", PMC_METRIC_UNAVAILABLE, 0,
	       "needs 'silent', which was not counted");
	/* The first fault is the one reported. */
	expect("t = cycles / zero + ref\\-cycles", PMC_METRIC_NA, 0, "division by zero");
}

Test(metric_eval, if_evaluates_the_branch_taken_only)
{
	expect("t = instructions / zero if zero > 0 else 0", PMC_METRIC_OK, 0, "");
	expect("t = 7 if cycles > 0 else ref\\-cycles", PMC_METRIC_OK, 7, "");
	expect("t = 1 if ref\\-cycles else 2", PMC_METRIC_UNAVAILABLE, 0, "ref-cycles");
	expect("t = 1 if 1 / zero else 2", PMC_METRIC_NA, 0, "division by zero");
}

Test(metric_eval, min_max_compare_and_bits)
{
	expect("t = min(instructions, cycles)", PMC_METRIC_OK, 1000, "");
	expect("t = max(instructions, cycles)", PMC_METRIC_OK, 3000, "");
	expect("t = min(instructions, ref\\-cycles)", PMC_METRIC_UNAVAILABLE, 0, "ref-cycles");
	expect("t = instructions > cycles", PMC_METRIC_OK, 1, "");
	expect("t = instructions < cycles", PMC_METRIC_OK, 0, "");
	expect("t = (instructions | 5) ^ (cycles & 1023)", PMC_METRIC_OK,
	       (3000 | 5) ^ (1000 & 1023), "");
	expect("t = -instructions", PMC_METRIC_OK, -3000, "");
}

Test(metric_eval, references_to_metrics)
{
	struct pmc_metrics *m = set();
	struct pmc_metric_value v;

	define(m, "ipc = instructions / cycles");
	define(m, "twice = 2 * IPC");		 /* names compare without case */
	define(m, "deeper = twice + ipc + ipc"); /* shared references */
	define(m, "bad = instructions / zero");
	define(m, "uses_bad = 1 + bad");
	v = eval(m, "deeper");
	cr_expect_eq(v.status, PMC_METRIC_OK);
	cr_expect_eq(v.raw, 12);
	v = eval(m, "uses_bad");
	cr_expect_eq(v.status, PMC_METRIC_NA);
	cr_expect_str_eq(v.why,
			 "in metric 'bad': division by zero: 'zero' is 0 in 'instructions / zero'");
	/* A definition replaces the metric of its name: references follow. */
	define(m, "ipc = 5");
	v = eval(m, "deeper");
	cr_expect_eq(v.raw, 20);
	pmc_metrics__delete(m);
}

/* A metric file of text, loaded into m. */
static void load_text(struct pmc_metrics *m, const char *text)
{
	struct pmc_metric_error err;
	char path[] = "/tmp/pmc-metric-eval-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	cr_assert_eq(pmc_metrics__load(m, path, &err), 0, "%s", err.parse.msg);
	unlink(path);
}

static int count_event(const struct pmc_metric_event *ev, void *arg)
{
	(void)ev;
	(*(int *)arg)++;
	return 0;
}

/*
 * A metric that many paths reach is evaluated and walked once: 30 levels, each the one before
 * twice (2^29 paths), take 30 evaluations and one input; before, minutes (docs/security.md).
 */
Test(metric_eval, shared_references_are_evaluated_once, .timeout = 30)
{
	struct pmc_metric_eval_opts o = {.sz = sizeof(o), .input = input};
	struct pmc_metric_value v = {.sz = sizeof(v)};
	struct pmc_metrics *m = set();
	struct pmc_metric_error err;
	char def[64];
	int calls = 0, events = 0;

	define(m, "l0 = cycles");
	for (int i = 1; i < 30; i++) {
		snprintf(def, sizeof(def), "l%d = l%d + l%d", i, i - 1, i - 1);
		define(m, def);
	}
	o.arg = &calls;
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "l29"), &o, &v), 0);
	cr_expect_eq(v.status, PMC_METRIC_OK, "%s", v.why);
	cr_expect_eq(v.raw, 1000 * (double)(1 << 29));
	cr_expect_eq(calls, 1, "the input asked once, not %d times", calls);
	cr_assert_eq(pmc_metrics__select(m, "l29", &err), 0, "%s", err.parse.msg);
	cr_expect_eq(pmc_metrics__for_each_event(m, count_event, &events), 0);
	cr_expect_eq(events, 1);
	pmc_metrics__delete(m);
}

/*
 * The depth bound stays exact: c20 (21 metrics deep) fits from top directly (depth 1), and
 * was evaluated there first, but not through z10 ... z0 (depth 12): n/a, as without the memo.
 */
Test(metric_eval, a_remembered_metric_keeps_the_depth_bound)
{
	struct pmc_metrics *m = set();
	struct pmc_metric_value v;
	char text[4096];
	size_t n = 0;

	n += (size_t)snprintf(text + n, sizeof(text) - n,
			      "[{\"MetricName\": \"c0\", \"MetricExpr\": \"cycles\"}");
	for (int i = 1; i <= 20; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      ", {\"MetricName\": \"c%d\", \"MetricExpr\": \"c%d + 1\"}", i,
				      i - 1);
	n += (size_t)snprintf(text + n, sizeof(text) - n,
			      ", {\"MetricName\": \"z0\", \"MetricExpr\": \"c20\"}");
	for (int i = 1; i <= 10; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      ", {\"MetricName\": \"z%d\", \"MetricExpr\": \"z%d\"}", i,
				      i - 1);
	snprintf(text + n, sizeof(text) - n,
		 ", {\"MetricName\": \"top\", \"MetricExpr\": \"c20 + z10\"},"
		 " {\"MetricName\": \"fits\", \"MetricExpr\": \"c20 + z5\"}]");
	load_text(m, text);
	v = eval(m, "top");
	cr_expect_eq(v.status, PMC_METRIC_NA);
	cr_expect(strstr(v.why, "deeper than 32"), "%s", v.why);
	v = eval(m, "fits");
	cr_expect_eq(v.status, PMC_METRIC_OK, "%s", v.why);
	cr_expect_eq(v.raw, 2 * 1020.0);
	pmc_metrics__delete(m);
}

Test(metric_eval, cycles_are_refused_with_the_cycle_named)
{
	struct pmc_metrics *m = set();
	struct pmc_metric_error err;
	char path[] = "/tmp/pmc-metric-cycle-XXXXXX";
	int fd = mkstemp(path);
	const char *file = "[{\"MetricName\": \"a\", \"MetricExpr\": \"b + 1\"},"
			   " {\"MetricName\": \"b\", \"MetricExpr\": \"2 * c\"},"
			   " {\"MetricName\": \"c\", \"MetricExpr\": \"A / 2\"},"
			   " {\"MetricName\": \"d\", \"MetricExpr\": \"cycles\"}]";
	struct pmc_metric_value v;

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, file, strlen(file)), (ssize_t)strlen(file));
	close(fd);
	cr_assert_eq(pmc_metrics__load(m, path, &err), 0, "%s", err.parse.msg);
	unlink(path);
	cr_expect_eq(pmc_metrics__select(m, "d,b", &err), -PMC_E_METRIC_CYCLE);
	cr_expect_str_eq(err.parse.msg, "metrics refer to each other in a cycle: b -> c -> a -> b");
	cr_expect_eq(pmc_metrics__nr_selected(m), 0, "a failed selection selects nothing");
	cr_expect_eq(pmc_metrics__for_each_event(m, NULL, NULL), 0);
	/* Evaluated anyway, it is n/a, not a stack overflow. */
	v = eval(m, "a");
	cr_expect_eq(v.status, PMC_METRIC_NA);
	cr_expect(strstr(v.why, "refers to itself"), "%s", v.why);
	/* A definition that would close a cycle is refused, and the set is as it was. */
	cr_expect_eq(pmc_metrics__define(m, "d = d + 1", &err), -PMC_E_METRIC_CYCLE);
	cr_expect_str_eq(err.parse.msg, "metrics refer to each other in a cycle: d -> d");
	cr_expect_str_eq(pmc_metric__info(pmc_metrics__find(m, "d"))->expr, "cycles");
	cr_expect_eq(pmc_metrics__select(m, "d", &err), 0);
	pmc_metrics__delete(m);
}

Test(metric_eval, scale_unit_and_threshold)
{
	struct pmc_metrics *m = set();
	struct pmc_metric_eval_opts o = {.sz = sizeof(o), .input = input};
	struct pmc_metric_value v = {.sz = sizeof(v)};
	char path[] = "/tmp/pmc-metric-scale-XXXXXX";
	int fd = mkstemp(path);
	const char *file = "[{\"MetricName\": \"ratio\", \"MetricExpr\": \"cycles / instructions\","
			   "  \"ScaleUnit\": \"100%\", \"MetricThreshold\": \"ratio > 0.3\"},"
			   " {\"MetricName\": \"low\", \"MetricExpr\": \"cycles / instructions\","
			   "  \"ScaleUnit\": \"1per_instr\", \"MetricThreshold\": \"low > 0.5 & "
			   "ratio > 0.3\"},"
			   " {\"MetricName\": \"nothr\", \"MetricExpr\": \"cycles\", "
			   "\"ScaleUnit\": \"6.1e-5MiB\","
			   "  \"MetricThreshold\": \"nothr / zero > 1\"},"
			   " {\"MetricName\": \"huge_scale\", \"MetricExpr\": \"big\", "
			   "\"ScaleUnit\": \"1e300x\"}]";

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, file, strlen(file)), (ssize_t)strlen(file));
	close(fd);
	cr_assert_eq(pmc_metrics__load(m, path, NULL), 0);
	unlink(path);
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "ratio"), &o, &v), 0);
	cr_expect_eq(v.status, PMC_METRIC_OK);
	cr_expect_float_eq(v.value, 100.0 / 3, 1e-9);
	cr_expect_float_eq(v.raw, 1.0 / 3, 1e-12);
	cr_expect_str_eq(v.unit, "%");
	cr_expect_eq(v.flagged, 1, "the threshold reads the unscaled value");
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "low"), &o, &v), 0);
	cr_expect_str_eq(v.unit, "per_instr");
	cr_expect_eq(v.flagged, 0);
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "nothr"), &o, &v), 0);
	cr_expect_eq(v.status, PMC_METRIC_OK);
	cr_expect_float_eq(v.value, 1000 * 6.1e-5, 1e-12);
	cr_expect_str_eq(v.unit, "MiB");
	cr_expect_eq(v.flagged, -1, "a threshold without a value has no verdict");
	cr_expect_str_eq(v.why, "", "nor does it make the metric's value n/a");
	/* Shown beside the value: each number a metric is compared with, in that metric's unit. */
	{
		char buf[128], tiny[8];

		cr_expect_eq(pmc_metric__threshold_shown(pmc_metrics__find(m, "ratio"), buf,
							 sizeof(buf)),
			     0);
		cr_expect_str_eq(buf, "ratio > 30 %");
		cr_expect_eq(
			pmc_metric__threshold_shown(pmc_metrics__find(m, "low"), buf, sizeof(buf)),
			0);
		cr_expect_str_eq(buf, "low > 0.5 per_instr & ratio > 30 %");
		cr_expect_eq(pmc_metric__threshold_shown(pmc_metrics__find(m, "nothr"), buf,
							 sizeof(buf)),
			     0);
		cr_expect_str_eq(buf, "nothr / zero > 1", "a number not set against a metric");
		cr_expect_eq(pmc_metric__threshold_shown(pmc_metrics__find(m, "huge_scale"), buf,
							 sizeof(buf)),
			     0);
		cr_expect_str_eq(buf, "", "no threshold");
		cr_expect_eq(pmc_metric__threshold_shown(pmc_metrics__find(m, "ratio"), tiny,
							 sizeof(tiny)),
			     -ENOSPC);
		cr_expect_eq(pmc_metric__threshold_shown(NULL, buf, sizeof(buf)), -EINVAL);
	}
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "huge_scale"), &o, &v), 0);
	cr_expect_eq(v.status, PMC_METRIC_NA);
	cr_expect(strstr(v.why, "out of range"), "%s", v.why);
	pmc_metrics__delete(m);
}

Test(metric_eval, value_struct_and_options_are_checked)
{
	struct pmc_metrics *m = set();
	struct pmc_metric_eval_opts o = {.sz = sizeof(o), .input = input};
	struct pmc_metric_eval_opts none = {.sz = sizeof(none)};
	struct pmc_metric_value v = {.sz = sizeof(v)}, small = {.sz = 8};

	define(m, "t = cycles");
	cr_expect_eq(pmc_metric__eval(pmc_metrics__find(m, "t"), &none, &v), -EINVAL);
	cr_expect_eq(pmc_metric__eval(pmc_metrics__find(m, "t"), NULL, &v), -EINVAL);
	cr_expect_eq(pmc_metric__eval(pmc_metrics__find(m, "t"), &o, &small), -EINVAL);
	cr_expect_eq(pmc_metric__eval(pmc_metrics__find(m, "t"), &o, &v), 0);
	cr_expect_eq(v.raw, 1000);
	cr_expect_eq(v.sz, sizeof(v));
	pmc_metrics__delete(m);
}

Test(metric_eval, source_count_and_literal_overrides)
{
	struct pmc_metrics *m = set();
	struct pmc_metric_value v;

	define(m, "t = source_count(cycles)");
	v = eval(m, "t");
	cr_expect_eq(v.raw, 1, "nr_sources 0 means 1");
	define(m, "s = #slots * cycles");
	v = eval(m, "s");
	cr_expect_eq(v.raw, 4000, "#slots is 4 where the backend declares no width");
	pmc_metrics__delete(m);
}

static int count_events(const struct pmc_metric_event *ev, void *arg)
{
	char *out = arg;

	strcat(out, ev->event);
	strcat(out, ev->tool ? "(tool) " : " ");
	return 0;
}

Test(metric_eval, events_each_once_through_references_and_thresholds)
{
	struct pmc_metrics *m = set();
	char seen[512] = "";

	define(m, "ipc = instructions / cycles");
	define(m, "u = task\\-clock / duration_time + ipc");
	define(m, "v = cpu@event\\=0x3c@ + cycles");
	cr_assert_eq(pmc_metrics__for_each_event(m, count_events, seen), 0);
	cr_expect_str_eq(seen,
			 "instructions cycles task-clock duration_time(tool) cpu/event=0x3c/ ");
	seen[0] = 0;
	cr_assert_eq(pmc_metric__for_each_event(pmc_metrics__find(m, "u"), count_events, seen), 0);
	cr_expect_str_eq(seen, "task-clock duration_time(tool) instructions cycles ");
	pmc_metrics__delete(m);
}

static int stop_at_second(const struct pmc_metric_event *ev, void *arg)
{
	int *n = arg;

	(void)ev;
	return ++*n == 2 ? 42 : 0;
}

Test(metric_eval, events_walk_stops_on_request)
{
	struct pmc_metrics *m = set();
	int n = 0;

	define(m, "t = a + b + c");
	cr_expect_eq(pmc_metrics__for_each_event(m, stop_at_second, &n), 42);
	cr_expect_eq(n, 2);
	pmc_metrics__delete(m);
}

/* Another machine's literals: the callback's value, else this machine's. */
static int other_machine(const char *name, double *value, void *arg)
{
	(void)arg;
	if (!strcmp(name, "#smt_on"))
		*value = 3;
	else if (!strcmp(name, "#num_cores"))
		*value = NAN;
	else
		return -ENOENT;
	return 0;
}

Test(metric_eval, literals_of_another_machine)
{
	struct pmc_metrics *m = set();
	struct pmc_metric_eval_opts o = {.sz = sizeof(o), .input = input, .literal = other_machine};
	struct pmc_metric_value v = {.sz = sizeof(v)};

	define(m, "a = #SMT_on * 2 + #slots");
	define(m, "b = #num_cores");
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "a"), &o, &v), 0);
	cr_expect_eq(v.status, PMC_METRIC_OK, "%s", v.why);
	cr_expect_eq(v.raw, 3 * 2 + 4);
	cr_assert_eq(pmc_metric__eval(pmc_metrics__find(m, "b"), &o, &v), 0);
	cr_expect_eq(v.status, PMC_METRIC_NA);
	cr_expect_str_eq(v.why, "#num_cores has no finite value");
	pmc_metrics__delete(m);
}
