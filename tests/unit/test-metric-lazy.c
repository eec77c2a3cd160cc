// SPDX-License-Identifier: MIT
/*
 * The shipped files parsed as a selection needs them (lib/metric/shipped.c, scan.c): a
 * selection parses only its entries and those they refer to, and the set then reads as if
 * every file had been parsed first: the same metrics in the same order, the user's winning.
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
#include "metric/metric.h"

#define SHIPPED PMC_TEST_DATA "/../../data/metrics"

/* The shipped set read from data/metrics (dir SHIPPED), or built in (dir NULL). */
static struct pmc_metrics *shipped_from(const char *backend, const char *dir)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .dir = dir, .backend = backend};
	struct pmc_metric_error err = {0};
	struct pmc_metrics *m;

	cr_assert_eq(pmc_metrics__new(&o, &err, &m), 0, "%s", err.parse.msg);
	return m;
}

/* Whether the set has parsed the metric of that name (without parsing more). */
static bool parsed(const struct pmc_metrics *m, const char *name)
{
	for (size_t i = 0; i < m->nr; i++)
		if (!strcmp(m->metrics[i]->info.name, name))
			return true;
	return false;
}

/* The names of the whole set, in order, ";"-joined into buf. */
static char *names(struct pmc_metrics *m, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < pmc_metrics__nr(m) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s;",
				      pmc_metric__info(pmc_metrics__at(m, i))->name);
	return buf;
}

static void a_selection_parses_only_what_it_needs(const char *dir)
{
	struct pmc_metrics *m = shipped_from("vpmu", dir);
	struct pmc_metric_error err = {0};

	cr_expect_eq(m->nr, 0, "nothing parsed before it is needed");
	cr_assert_eq(pmc_metrics__select(m, "cpus_utilized", &err), 0, "%s", err.parse.msg);
	cr_expect_eq(m->nr, 1, "one entry for a metric that refers to none");
	cr_assert_eq(pmc_metrics__select(m, "Summary", &err), 0, "%s", err.parse.msg);
	cr_expect_lt(m->nr, 12, "a group's entries (%zu), not the %s files", m->nr, "vpmu");
	pmc_metrics__delete(m);
}
Test(metric_lazy, a_selection_parses_only_what_it_needs)
{
	a_selection_parses_only_what_it_needs(SHIPPED);
}

Test(metric_lazy, a_selection_parses_only_what_it_needs_built_in)
{
	a_selection_parses_only_what_it_needs(NULL);
}

/* Entries parsed in any order read as the eager order: the file's rows, then the entries. */
static void the_order_is_the_files_whatever_was_parsed_first(const char *dir)
{
	static char eager[16384], lazy[16384];
	struct pmc_metrics *a = shipped_from("vpmu", dir), *b = shipped_from("vpmu", dir);
	struct pmc_metric_error err = {0};

	names(a, eager, sizeof(eager));
	cr_assert_eq(pmc_metrics__select(b, "TopdownL1,insn_per_cycle,cycle_accounting", &err), 0,
		     "%s", err.parse.msg);
	cr_expect_str_eq(names(b, lazy, sizeof(lazy)), eager);
	cr_expect_gt(strlen(eager), 1000, "every file's metrics");
	pmc_metrics__delete(a);
	pmc_metrics__delete(b);
}
Test(metric_lazy, the_order_is_the_files_whatever_was_parsed_first)
{
	the_order_is_the_files_whatever_was_parsed_first(SHIPPED);
}

Test(metric_lazy, the_order_is_the_files_whatever_was_parsed_first_built_in)
{
	the_order_is_the_files_whatever_was_parsed_first(NULL);
}

/* A referenced metric is parsed with the one that refers to it; the user's name wins. */
static void references_and_the_users_names(const char *dir)
{
	struct pmc_metrics *m = shipped_from("perf", dir);
	struct pmc_metric_error err = {0};
	const struct pmc_metric *ipc;

	cr_assert_eq(pmc_metrics__define(m, "insn_per_cycle = 42 + instructions", &err), 0, "%s",
		     err.parse.msg);
	cr_assert_eq(pmc_metrics__define(m, "twice = 2 * cycles_per_insn", &err), 0, "%s",
		     err.parse.msg);
	cr_expect(parsed(m, "cycles_per_insn"), "the shipped metric it refers to was parsed");
	cr_expect(!parsed(m, "branch_miss_rate"), "not the others");
	/* The shipped insn_per_cycle parsed now does not replace the user's. */
	cr_assert_eq(pmc_metrics__select(m, "Summary", &err), 0, "%s", err.parse.msg);
	ipc = pmc_metrics__find(m, "insn_per_cycle");
	cr_expect_str_eq(pmc_metric__info(ipc)->expr, " 42 + instructions");
	cr_expect_null(pmc_metric__info(ipc)->file, "the user's definition");
	pmc_metrics__delete(m);
}
Test(metric_lazy, references_and_the_users_names)
{
	references_and_the_users_names(SHIPPED);
}

Test(metric_lazy, references_and_the_users_names_built_in)
{
	references_and_the_users_names(NULL);
}

/* A shipped file the scan cannot split is parsed whole at once, which says what is wrong. */
Test(metric_lazy, a_broken_file_is_said_at_once)
{
	char dir[] = "/tmp/pmc-metric-lazy-XXXXXX", path[128];
	struct pmc_metrics_opts o = {.sz = sizeof(o), .dir = dir};
	struct pmc_metric_error err = {0};
	struct pmc_metrics *m;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fprintf(f, "bad.json\tperf\t*\ta test\n");
	fclose(f);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fprintf(f, "[{\"MetricName\": \"a\", \"MetricExpr\": \"1\"},");
	fclose(f);
	cr_expect_eq(pmc_metrics__new(&o, &err, &m), -PMC_E_FORMAT);
	cr_expect(strstr(err.where, "bad.json"), "%s", err.where);
	unlink(path);
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	unlink(path);
	rmdir(dir);
}

/* Writes text to dir/name. */
static void put_file(const char *dir, const char *name, const char *text)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

static void remove_files(const char *dir, const char *const *names, size_t nr)
{
	char path[160];

	for (size_t i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * Names and groups are matched where they lie in the file's text, without regard to case;
 * an entry whose name the scan cannot read plainly (an escape) is parsed on any need; an
 * index whose last row has no line break is read whole.
 */
Test(metric_lazy, names_and_groups_in_the_text)
{
	static const char *const files[] = {"index.tsv", "t.json"};
	char dir[] = "/tmp/pmc-metric-lazy-XXXXXX";
	struct pmc_metrics_opts o = {.sz = sizeof(o), .dir = dir};
	struct pmc_metric_error err = {0};
	struct pmc_metrics *m;

	cr_assert_not_null(mkdtemp(dir));
	put_file(dir, "index.tsv", "# a comment\n\nt.json\tperf\t*\ta test");
	put_file(dir, "t.json",
		 "[{\"MetricName\": \"One\", \"MetricExpr\": \"1\", \"MetricGroup\": \"Aa;Bb\"},\n"
		 " {\"MetricName\": \"two\", \"MetricExpr\": \"2\", \"MetricGroup\": \"Bbb;aA\"},\n"
		 " {\"MetricName\": \"th\\u0072ee\", \"MetricExpr\": \"3\"},\n"
		 " {\"MetricName\": \"four\", \"MetricExpr\": \"4\", \"MetricGroup\": \"Bb\"}]\n");
	cr_assert_eq(pmc_metrics__new(&o, &err, &m), 0, "%s: %s", err.where, err.parse.msg);
	cr_assert_eq(m->nr_lazy, 1, "the index's last row, without its line break");
	cr_assert_eq(pmc_metrics__select(m, "bB", &err), 0, "%s", err.parse.msg);
	cr_expect_eq(pmc_metrics__nr_selected(m), 2);
	cr_expect(parsed(m, "One") && parsed(m, "four"), "the group's entries");
	cr_expect(parsed(m, "three"), "the entry the scan could not read");
	cr_expect(!parsed(m, "two"), "Bbb is not Bb, nor its name");
	cr_assert_eq(pmc_metrics__select(m, "TWO", &err), 0, "%s", err.parse.msg);
	cr_expect(parsed(m, "two"));
	pmc_metrics__delete(m);
	remove_files(dir, files, 2);
}
