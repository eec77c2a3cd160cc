// SPDX-License-Identifier: MIT
/* PMU-qualified events against fixture sysfs trees (tests/data/events/sysfs): formats, aliases,
 * errors. */
#include <criterion/criterion.h>
#include <string.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include "event/evsel.h"
#include "core/sysfile.h"
#include "event/parse.h"

/* Reject rows leave the resolved fields out on purpose. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

static void use_fixtures(void)
{
	pmc__sysfs_set_root(PMC_TEST_DATA "/events/sysfs");
}

TestSuite(event_sysfs, .init = use_fixtures);

struct row {
	const char *in;
	int ret;
	int offset; /* of the error */
	uint32_t type;
	uint64_t config, config1;
};

#define P (-PMC_E_PARSE)
#define U (-PMC_E_UNKNOWN_EVENT)

static const struct row rows[] = {
	{"cpu/event=0x3c/", 0, 0, 4, 0x3c, 0},
	{"cpu/event=0xc4,umask=0x1,cmask=1,inv,edge/", 0, 0, 4,
	 0xc4 | 1 << 8 | 1u << 24 | 1 << 23 | 1 << 18, 0},
	{"cpu/cycles/", 0, 0, 4, 0x3c, 0},
	{"cpu/cycles,umask=2/", 0, 0, 4, 0x23c, 0},
	{"cpu/mem-loads/", 0, 0, 4, 0x1cd, 3},
	{"cpu/ldlat=0xffff/", 0, 0, 4, 0, 0xffff},
	{"cpu/split=0xff/", 0, 0, 4, 0xfULL << 32 | 0xfULL << 40, 0},
	{"cpu/config=0x1234,config1=5/", 0, 0, 4, 0x1234, 5},
	{"cpu/event=1,event=2/", 0, 0, 4, 2, 0},
	{"power/energy-pkg/", 0, 0, 21, 2, 0},
	{"cpu/event=0x100/", P, 4},
	{"cpu/split=0x100/", P, 4},
	{"cpu/inv=2/", P, 4},
	{"cpu/umsk=1/", U, 4},
	{"cpu/cycles=1/", 0, 0, 4, 0x3c, 0},
	{"cpu/cycles=2/", U, 4},
	{"cpu/event=cycles/", 0, 0, 4, 0x3c, 0},
	{"cpu/event=nosuch/", P, 10},
	{"cpu/broken/", U, 4},
	{"cpu/event=1/x", P, 12},
	{"bad/event=1/", -PMC_E_FORMAT, 4},
	{"msr/tsc/", U, 0},
};

Test(event_sysfs, rows)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct pmc_evlist *evlist;
		struct pmc_parse_error err;
		int ret;

		cr_assert_eq(pmc_evlist__new(NULL, &evlist), 0);
		ret = pmc_evlist__parse(evlist, r->in, &err);
		cr_expect_eq(ret, r->ret, "'%s': %d (%s)", r->in, ret, err.msg);
		if (!ret) {
			const struct pmc_evsel *e = pmc_evlist__at(evlist, 0);

			cr_expect_eq(e->kind, PMC_EV_PMU);
			cr_expect_eq(e->attr.type, r->type, "'%s': type %u", r->in, e->attr.type);
			cr_expect_eq(e->attr.config, r->config, "'%s': config %#llx", r->in,
				     e->attr.config);
			cr_expect_eq(e->attr.config1, r->config1, "'%s': config1", r->in);
		} else {
			cr_expect_eq(err.offset, r->offset, "'%s': offset %d (%s)", r->in,
				     err.offset, err.msg);
		}
		pmc_evlist__delete(evlist);
	}
}

Test(event_sysfs, alias_scale_unit_and_name)
{
	struct pmc_evlist *evlist;
	const struct pmc_evsel *e;

	cr_assert_eq(pmc_evlist__new(NULL, &evlist), 0);
	cr_assert_eq(pmc_evlist__parse(evlist, "power/energy-pkg/,cpu/event=1,name=myev,period=99/",
				       NULL),
		     0);
	e = pmc_evlist__at(evlist, 0);
	cr_expect_float_eq(e->scale, 2.3283064365386962890625e-10, 1e-20);
	cr_expect_str_eq(e->unit, "Joules");
	cr_expect_str_eq(e->pmu, "power");
	e = pmc_evlist__at(evlist, 1);
	cr_expect_str_eq(pmc_evsel__name(e), "myev");
	cr_expect_eq(e->attr.sample_period, 99);
	cr_expect_eq(e->attr.freq, 0);
	pmc_evlist__delete(evlist);
}

Test(event_sysfs, suggests_terms)
{
	struct pmc_evlist *evlist;
	struct pmc_parse_error err;

	cr_assert_eq(pmc_evlist__new(NULL, &evlist), 0);
	cr_assert_eq(pmc_evlist__parse(evlist, "cpu/umsk=1/", &err), -PMC_E_UNKNOWN_EVENT);
	cr_assert_geq(err.nr_suggest, 1);
	cr_expect_str_eq(err.suggest[0], "umask");
	pmc_evlist__delete(evlist);
}

static int find_name(const struct pmc_event_info *info, void *arg)
{
	return !strcmp(info->name, arg) ? 1 : 0;
}

Test(event_sysfs, walk_lists_aliases)
{
	struct pmc_evlist *evlist;

	cr_assert_eq(pmc_evlist__new(NULL, &evlist), 0);
	cr_expect_eq(pmc_evlist__for_each_known(evlist, find_name, "cpu/mem-loads/"), 1);
	cr_expect_eq(pmc_evlist__for_each_known(evlist, find_name, "power/energy-pkg/"), 1);
	cr_expect_eq(pmc_evlist__for_each_known(evlist, find_name, "power/energy-pkg.scale/"), 0);
	pmc_evlist__delete(evlist);
}
