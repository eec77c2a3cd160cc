// SPDX-License-Identifier: MIT
/*
 * pmc_metric__check_events(): a formula's names against the perf backend's events, from a
 * table of {definition, code, offset into the formula, message}: events, metrics and tool
 * values pass; an unknown name is refused at its place, and a name that '-' cut in two
 * (page-faults, which the grammar reads as page minus faults) with the escape to write.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>
#include <pmc/error.h>
#include <pmc/metric.h>

static const struct {
	const char *def;
	int code;   /* 0, or the code returned */
	int offset; /* into the formula (after '=') */
	const char *msg;
} rows[] = {
	{"a =page\\-faults / task\\-clock", 0, 0, NULL},
	{"a =duration_time / 1e9 + source_count(task\\-clock)", 0, 0, NULL},
	{"a =ref + 1", 0, 0, NULL}, /* ref is a metric of the set */
	{"a =page-faults / task\\-clock", -PMC_E_UNKNOWN_EVENT, 0,
	 "'page-faults' is a subtraction in a formula ('-' is minus), and 'page' is not an event "
	 "here; for the event, write page\\-faults"},
	{"a =task\\-clock / L1-dcache-load-misses", -PMC_E_UNKNOWN_EVENT, 14,
	 "'L1-dcache-load-misses' is a subtraction in a formula ('-' is minus), and 'L1' is not "
	 "an event here; for the event, write L1\\-dcache\\-load\\-misses"},
	/* 'cycles' is an event: the run around 'stalled' is the one reported */
	{"a =1 + stalled-cycles-frontend", -PMC_E_UNKNOWN_EVENT, 4,
	 "'stalled-cycles-frontend' is a subtraction in a formula ('-' is minus), and "
	 "'stalled' is not an event here; for the event, write stalled\\-cycles\\-frontend"},
	/* blanks around '-': a subtraction as written, and the unknown name is itself */
	{"a =page - faults", -PMC_E_UNKNOWN_EVENT, 0, "unknown event 'page'"},
	{"a =task\\-clock + nosuchevent_q", -PMC_E_UNKNOWN_EVENT, 14,
	 "unknown event 'nosuchevent_q'"},
};

Test(metric_check, rows)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_metrics_opts o = {.sz = sizeof(o), .no_shipped = true};
		struct pmc_evlist_opts eo = {.sz = sizeof(eo), .use = PMC_USE_COUNT};
		struct pmc_metric_error err = {0};
		struct pmc_evlist *evlist;
		struct pmc_metrics *m;
		int rc;

		cr_assert_eq(pmc_metrics__new(&o, NULL, &m), 0);
		cr_assert_eq(pmc_evlist__new(&eo, &evlist), 0);
		cr_assert_eq(pmc_metrics__define(m, "ref = 2 * task\\-clock", NULL), 0);
		cr_assert_eq(pmc_metrics__define(m, rows[i].def, &err), 0, "%s: %s", rows[i].def,
			     err.parse.msg);
		rc = pmc_metric__check_events(pmc_metrics__find(m, "a"), evlist, &err);
		cr_expect_eq(rc, rows[i].code, "%s: %d (%s)", rows[i].def, rc, err.parse.msg);
		if (rows[i].code && rc == rows[i].code) {
			cr_expect_eq(err.parse.offset, rows[i].offset, "%s: offset %d", rows[i].def,
				     err.parse.offset);
			cr_expect(strstr(err.parse.msg, rows[i].msg), "%s: '%s'", rows[i].def,
				  err.parse.msg);
			cr_expect_str_eq(err.text, strchr(rows[i].def, '=') + 1);
		}
		pmc_evlist__delete(evlist);
		pmc_metrics__delete(m);
	}
}

Test(metric_check, bad_arguments)
{
	cr_expect_eq(pmc_metric__check_events(NULL, NULL, NULL), -EINVAL);
}
