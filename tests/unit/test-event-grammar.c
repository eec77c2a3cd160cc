// SPDX-License-Identifier: MIT
/*
 * Every form of the event grammar (docs/events.md, "Grammar") and what it encodes: the
 * perf_event_attr fields (through pmc_evsel__encoding()), the name, the modifiers and terms
 * kept beside the encoding, groups. PMUs come from the fixture tree tests/data/events/sysfs;
 * which strings parse at all, against perf 6.1, is cli.test-event-grammar's part.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include "core/sysfile.h"
#include "event/evsel.h"

/* Table rows leave trailing fields out on purpose: they are zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

static void use_fixtures(void)
{
	pmc__sysfs_set_root(PMC_TEST_DATA "/events/sysfs");
}

TestSuite(event_grammar, .init = use_fixtures);

#define U "exclude_user=0,exclude_kernel=1,exclude_hv=1" /* the default: user level */
#define ALL "exclude_user=0,exclude_kernel=0,exclude_hv=0"
#define T(id) (1u << PMC_TERM_##id)

struct form {
	const char *in;
	size_t nr;	  /* events */
	const char *enc;  /* the first event's encoding */
	const char *name; /* the first event's name; NULL: the input */
	unsigned mods;	  /* PMC_MOD_* bits the first event must have */
	unsigned terms;	  /* builtin terms it must have kept (PMC_TERM_* bits) */
};

static const struct form forms[] = {
	/* generic names, with terms and modifiers */
	{"cycles", 1, "type=0,config=0," U},
	{"cycles//", 1, "type=0,config=0," U},
	{"cycles:", 1, "type=0,config=0," U},
	{"cycles u", 1, "type=0,config=0," U, NULL, PMC_MOD_U},
	{"cycles/config=1/", 1, "type=0,config=0x1," U, NULL, 0, T(CONFIG)},
	{"cycles/period=100000,config2/", 1, "type=0,config=0,config2=0x1,sample_period=100000," U},
	{"instructions/name=insn/", 1, "type=0,config=0x1," U, "insn", 0, T(NAME)},
	{"cycles/name='COMPLEX_CYCLES_NAME:orig=cycles,desc=chip-clock-ticks'/Duk", 1,
	 "type=0,config=0,exclude_user=0,exclude_kernel=0,exclude_hv=1,pinned=1",
	 "COMPLEX_CYCLES_NAME:orig=cycles,desc=chip-clock-ticks", PMC_MOD_PINNED},
	{"task-clock/r0x2/", 1, "type=1,config=0x2," U},
	{"task-clock/r2,period/", 1, "type=1,config=0x2,sample_period=1," U},
	{"task-clock/percore,metric-id=m.1/", 1, "type=1,config=0x1," U, NULL, 0,
	 T(PERCORE) | T(METRIC_ID)},
	{"task-clock/freq=99,time=0,call-graph=dwarf,stack-size=4096,max-stack=8/", 1,
	 "type=1,config=0x1,sample_freq=99," U, NULL, 0,
	 T(FREQ) | T(TIME) | T(CALL_GRAPH) | T(STACK_SIZE) | T(MAX_STACK)},
	{"cycles/period=1/u", 1,
	 "type=0,config=0,sample_period=1,exclude_user=0,exclude_kernel=1,"
	 "exclude_hv=1"},
	/* every modifier */
	{"cycles:k", 1, "type=0,config=0,exclude_user=1,exclude_kernel=0,exclude_hv=1"},
	{"cycles:h", 1, "type=0,config=0,exclude_user=1,exclude_kernel=1,exclude_hv=0"},
	{"cycles:ppp", 1, "type=0,config=0," U ",precise_ip=3"},
	{"cycles:GI", 1, "type=0,config=0," U ",exclude_host=1,exclude_idle=1"},
	{"cycles:H", 1, "type=0,config=0," U ",exclude_guest=1"},
	{"cycles:GH", 1, "type=0,config=0," U},
	{"cycles:De", 1, "type=0,config=0," U ",pinned=1,exclusive=1"},
	{"cycles:WSPb", 1, "type=0,config=0," U, NULL,
	 PMC_MOD_WEAK | PMC_MOD_SREAD | PMC_MOD_PMAX | PMC_MOD_BPF},
	{"task-clock:ukhGHpppPSDIWeb", 1,
	 "type=1,config=0x1," ALL ",exclude_idle=1,pinned=1,exclusive=1,precise_ip=3"},
	/* generic cache names */
	{"L1-dcache-load-misses", 1, "type=3,config=0x10000," U},
	{"L1-dcache-misses", 1, "type=3,config=0x10000," U},
	{"L1-dcache-load-load", 1, "type=3,config=0," U},
	{"L1-dcache-misses-misses", 1, "type=3,config=0x10000," U},
	{"LLC-speculative-read-miss", 1, "type=3,config=0x10202," U},
	{"L1-dcache-loads//:u", 1, "type=3,config=0," U},
	{"node-loads/period=1/:k", 1,
	 "type=3,config=0x6,sample_period=1,exclude_user=1,exclude_kernel=0,exclude_hv=1"},
	/* raw codes, numeric TYPE:CONFIG */
	{"r1a", 1, "type=4,config=0x1a," U},
	{"rFFFFFFFFFFFFFFFF", 1, "type=4,config=0xffffffffffffffff," U},
	{"r00000000000000001a", 1, "type=4,config=0x1a," U},
	{"r1234/name=rawpmu/", 1, "type=4,config=0x1234," U, "rawpmu"},
	{"r1a:kp", 1,
	 "type=4,config=0x1a,exclude_user=1,exclude_kernel=0,exclude_hv=1,"
	 "precise_ip=1"},
	{"1:1", 1, "type=1,config=0x1," U},
	{"0x4:0x6530160/name=numpmu/", 1, "type=4,config=0x6530160," U, "numpmu"},
	{"1:1:hp", 1,
	 "type=1,config=0x1,exclude_user=1,exclude_kernel=1,exclude_hv=0,"
	 "precise_ip=1"},
	{"4294967295:0", 1, "type=4294967295,config=0," U},
	/* breakpoints */
	{"mem:0", 1, "type=5,config=0,bp_addr=0,bp_len=4,bp_type=3," U},
	{"mem:0:x:k", 1,
	 "type=5,config=0,bp_addr=0,bp_len=8,bp_type=4,exclude_user=1,"
	 "exclude_kernel=0,exclude_hv=1"},
	{"mem:0x1000:wu", 1, "type=5,config=0,bp_addr=0x1000,bp_len=4,bp_type=2," U},
	{"mem:0/2:w", 1, "type=5,config=0,bp_addr=0,bp_len=2,bp_type=2," U},
	{"mem:0/4:rw:u", 1, "type=5,config=0,bp_addr=0,bp_len=4,bp_type=3," U},
	{"mem:0x1000/3", 1, "type=5,config=0,bp_addr=0x1000,bp_len=3,bp_type=3," U},
	{"mem:0x1000:", 1, "type=5,config=0,bp_addr=0x1000,bp_len=4,bp_type=3," U},
	/* sysfs PMUs: formats, aliases, terms, perf's uncore matching */
	{"cpu/event=0xa8,umask=0x1,name=LSD.UOPS_CYCLES,cmask=0x1/", 1,
	 "type=4,config=0x10001a8," U, "LSD.UOPS_CYCLES"},
	{"cpu/config=10,config1,config2=3,period=1000/u", 1,
	 "type=4,config=0xa,config1=0x1,config2=0x3,sample_period=1000," U},
	{"cpu/r1a8/", 1, "type=4,config=0x1a8," U},
	{"cpu/r0x1a8/k", 1, "type=4,config=0x1a8,exclude_user=1,exclude_kernel=0,exclude_hv=1"},
	{"cpu/cycles=1/", 1, "type=4,config=0x3c," U},
	{"cpu/event=cycles/", 1, "type=4,config=0x3c," U},
	{"cpu/@drv=x,event=1/", 1, "type=4,config=0x1," U},
	{"cpu//", 1, "type=4,config=0," U},
	{"mem-loads", 1, "type=4,config=0x1cd,config1=0x3," U},
	{"MEM-LOADS:k", 1,
	 "type=4,config=0x1cd,config1=0x3,exclude_user=1,exclude_kernel=0,"
	 "exclude_hv=1"},
	{"energy-pkg", 1, "type=21,config=0x2," ALL},
	{"energy-pkg/period=3/", 1, "type=21,config=0x2,sample_period=3," ALL},
	{"imc/cas_count_read/", 2, "type=30,config=0x304," ALL},
	{"imc_1/event=7/", 1, "type=31,config=0x7," ALL},
	{"uncore_imc_0/event=7/", 1, "type=30,config=0x7," ALL},
	{"'power'/event=1/", 1, "type=21,config=0x1," ALL},
	/* groups */
	{"{cycles,instructions}:u", 2, "type=0,config=0," U, "cycles:u"},
	{"grp{cycles:k,instructions}:u", 2,
	 "type=0,config=0,exclude_user=0,exclude_kernel=0,exclude_hv=1", "cycles:k:u"},
	{"{cycles,instructions}:De", 2, "type=0,config=0," U ",pinned=1,exclusive=1", "cycles:De"},
	{"{cycles:p,instructions}:p", 2, "type=0,config=0," U ",precise_ip=2", "cycles:p:p"},
};

static struct pmc_evlist *parse(const char *in, enum pmc_evlist_use use, int *ret,
				struct pmc_parse_error *err)
{
	struct pmc_evlist_opts opts = {.sz = sizeof(opts), .use = use};
	struct pmc_evlist *evlist;

	cr_assert_eq(pmc_evlist__new(&opts, &evlist), 0);
	*ret = pmc_evlist__parse(evlist, in, err);
	return evlist;
}

static void check_form(const struct form *f)
{
	struct pmc_parse_error err;
	int ret;
	struct pmc_evlist *evlist = parse(f->in, PMC_USE_ANY, &ret, &err);
	const struct pmc_evsel *e;
	char enc[512];

	cr_assert_eq(ret, 0, "'%s': %d (%s at %d)", f->in, ret, err.msg, err.offset);
	cr_expect_eq(pmc_evlist__nr(evlist), f->nr, "'%s': %zu events", f->in,
		     pmc_evlist__nr(evlist));
	e = pmc_evlist__at(evlist, 0);
	pmc_evsel__encoding(e, enc, sizeof(enc));
	cr_expect_str_eq(enc, f->enc, "'%s': %s", f->in, enc);
	cr_expect_str_eq(pmc_evsel__name(e), f->name ? f->name : f->in, "'%s': name '%s'", f->in,
			 pmc_evsel__name(e));
	cr_expect_eq(e->mods & f->mods, f->mods, "'%s': mods %#x", f->in, e->mods);
	cr_expect_eq(e->cfg.written & f->terms, f->terms, "'%s': terms %#x", f->in, e->cfg.written);
	pmc_evlist__delete(evlist);
}

Test(event_grammar, every_form_encodes)
{
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		check_form(&forms[i]);
}

/* What the terms keep beside the encoding, for pmc record. */
Test(event_grammar, sampling_terms_kept)
{
	int ret;
	struct pmc_evlist *l = parse("task-clock/call-graph=dwarf,stack-size=4096,max-stack=8,"
				     "time=0,no-inherit,branch_type=any,nr=5,metric-id=m/",
				     PMC_USE_ANY, &ret, NULL);
	const struct pmc_evsel *e = pmc_evlist__at(l, 0);

	cr_assert_eq(ret, 0);
	cr_expect_eq(e->cfg.call_graph, PMC_CG_DWARF);
	cr_expect_eq(e->cfg.stack_size, 4096);
	cr_expect_eq(e->cfg.max_stack, 8);
	cr_expect(!e->cfg.time && !e->cfg.inherit);
	cr_expect_str_eq(e->cfg.branch_type, "any");
	cr_expect_eq(e->cfg.nr, 5);
	cr_expect_str_eq(e->cfg.metric_id, "m");
	pmc_evlist__delete(l);
}

/* pmc stat refuses what perf stat refuses; pmc record what it cannot honour. */
Test(event_grammar, terms_by_use)
{
	static const struct {
		const char *in;
		enum pmc_evlist_use use;
		int ret, offset;
	} rows[] = {
		{"task-clock/freq=99/", PMC_USE_COUNT, -PMC_E_PARSE, 11},
		{"task-clock/call-graph=fp/", PMC_USE_COUNT, -PMC_E_PARSE, 11},
		{"task-clock/period=9,percore,metric-id=x/", PMC_USE_COUNT, 0},
		{"syscalls:sys_enter_getppid/call-graph=fp/", PMC_USE_COUNT, -PMC_E_PARSE, 27},
		{"task-clock/freq=99,call-graph=dwarf,time=0,max-stack=3/", PMC_USE_SAMPLE, 0},
		{"task-clock/call-graph=lbr/", PMC_USE_SAMPLE, -PMC_E_PARSE, 22},
		{"task-clock/nr=1/", PMC_USE_SAMPLE, -PMC_E_PARSE, 11},
		{"task-clock/no-inherit/", PMC_USE_SAMPLE, -PMC_E_PARSE, 11},
		{"{task-clock,cs}:S", PMC_USE_SAMPLE, -PMC_E_PARSE, 16},
		{"{task-clock,cs}:S", PMC_USE_COUNT, 0},
		{"task-clock/call-graph=x/", PMC_USE_ANY, -PMC_E_PARSE, 22},
		{"task-clock/nr=1,aux-output,overwrite/", PMC_USE_ANY, 0},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_parse_error err;
		int ret;
		struct pmc_evlist *l = parse(rows[i].in, rows[i].use, &ret, &err);

		cr_expect_eq(ret, rows[i].ret, "'%s' (use %d): %d (%s)", rows[i].in, rows[i].use,
			     ret, err.msg);
		if (ret)
			cr_expect_eq(err.offset, rows[i].offset, "'%s': offset %d (%s)", rows[i].in,
				     err.offset, err.msg);
		pmc_evlist__delete(l);
	}
}

/* perf's lexer reads a PMU's event as an event, never as a group's name. */
Test(event_grammar, a_pmu_event_names_no_group)
{
	struct pmc_parse_error err;
	int ret;
	struct pmc_evlist *l = parse("broken{cycles}", PMC_USE_ANY, &ret, &err);

	cr_expect_eq(ret, -PMC_E_PARSE, "%d (%s)", ret, err.msg);
	cr_expect_eq(err.offset, 0);
	pmc_evlist__delete(l);
}

/* Group names, leaders, and D/e kept on the leader of a group that asks for them. */
Test(event_grammar, groups)
{
	int ret;
	struct pmc_evlist *l = parse("g1{cycles,instructions}:D,g2{cs},task-clock,"
				     "{faults,minor-faults:e}",
				     PMC_USE_ANY, &ret, NULL);

	cr_assert_eq(ret, 0);
	cr_assert_eq(pmc_evlist__nr(l), 6);
	cr_expect_str_eq(pmc_evsel__group_name(pmc_evlist__at(l, 1)), "g1");
	cr_expect_str_eq(pmc_evsel__group_name(pmc_evlist__at(l, 2)), "g2");
	cr_expect_null(pmc_evsel__group_name(pmc_evlist__at(l, 3)));
	cr_expect_null(pmc_evsel__group_name(pmc_evlist__at(l, 4)));
	cr_expect(pmc_evlist__at(l, 0)->attr.pinned, "a group's D pins its leader");
	cr_expect(!pmc_evlist__at(l, 1)->attr.pinned, "and not its members");
	cr_expect_eq(pmc_evsel__group_size(pmc_evlist__at(l, 2)), 1);
	cr_expect(pmc_evlist__at(l, 5)->attr.exclusive, "a member's own e is kept (perf's)");
	pmc_evlist__delete(l);
}

/* The kernel's rules an encoding breaks are pmc_evsel__check()'s verdicts, not parse errors. */
Test(event_grammar, refused_by_check_not_by_the_parser)
{
	static const struct {
		const char *in;
		size_t idx;
		const char *why;
	} rows[] = {
		{"mem:0x1000/3", 0, "length 3"},
		{"mem:0x1000/4:x", 0, "execute breakpoint"},
		{"mem:0x1000:rx", 0, "cannot be combined"},
		{"{task-clock,page-faults:D}", 1, "leader"},
		{"{task-clock,page-faults:e}", 1, "leader"},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char why[256];
		int ret;
		struct pmc_evlist *l = parse(rows[i].in, PMC_USE_COUNT, &ret, NULL);

		cr_assert_eq(ret, 0, "%s", rows[i].in);
		ret = pmc_evsel__check(pmc_evlist__at(l, rows[i].idx), why, sizeof(why));
		cr_expect_eq(ret, -PMC_E_UNSUPPORTED, "%s: %d", rows[i].in, ret);
		cr_expect(strstr(why, rows[i].why), "%s: '%s'", rows[i].in, why);
		pmc_evlist__delete(l);
	}
}
