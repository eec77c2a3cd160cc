// SPDX-License-Identifier: MIT
/*
 * The shipped metric files (data/metrics, docs/metrics.md "Shipped files") are valid: each
 * index row names a file that loads for each backend it lists, every metric of it selects
 * (no cycles), every name in its formulas and thresholds is a metric or an event that pmc's
 * event parser reads for that backend, in every branch; every file has its row.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include <pmc/metric.h>
#include "backend/perf/perf.h"
#include "core/sysfile.h"
#include "metric/metric.h"

#define SHIPPED PMC_TEST_DATA "/../../data/metrics"

struct rows {
	char file[16][128], backends[16][64], model[16][64];
	int nr;
};

static int add_row(const char *file, const char *backends, const char *model, const char *source,
		   void *arg)
{
	struct rows *r = arg;

	cr_assert_lt(r->nr, 16);
	cr_expect_gt(strlen(source), 20, "%s: the source is cited", file);
	snprintf(r->file[r->nr], sizeof(r->file[0]), "%s", file);
	snprintf(r->backends[r->nr], sizeof(r->backends[0]), "%s", backends);
	snprintf(r->model[r->nr], sizeof(r->model[0]), "%s", model);
	r->nr++;
	return 0;
}

static void read_rows(struct rows *r)
{
	struct pmc_metric_error err;

	memset(r, 0, sizeof(*r));
	cr_assert_eq(pmc__metric_index_read(SHIPPED, add_row, r, &err), 0, "%s: %s", err.where,
		     err.parse.msg);
	cr_assert_gt(r->nr, 0);
}

/*
 * Every event (not metric) a tree names, in every branch, parses for the list's backend.
 * Returns the number of names, metrics included: 0 for a formula of constants.
 */
static int check_names(struct pmc_metrics *m, struct pmc_evlist *evlist, const char *metric,
		       const struct pmc__expr *e)
{
	struct pmc_parse_error perr;
	int nr = 0;

	if (!e)
		return 0;
	nr += e->kind == PMC_EXPR_ID && pmc_metrics__find(m, e->name);
	if ((e->kind == PMC_EXPR_ID && !pmc_metrics__find(m, e->name)) ||
	    e->kind == PMC_EXPR_SOURCE_COUNT) {
		if (!pmc__metric_tool_event(e->event))
			cr_expect_eq(pmc_evlist__parse(evlist, e->event, &perr), 0,
				     "%s: metric %s: '%s' is no metric, and as an event on %s: %s",
				     pmc_evlist__backend(evlist), metric, e->event,
				     pmc_evlist__backend(evlist), perr.msg);
		nr++;
	}
	for (int i = 0; i < 3; i++)
		nr += check_names(m, evlist, metric, e->kid[i]);
	return nr;
}

/*
 * The machine a row is for: a vpmu row for one model under that model (its event table); a
 * perf row for a real CPU with that CPU's core PMU, tests/data/sysfs/pmu-MODEL (its format
 * fields and topdown events as the kernel's arch/x86/events declare them).
 */
static void use_model(const struct rows *r, int row, const char *backend)
{
	char path[512];

	if (!strcmp(backend, "vpmu") && strcmp(r->model[row], "*"))
		setenv("PMC_VPMU_MODEL", r->model[row], 1);
	else
		unsetenv("PMC_VPMU_MODEL");
	if (!strcmp(backend, "perf") && strcmp(r->model[row], "*")) {
		snprintf(path, sizeof(path), "%s/sysfs/pmu-%s", PMC_TEST_DATA, r->model[row]);
		pmc__sysfs_set_root(path);
	} else {
		pmc__sysfs_set_root(NULL);
	}
}

static void check_file(const struct rows *r, int row, const char *backend)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .backend = backend, .no_shipped = true};
	struct pmc_evlist_opts eo = {.sz = sizeof(eo), .backend = backend};
	struct pmc_metric_error err;
	struct pmc_evlist *evlist;
	struct pmc_metrics *m;
	char path[512];
	size_t nr = 0;

	use_model(r, row, backend);
	cr_assert_eq(pmc_metrics__new(&o, &err, &m), 0);
	/* What the file sees loaded beside it: the files for every model of its backend. */
	for (int i = 0; i <= row; i++) {
		if (i != row && (strcmp(r->model[i], "*") || !strstr(r->backends[i], backend)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", SHIPPED, r->file[i]);
		cr_assert_eq(pmc_metrics__load(m, path, &err), 0, "%s: %s", err.where,
			     err.parse.msg);
	}
	cr_assert_eq(pmc_metrics__select(m, "all", &err), 0, "%s: %s", path, err.parse.msg);
	cr_assert_eq(pmc_evlist__new(&eo, &evlist), 0);
	for (size_t i = 0; i < pmc_metrics__nr(m); i++) {
		struct pmc_metric *metric = pmc_metrics__at(m, i);

		if (strcmp(pmc_metric__info(metric)->file, path))
			continue;
		nr++;
		cr_expect_gt(check_names(m, evlist, metric->info.name, metric->expr), 0,
			     "%s: a formula of constants", metric->info.name);
		check_names(m, evlist, metric->info.name, metric->threshold);
		if (metric->exact)
			cr_expect_gt(check_names(m, evlist, metric->info.name, metric->exact), 0,
				     "%s: an exact value of constants", metric->info.name);
		cr_expect_not_null(metric->info.brief, "%s has no BriefDescription",
				   metric->info.name);
	}
	cr_expect_gt(nr, 0, "%s holds no metric", path);
	pmc_evlist__delete(evlist);
	pmc_metrics__delete(m);
	pmc__sysfs_set_root(NULL);
}

/* check(rows, row, backend) for each row of index.tsv and each backend it lists. */
static void for_each_row_backend(void (*check)(const struct rows *, int, const char *))
{
	struct rows r;

	read_rows(&r);
	for (int i = 0; i < r.nr; i++) {
		char backends[64], *save = NULL;

		snprintf(backends, sizeof(backends), "%s", r.backends[i]);
		for (char *b = strtok_r(backends, ",", &save); b; b = strtok_r(NULL, ",", &save))
			check(&r, i, b);
	}
}

Test(metric_shipped, every_file_loads_and_resolves_for_its_backends)
{
	for_each_row_backend(check_file);
}

Test(metric_shipped, every_file_has_its_row)
{
	struct rows r;
	struct dirent *de;
	DIR *d = opendir(SHIPPED);

	read_rows(&r);
	cr_assert_not_null(d);
	while ((de = readdir(d))) {
		bool found = false;

		if (!strstr(de->d_name, ".json"))
			continue;
		for (int i = 0; i < r.nr; i++)
			found |= !strcmp(r.file[i], de->d_name);
		cr_expect(found, "data/metrics/%s has no row in index.tsv", de->d_name);
	}
	closedir(d);
}

/* The set pmc_metrics__new() makes holds exactly the rows of its backend. */
Test(metric_shipped, a_backends_set_holds_its_files)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .dir = SHIPPED, .backend = "vpmu"};
	struct pmc_metric_error err;
	struct pmc_metrics *m;

	cr_assert_eq(pmc_metrics__new(&o, &err, &m), 0, "%s: %s", err.where, err.parse.msg);
	cr_expect_not_null(pmc_metrics__find(m, "insn_per_cycle"));
	cr_expect_not_null(pmc_metrics__find(m, "cpus_utilized"));
	pmc_metrics__delete(m);
}

/* The vpmu set holds the file of the programming model it counts on, and not the other's. */
Test(metric_shipped, vpmu_sets_follow_the_model)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .dir = SHIPPED, .backend = "vpmu"};
	struct pmc_metric_error err;
	struct pmc_metrics *m;

	setenv("PMC_VPMU_MODEL", "corei7", 1);
	cr_assert_eq(pmc_metrics__new(&o, &err, &m), 0, "%s: %s", err.where, err.parse.msg);
	cr_expect_not_null(pmc_metrics__find(m, "tma_retiring"));
	cr_expect_not_null(pmc_metrics__find(m, "ca_counted_stall_cycles"));
	cr_expect_null(pmc_metrics__find(m, "p5_cpi"));
	cr_expect_not_null(pmc_metrics__find(m, "insn_per_cycle"), "and the generic file");
	pmc_metrics__delete(m);
	setenv("PMC_VPMU_MODEL", "pentium", 1);
	cr_assert_eq(pmc_metrics__new(&o, &err, &m), 0, "%s: %s", err.where, err.parse.msg);
	cr_expect_not_null(pmc_metrics__find(m, "p5_cpi"));
	cr_expect_null(pmc_metrics__find(m, "tma_retiring"));
	pmc_metrics__delete(m);
	unsetenv("PMC_VPMU_MODEL");
}

/* The perf backend names the CPU from CPUID as perf's mapfile.csv rows do; NULL: no model. */
Test(metric_shipped, real_cpus_by_cpuid)
{
	static const struct {
		const char *vendor;
		unsigned family, model;
		const char *want;
	} rows[] = {
		{"GenuineIntel", 6, 0x55, "intel-skylake"}, /* Skylake-X, Cascade Lake */
		{"GenuineIntel", 6, 0x9e, "intel-skylake"}, /* Kaby Lake, Coffee Lake */
		{"GenuineIntel", 6, 0x6a, "intel-icelake"}, /* Ice Lake-X */
		{"GenuineIntel", 6, 0x8d, "intel-icelake"}, /* Tiger Lake */
		{"GenuineIntel", 6, 0x2a, "intel-sandybridge"},
		{"GenuineIntel", 6, 0x3c, "intel-sandybridge"}, /* Haswell */
		{"GenuineIntel", 6, 0x4f, "intel-sandybridge"}, /* Broadwell-X */
		{"GenuineIntel", 6, 0x8f, "intel-sapphirerapids"},
		{"GenuineIntel", 6, 0x97, NULL},	    /* Alder Lake (hybrid): no file yet */
		{"GenuineIntel", 6, 0x1e, "intel-nehalem"}, /* no metric file: validate's events */
		{"GenuineIntel", 6, 0x2c, "intel-nehalem"}, /* Westmere-EP */
		{"AuthenticAMD", 0x19, 0x11, "amd-zen4"},   /* Genoa */
		{"AuthenticAMD", 0x19, 0x61, "amd-zen4"},   /* Raphael */
		{"AuthenticAMD", 0x19, 0x01, "amd-zen3"},   /* Milan: no metric file */
		{"AuthenticAMD", 0x19, 0x50, "amd-zen3"},   /* Cezanne */
		{"AuthenticAMD", 0x1a, 0x02, "amd-zen5"},
		{"AuthenticAMD", 0x17, 0x31, "amd-zen2"}, /* Rome: no metric file */
		{"AuthenticAMD", 0x17, 0x08, "amd-zen1"}, /* Pinnacle Ridge */
		{"HygonGenuine", 0x18, 0x00, NULL},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *got =
			pmc__perf_cpu_model_of(rows[i].vendor, rows[i].family, rows[i].model);

		if (rows[i].want)
			cr_expect(got && !strcmp(got, rows[i].want), "%s %#x %#x: %s",
				  rows[i].vendor, rows[i].family, rows[i].model,
				  got ? got : "NULL");
		else
			cr_expect_null(got, "%s %#x %#x: %s", rows[i].vendor, rows[i].family,
				       rows[i].model, got);
	}
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The built-in set of a backend and model equals the one read from data/metrics. */
static void check_builtin(const struct rows *r, int row, const char *backend)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .backend = backend};
	struct pmc_metric_error err;
	struct pmc_metrics *in, *folder;

	use_model(r, row, backend);
	unsetenv("PMC_METRICS_DIR");
	cr_assert_eq(pmc_metrics__new(&o, &err, &in), 0, "%s: %s", err.where, err.parse.msg);
	o.dir = SHIPPED;
	cr_assert_eq(pmc_metrics__new(&o, &err, &folder), 0, "%s: %s", err.where, err.parse.msg);
	cr_assert_eq(pmc_metrics__nr(in), pmc_metrics__nr(folder), "%s, %s", backend,
		     r->model[row]);
	for (size_t i = 0; i < pmc_metrics__nr(in); i++) {
		const struct pmc_metric_info *a = pmc_metric__info(pmc_metrics__at(in, i));
		const struct pmc_metric_info *b = pmc_metric__info(pmc_metrics__at(folder, i));
		const char *base = strrchr(b->file, '/');

		cr_expect_str_eq(a->name, b->name);
		cr_expect(same_str(a->expr, b->expr) && same_str(a->groups, b->groups) &&
				  same_str(a->brief, b->brief) && same_str(a->desc, b->desc) &&
				  a->scale == b->scale && same_str(a->unit, b->unit) &&
				  same_str(a->threshold, b->threshold) &&
				  same_str(a->constraint, b->constraint) &&
				  same_str(a->exact, b->exact),
			  "%s (%s, %s): the built-in definition differs from %s", a->name, backend,
			  r->model[row], b->file);
		cr_expect_str_eq(a->file, base ? base + 1 : b->file, "%s", a->name);
	}
	pmc_metrics__delete(in);
	pmc_metrics__delete(folder);
	pmc__sysfs_set_root(NULL);
	unsetenv("PMC_VPMU_MODEL");
}

/* libpmc's compiled-in copy is data/metrics as it is now (the build regenerates it). */
Test(metric_shipped, the_built_in_files_are_data_metrics)
{
	for_each_row_backend(check_builtin);
}
