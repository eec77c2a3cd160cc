// SPDX-License-Identifier: MIT
/*
 * The shipped vpmu Core i7 metrics on workloads whose answer is known (tests/progs/
 * metric-work.c), counted under vpmu through libpmc and evaluated by the engine: a pointer
 * chase over 64 MiB is back-end bound, unpredictable branches are bad speculation, independent
 * adds retire; level 1 sums to 100 %; cycles = active + stall at issue, execution and
 * retirement; the decomposition plus the unaccounted rest is the stall cycles; the formulas'
 * estimates beside the model's exact attribution (docs/metrics.md, "Ground truth"); the Pentium
 * model's clocks per instruction and flush rate.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <pmc/caps.h>
#include <pmc/count.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include <pmc/metric.h>

#define SHIPPED PMC_TEST_DATA "/../../data/metrics"
#define MAX_EVENTS 96

/* The events the selected metrics need, counted in one run of the workload per pass. */
struct counts {
	struct pmc_evlist *l;
	const char *name[MAX_EVENTS]; /* owned by the walk's strings: copied */
	size_t idx[MAX_EVENTS];	      /* in l */
	uint64_t value[MAX_EVENTS];
	char why[MAX_EVENTS][160]; /* the backend's reason for an event it cannot count, or "" */
	size_t nr;
};

static int add_event(const struct pmc_metric_event *ev, void *arg)
{
	struct counts *c = arg;
	struct pmc_parse_error perr;

	cr_assert(!ev->tool, "%s: the shipped vpmu metrics need no wall time", ev->event);
	cr_assert_lt(c->nr, MAX_EVENTS);
	c->idx[c->nr] = pmc_evlist__nr(c->l);
	cr_assert_eq(pmc_evlist__parse(c->l, ev->event, &perr), 0, "%s: %s", ev->event, perr.msg);
	pmc_evsel__check(pmc_evlist__at(c->l, c->idx[c->nr]), c->why[c->nr], sizeof(c->why[0]));
	c->name[c->nr++] = strdup(ev->event);
	return 0;
}

static void run(struct counts *c, const char *mode, const char *n)
{
	char prog[512];
	char *argv[] = {prog, (char *)mode, (char *)n, NULL};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	int passes, status;

	snprintf(prog, sizeof(prog), "%s/metric-work", PMC_PROGS_DIR);
	cr_assert_eq(pmc_evlist__plan(c->l, false, &passes), 0);
	for (int p = 0; p < passes; p++) {
		cr_assert_eq(pmc_evlist__open(c->l, &t, p), 0);
		cr_assert_eq(pmc_evlist__start(c->l), 0);
		cr_assert_eq(pmc_evlist__wait(c->l, &status), 0);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "metric-work %s", mode);
		cr_assert_eq(pmc_evlist__read(c->l), 0);
		for (size_t i = 0; i < c->nr; i++) {
			struct pmc_evsel *e = pmc_evlist__at(c->l, c->idx[i]);
			struct pmc_count cnt;

			if (pmc_evsel__pass(e) != p)
				continue;
			cr_assert_eq(pmc_evsel__count(e, &cnt), 0, "%s", c->name[i]);
			c->value[i] = cnt.value;
		}
		pmc_evlist__close(c->l);
	}
}

static int input(const char *event, struct pmc_metric_input *in, char *why, size_t len, void *arg)
{
	struct counts *c = arg;

	for (size_t i = 0; i < c->nr; i++) {
		if (strcmp(c->name[i], event))
			continue;
		if (c->why[i][0]) {
			snprintf(why, len, "%s", c->why[i]);
			return -PMC_E_UNSUPPORTED;
		}
		in->value = (double)c->value[i];
		return 0;
	}
	snprintf(why, len, "which the test did not count");
	return -ENOENT;
}

struct work {
	struct pmc_metrics *m;
	struct counts c;
};

/* Counts what the selection of the shipped metrics of a vpmu model needs on metric-work. */
static void measure_on(struct work *w, const char *model, const char *select, const char *mode,
		       const char *n)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .dir = SHIPPED, .backend = "vpmu"};
	struct pmc_evlist_opts eo = {.sz = sizeof(eo), .backend = "vpmu"};
	struct pmc_metric_error err;

	setenv("PMC_VPMU_MODEL", model, 1);
	if (!pmc_caps__backend(pmc_caps(), "vpmu")->usable)
		cr_skip_test("vpmu tool not available: %s",
			     pmc_caps__backend(pmc_caps(), "vpmu")->why);
	memset(w, 0, sizeof(*w));
	cr_assert_eq(pmc_metrics__new(&o, &err, &w->m), 0, "%s: %s", err.where, err.parse.msg);
	cr_assert_eq(pmc_metrics__select(w->m, select, &err), 0, "%s", err.parse.msg);
	cr_assert_eq(pmc_evlist__new(&eo, &w->c.l), 0);
	cr_assert_eq(pmc_metrics__for_each_event(w->m, add_event, &w->c), 0);
	run(&w->c, mode, n);
}

static void measure(struct work *w, const char *select, const char *mode, const char *n)
{
	measure_on(w, "corei7", select, mode, n);
}

static void done(struct work *w)
{
	for (size_t i = 0; i < w->c.nr; i++)
		free((char *)w->c.name[i]);
	pmc_evlist__delete(w->c.l);
	pmc_metrics__delete(w->m);
}

/* The metric's value (ScaleUnit applied): its formula's, or with exact its exact value. */
static double get(struct work *w, const char *name, bool exact)
{
	struct pmc_metric_eval_opts o = {
		.sz = sizeof(o), .input = input, .arg = &w->c, .exact = exact};
	struct pmc_metric_value v = {.sz = sizeof(v)};
	struct pmc_metric *metric = pmc_metrics__find(w->m, name);

	cr_assert_not_null(metric, "%s", name);
	cr_assert_eq(pmc_metric__eval(metric, &o, &v), 0);
	cr_assert_eq(v.status, PMC_METRIC_OK, "%s%s: %s", name, exact ? " (exact)" : "", v.why);
	return v.value;
}

static const char *const level1[] = {"tma_frontend_bound", "tma_bad_speculation",
				     "tma_backend_bound", "tma_retiring"};

/*
 * Level 1 sums to 100 % and, with the model's issue width, each formula gives the model's
 * exact share: the level-1 events are defined from the causes the model attributes.
 */
static void check_level1(struct work *w)
{
	double sum = 0;

	for (int i = 0; i < 4; i++) {
		double est = get(w, level1[i], false), ex = get(w, level1[i], true);

		cr_expect(est >= 0 && est <= 100, "%s = %g %%", level1[i], est);
		cr_expect_float_eq(est, ex, 1e-9, "%s: formula %g %%, model %g %%", level1[i], est,
				   ex);
		sum += est;
	}
	cr_expect_float_eq(sum, 100, 1, "level 1 sums to %g %%", sum);
}

Test(metric_vpmu, pointer_chase_is_backend_bound, .timeout = 240)
{
	static const char *const views[] = {"issue", "execute", "retire"};
	struct work w;
	double stall, counted, rest;
	char name[64];

	measure(&w, "TopdownL1,cycle_accounting", "chase", "0");
	cr_expect_gt(get(&w, "tma_backend_bound", false), 50);
	check_level1(&w);
	/* cycles = active + stall, exactly, at each of the three points. */
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "ca_%s_cycles_rest", views[i]);
		cr_expect_eq(get(&w, name, false), 0, "%s", name);
		snprintf(name, sizeof(name), "ca_%s_stall_cycles", views[i]);
		cr_expect_eq(get(&w, name, false), get(&w, name, true), "%s: every penalty cycle",
			     name);
	}
	/* The decomposition plus the unaccounted rest is the execution stall cycles, exactly. */
	stall = get(&w, "ca_execute_stall_cycles", false);
	counted = get(&w, "ca_counted_stall_cycles", false);
	rest = get(&w, "ca_unaccounted_stall_cycles", false);
	cr_expect_eq(counted + rest, stall, "%.0f + %.0f != %.0f", counted, rest, stall);
	cr_expect_gt(stall, 64e6, "a miss of 196 cycles or more for each of the 1 Mi lines");
	/* The model attributes every stall cycle: its unaccounted rest is 0. */
	cr_expect_eq(get(&w, "ca_unaccounted_stall_cycles", true), 0);
	cr_expect_eq(get(&w, "ca_counted_stall_cycles", true), stall);
	/* The load penalties of the decomposition are the model's: within 1 % here. */
	cr_expect_float_eq(get(&w, "ca_stall_loads", false), get(&w, "ca_stall_loads", true),
			   get(&w, "ca_stall_loads", true) / 100,
			   "loads: %.0f estimated, %.0f exact", get(&w, "ca_stall_loads", false),
			   get(&w, "ca_stall_loads", true));
	/* Branches and divides cost a fixed penalty each: their terms are exact. */
	cr_expect_eq(get(&w, "ca_stall_branch_misp", false), get(&w, "ca_stall_branch_misp", true));
	cr_expect_eq(get(&w, "ca_stall_divides", false), get(&w, "ca_stall_divides", true));
	done(&w);
}

Test(metric_vpmu, unpredictable_branches_are_bad_speculation, .timeout = 120)
{
	struct work w;

	measure(&w, "TopdownL1", "branches", "200000");
	cr_expect_gt(get(&w, "tma_bad_speculation", false), 30);
	check_level1(&w);
	done(&w);
}

Test(metric_vpmu, independent_adds_retire, .timeout = 120)
{
	struct work w;

	measure(&w, "TopdownL1", "alu", "1000000");
	cr_expect_gt(get(&w, "tma_retiring", false), 60);
	check_level1(&w);
	done(&w);
}

/*
 * The Pentium model's file: independent adds run at about one clock each; the random branch
 * of every other branch is mispredicted half the time, so a quarter of all branches flush.
 */
Test(metric_vpmu, pentium_cpi_and_flush_rate, .timeout = 120)
{
	struct work w;

	measure_on(&w, "pentium", "p5_cpi,p5_pipeline_flush_rate", "alu", "1000000");
	cr_expect_lt(get(&w, "p5_cpi", false), 1.1);
	cr_expect_geq(get(&w, "p5_cpi", false), 1);
	done(&w);
	measure_on(&w, "pentium", "p5_cpi,p5_pipeline_flush_rate", "branches", "200000");
	cr_expect_gt(get(&w, "p5_pipeline_flush_rate", false), 20);
	cr_expect_lt(get(&w, "p5_pipeline_flush_rate", false), 30);
	done(&w);
}

/*
 * Every metric of the Core i7 file has a value on a short run, but those that need an event
 * the model lacks (the guide's rows it cannot count): they are unavailable, with the model's
 * reason for that event.
 */
Test(metric_vpmu, every_corei7_metric_has_a_value_or_the_models_reason, .timeout = 240)
{
	struct pmc_metric_eval_opts o = {.sz = sizeof(o), .input = input};
	size_t nr_ok = 0, nr_lacking = 0, nr_file = 0;
	struct work w;

	measure(&w,
		"cycle_accounting,TopdownL1,General_Exploration,Branch_Analysis,Cycles_and_Uops,"
		"Memory_Access,FE_Investigation,Working_Set",
		"alu", "1000");
	o.arg = &w.c;
	for (size_t i = 0; i < pmc_metrics__nr_selected(w.m); i++) {
		struct pmc_metric *metric = pmc_metrics__selected(w.m, i);
		struct pmc_metric_value v = {.sz = sizeof(v)};

		cr_assert_eq(pmc_metric__eval(metric, &o, &v), 0);
		if (v.status == PMC_METRIC_OK) {
			nr_ok++;
			continue;
		}
		cr_expect_eq(v.status, PMC_METRIC_UNAVAILABLE, "%s: %s",
			     pmc_metric__info(metric)->name, v.why);
		cr_expect(strstr(v.why, "the model has no") || strstr(v.why, "single-"), "%s: %s",
			  pmc_metric__info(metric)->name, v.why);
		nr_lacking++;
	}
	for (size_t i = 0; i < pmc_metrics__nr(w.m); i++) {
		const char *file = pmc_metric__info(pmc_metrics__at(w.m, i))->file;

		nr_file += file && strstr(file, "/vpmu-corei7.json");
	}
	cr_expect_eq(nr_ok + nr_lacking, nr_file, "the groups select every metric of the file");
	cr_expect_gt(nr_ok, 60, "%zu metrics with a value", nr_ok);
	cr_expect_gt(nr_lacking, 5, "%zu metrics unavailable", nr_lacking);
	done(&w);
}
