// SPDX-License-Identifier: MIT
/* Event grammar: table-driven accepts and rejects, modifiers, groups, names and encodings. */
#include <criterion/criterion.h>
#include <string.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include "event/evsel.h"

/* Table rows leave trailing fields out on purpose: they are zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

enum { EU = 1, EK = 2, EH = 4 };

struct row {
	const char *in;
	size_t nr;		  /* events expected */
	enum pmc_event_kind kind; /* of the first event */
	uint32_t type;
	uint64_t config, config1;
	int excl; /* EU|EK|EH of the first event */
	int precise;
	const char *leaders; /* leader index of each event, as digits; NULL: all own */
	uint64_t bp_addr, bp_len, bp_type;
};

#define HW PMC_EV_HARDWARE, PERF_TYPE_HARDWARE
#define SW PMC_EV_SOFTWARE, PERF_TYPE_SOFTWARE
#define HC PMC_EV_CACHE, PERF_TYPE_HW_CACHE
#define BP PMC_EV_BREAKPOINT, PERF_TYPE_BREAKPOINT
#define USER (EK | EH) /* the default: user only */

static const struct row accepts[] = {
	{"cycles", 1, HW, 0, 0, USER},
	{"cpu-cycles", 1, HW, 0, 0, USER},
	{"instructions", 1, HW, 1, 0, USER},
	{"cache-references", 1, HW, 2, 0, USER},
	{"cache-misses", 1, HW, 3, 0, USER},
	{"branches", 1, HW, 4, 0, USER},
	{"branch-instructions", 1, HW, 4, 0, USER},
	{"branch-misses", 1, HW, 5, 0, USER},
	{"bus-cycles", 1, HW, 6, 0, USER},
	{"stalled-cycles-frontend", 1, HW, 7, 0, USER},
	{"idle-cycles-frontend", 1, HW, 7, 0, USER},
	{"stalled-cycles-backend", 1, HW, 8, 0, USER},
	{"ref-cycles", 1, HW, 9, 0, USER},
	{"cpu-clock", 1, SW, 0, 0, USER},
	{"task-clock", 1, SW, 1, 0, USER},
	{"page-faults", 1, SW, 2, 0, USER},
	{"faults", 1, SW, 2, 0, USER},
	{"context-switches", 1, SW, 3, 0, 0}, /* kernel-side: every level */
	{"cs", 1, SW, 3, 0, 0},
	{"cs:u", 1, SW, 3, 0, USER}, /* the user's modifier is kept */
	{"cpu-migrations", 1, SW, 4, 0, 0},
	{"migrations", 1, SW, 4, 0, 0},
	{"migrations:k", 1, SW, 4, 0, EU | EH},
	{"minor-faults", 1, SW, 5, 0, USER},
	{"major-faults", 1, SW, 6, 0, USER},
	{"alignment-faults", 1, SW, 7, 0, USER},
	{"emulation-faults", 1, SW, 8, 0, USER},
	{"dummy", 1, SW, 9, 0, USER},
	{"bpf-output", 1, SW, 10, 0, USER},
	{"L1-dcache-loads", 1, HC, 0x0, 0, USER},
	{"L1-dcache-load-misses", 1, HC, 0x10000, 0, USER},
	{"L1-dcache-stores", 1, HC, 0x100, 0, USER},
	{"L1-dcache-prefetch-misses", 1, HC, 0x10200, 0, USER},
	{"L1-icache-loads", 1, HC, 0x1, 0, USER},
	{"L1-icache-load-misses", 1, HC, 0x10001, 0, USER},
	{"L1-icache-prefetches", 1, HC, 0x201, 0, USER},
	{"LLC-loads", 1, HC, 0x2, 0, USER},
	{"LLC-stores", 1, HC, 0x102, 0, USER},
	{"LLC-store-misses", 1, HC, 0x10102, 0, USER},
	{"dTLB-load-misses", 1, HC, 0x10003, 0, USER},
	{"dTLB-prefetch-misses", 1, HC, 0x10203, 0, USER},
	{"iTLB-loads", 1, HC, 0x4, 0, USER},
	{"iTLB-load-misses", 1, HC, 0x10004, 0, USER},
	{"branch-loads", 1, HC, 0x5, 0, USER},
	{"branch-load-misses", 1, HC, 0x10005, 0, USER},
	{"node-loads", 1, HC, 0x6, 0, USER},
	{"node-prefetches", 1, HC, 0x206, 0, USER},
	{"l1d-loads", 1, HC, 0x0, 0, USER},
	{"L1-dcache", 1, HC, 0x0, 0, USER},
	{"L1-data-read-miss", 1, HC, 0x10000, 0, USER},
	{"LLC-speculative-read-misses", 1, HC, 0x10202, 0, USER},
	{"cycles:u", 1, HW, 0, 0, EK | EH},
	{"cycles:k", 1, HW, 0, 0, EU | EH},
	{"cycles:h", 1, HW, 0, 0, EU | EK},
	{"cycles:uk", 1, HW, 0, 0, EH},
	{"cycles:ukh", 1, HW, 0, 0, 0},
	{"cycles:ku", 1, HW, 0, 0, EH},
	{"cycles:p", 1, HW, 0, 0, USER, 1},
	{"cycles:pp", 1, HW, 0, 0, USER, 2},
	{"cycles:ppp", 1, HW, 0, 0, USER, 3},
	{"cycles:upp", 1, HW, 0, 0, EK | EH, 2},
	{"cycles:kp", 1, HW, 0, 0, EU | EH, 1},
	{"task-clock:GHID", 1, SW, 1, 0, USER},
	{"r1a", 1, PMC_EV_RAW, PERF_TYPE_RAW, 0x1a, 0, USER},
	{"rC0:k", 1, PMC_EV_RAW, PERF_TYPE_RAW, 0xc0, 0, EU | EH},
	{"r0123456789abcdef", 1, PMC_EV_RAW, PERF_TYPE_RAW, 0x0123456789abcdefULL, 0, USER},
	{"software/config=1/", 1, PMC_EV_PMU, PERF_TYPE_SOFTWARE, 1, 0, USER},
	{"software/config=0x3/u", 1, PMC_EV_PMU, PERF_TYPE_SOFTWARE, 3, 0, EK | EH},
	{"software/config=3,config1=7/k", 1, PMC_EV_PMU, PERF_TYPE_SOFTWARE, 3, 7, EU | EH},
	{"mem:0x1000", 1, BP, 0, 0, USER, 0, NULL, 0x1000, 4, 3},
	{"mem:4096:rw", 1, BP, 0, 0, USER, 0, NULL, 0x1000, 4, 3},
	{"mem:0x1000/8:w", 1, BP, 0, 0, USER, 0, NULL, 0x1000, 8, 2},
	{"mem:0x1000/1:r", 1, BP, 0, 0, USER, 0, NULL, 0x1000, 1, 1},
	{"mem:0x1000:x", 1, BP, 0, 0, USER, 0, NULL, 0x1000, sizeof(long), 4},
	{"mem:0x1000/8:x", 1, BP, 0, 0, USER, 0, NULL, 0x1000, 8, 4},
	{"mem:0x1000:wu", 1, BP, 0, 0, EK | EH, 0, NULL, 0x1000, 4, 2},
	{"mem:0x1000:w:k", 1, BP, 0, 0, EU | EH, 0, NULL, 0x1000, 4, 2},
	{"mem:0x1000:k", 1, BP, 0, 0, EU | EH, 0, NULL, 0x1000, 4, 3},
	{"cycles,instructions", 2, HW, 0, 0, USER, 0, "01"},
	{" cycles , instructions ", 2, HW, 0, 0, USER, 0, "01"},
	{"{cycles,instructions}", 2, HW, 0, 0, USER, 0, "00"},
	{"{task-clock,page-faults}:k", 2, SW, 1, 0, EU | EH, 0, "00"},
	{"{task-clock:u,page-faults}:k", 2, SW, 1, 0, EH, 0, "00"},
	{"{cycles:p,instructions}:p", 2, HW, 0, 0, USER, 2, "00"},
	{"task-clock,{cs,faults},migrations", 4, SW, 1, 0, USER, 0, "0113"},
	{"{cs},{faults,migrations,cpu-clock}", 4, SW, 3, 0, 0, 0, "0111"},
};

static int excl_of(const struct perf_event_attr *a)
{
	return (a->exclude_user ? EU : 0) | (a->exclude_kernel ? EK : 0) | (a->exclude_hv ? EH : 0);
}

static struct pmc_evlist *new_list(unsigned priv)
{
	struct pmc_evlist_opts opts = {.sz = sizeof(opts), .priv = priv};
	struct pmc_evlist *evlist;

	cr_assert_eq(pmc_evlist__new(&opts, &evlist), 0);
	return evlist;
}

static void check_row(const struct row *r)
{
	struct pmc_evlist *evlist = new_list(0);
	struct pmc_parse_error err;
	int ret = pmc_evlist__parse(evlist, r->in, &err);

	cr_assert_eq(ret, 0, "'%s': %d (%s at %d)", r->in, ret, err.msg, err.offset);
	cr_assert_eq(pmc_evlist__nr(evlist), r->nr, "'%s': %zu events", r->in,
		     pmc_evlist__nr(evlist));
	struct pmc_evsel *e = pmc_evlist__at(evlist, 0);
	cr_expect_eq(e->kind, r->kind, "'%s': kind %d", r->in, e->kind);
	cr_expect_eq(e->attr.type, r->type, "'%s': type %u", r->in, e->attr.type);
	if (r->kind == PMC_EV_BREAKPOINT) {
		cr_expect_eq(e->attr.bp_addr, r->bp_addr, "'%s': bp_addr", r->in);
		cr_expect_eq(e->attr.bp_len, r->bp_len, "'%s': bp_len %llu", r->in, e->attr.bp_len);
		cr_expect_eq(e->attr.bp_type, r->bp_type, "'%s': bp_type %u", r->in,
			     e->attr.bp_type);
	} else {
		cr_expect_eq(e->attr.config, r->config, "'%s': config %#llx", r->in,
			     e->attr.config);
		cr_expect_eq(e->attr.config1, r->config1, "'%s': config1", r->in);
	}
	cr_expect_eq(excl_of(&e->attr), r->excl, "'%s': excl %d", r->in, excl_of(&e->attr));
	cr_expect_eq(e->attr.precise_ip, r->precise, "'%s': precise", r->in);
	for (size_t i = 0; i < r->nr; i++) {
		struct pmc_evsel *m = pmc_evlist__at(evlist, i);
		size_t leader = r->leaders ? (size_t)(r->leaders[i] - '0') : i;

		cr_expect_eq(pmc_evsel__idx(m), i);
		cr_expect_eq(pmc_evsel__leader(m), pmc_evlist__at(evlist, leader),
			     "'%s': leader of %zu", r->in, i);
		cr_expect_eq(m->pass, -1);
		cr_expect_eq(m->check_err, 1);
	}
	pmc_evlist__delete(evlist);
}

Test(event_parse, accepts)
{
	for (size_t i = 0; i < sizeof(accepts) / sizeof(accepts[0]); i++)
		check_row(&accepts[i]);
}

struct reject {
	const char *in;
	int ret;
	int offset;
};

#define P (-PMC_E_PARSE)
#define U (-PMC_E_UNKNOWN_EVENT)

static const struct reject rejects[] = {
	{"", P, 0},
	{"cycles,", P, 7},
	{",cycles", P, 0},
	{"cycles,,instructions", P, 7},
	{"cycles instructions", P, 7},
	{"cycles;", P, 6},
	{"cycles::", P, 7},
	{"cycles:x", P, 7},
	{"cycles:uq", P, 8},
	{"cycles:uu", P, 8},
	{"cycles:pppp", P, 7},
	{"cycles:pp:pp", P, 9},
	{"cycles:u:k", P, 8},
	{"{cycles:pp}:pp", P, 12},
	{"cycles/period=1/:u", P, 16},
	{"cycles:c=1", P, 7},
	{"cycles:i", P, 7},
	{"{cycles,{instructions}}", P, 8},
	{"{}", P, 1},
	{"{ }", P, 2},
	{"{cycles", P, 7},
	{"cycles}", P, 6},
	{"{cycles,instructions", P, 20},
	{"{cycles}:q", P, 9},
	{"{cycles}:", P, 9},
	{"cycles{cs}", P, 0},
	{"mem:", P, 4},
	{"mem:zz", P, 4},
	{"mem:0x1000/", P, 11},
	{"mem:0x1000:ww", P, 11},
	{"mem:0x1000:r:c=1", P, 13},
	{"mem:99999999999999999999", P, 4},
	{"r12345678901234567", P, 0},
	{"r0x12", P, 0},
	{"1", P, 1},
	{"1:", P, 2},
	{"4294967296:1", P, 0},
	{"software/config=1", P, 17},
	{"software/config=zz/", P, 16},
	{"software/config=1,/", P, 18},
	{"software/=1/", P, 9},
	{"software/foo=1/", U, 9},
	{"software/config[1]=0/", U, 15},
	{"cycles/umask=1/", U, 7},
	{"cycles/name=1/", P, 12},
	{"cycles/time=2/", P, 12},
	{"syscalls:", P, 9},
	{"nosuchpmu/event=1/", U, 0},
	{".../x/", P, 0},
	{"instructons", U, 0},
	{"cycles,instructons", U, 7},
	{"cycles,instructons:u", U, 7},
	{"iTLB-stores", U, 0},
	{"branch-prefetches", U, 0},
	{"branches-loads", U, 0},
	{"cycl*", U, 0},
	{"\x01", P, 0},
};

Test(event_parse, rejects)
{
	for (size_t i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++) {
		const struct reject *r = &rejects[i];
		struct pmc_evlist *evlist = new_list(0);
		struct pmc_parse_error err;
		int ret = pmc_evlist__parse(evlist, r->in, &err);

		cr_expect_eq(ret, r->ret, "'%s': ret %d, want %d (%s)", r->in, ret, r->ret,
			     err.msg);
		cr_expect_eq(err.offset, r->offset, "'%s': offset %d, want %d (%s)", r->in,
			     err.offset, r->offset, err.msg);
		cr_expect_neq(err.msg[0], '\0', "'%s': no message", r->in);
		cr_expect_eq(pmc_evlist__nr(evlist), 0, "'%s': events left behind", r->in);
		pmc_evlist__delete(evlist);
	}
}

Test(event_parse, names_and_group_modifiers)
{
	struct pmc_evlist *evlist = new_list(0);
	static const char *const want[] = {"cycles:k:u", "instructions:u", "mem:0x10/8:w",
					   "task-clock"};

	cr_assert_eq(pmc_evlist__parse(evlist, "{cycles:k, instructions}:u", NULL), 0);
	cr_assert_eq(pmc_evlist__parse(evlist, "mem:0x10/8:w,  task-clock", NULL), 0);
	cr_assert_eq(pmc_evlist__nr(evlist), 4);
	for (size_t i = 0; i < 4; i++)
		cr_expect_str_eq(pmc_evsel__name(pmc_evlist__at(evlist, i)), want[i]);
	cr_expect_eq(excl_of(&pmc_evlist__at(evlist, 0)->attr), EH);
	cr_expect_eq(pmc_evsel__group_size(pmc_evlist__at(evlist, 1)), 2);
	cr_expect_eq(pmc_evsel__group_size(pmc_evlist__at(evlist, 3)), 1);
	cr_expect_eq(pmc_evsel__idx(pmc_evlist__at(evlist, 3)), 3);
	cr_expect_null(pmc_evlist__at(evlist, 4));
	cr_expect_str_eq(pmc_event_kind__name(pmc_evsel__kind(pmc_evlist__at(evlist, 2))),
			 "breakpoint");
	pmc_evlist__delete(evlist);
}

Test(event_parse, failure_leaves_list_unchanged)
{
	struct pmc_evlist *evlist = new_list(0);
	struct pmc_parse_error err;

	cr_assert_eq(pmc_evlist__parse(evlist, "cycles", &err), 0);
	cr_assert_eq(pmc_evlist__parse(evlist, "{instructions,task-clock},instructons", &err),
		     -PMC_E_UNKNOWN_EVENT);
	cr_assert_eq(pmc_evlist__parse(evlist, "page-faults,{cs", &err), -PMC_E_PARSE);
	cr_assert_eq(pmc_evlist__nr(evlist), 1);
	cr_assert_eq(pmc_evlist__parse(evlist, "page-faults", NULL), 0);
	cr_expect_eq(pmc_evsel__idx(pmc_evlist__at(evlist, 1)), 1);
	pmc_evlist__delete(evlist);
}

/* The default says whose code counts; kernel-side events count where they happen. */
Test(event_parse, kernel_side_events_ignore_the_default)
{
	struct pmc_evlist *evlist = new_list(PMC_PRIV_KERNEL);

	cr_assert_eq(pmc_evlist__parse(evlist, "cs,migrations,page-faults,cs:u", NULL), 0);
	cr_expect_eq(excl_of(&pmc_evlist__at(evlist, 0)->attr), 0);
	cr_expect_eq(excl_of(&pmc_evlist__at(evlist, 1)->attr), 0);
	cr_expect_eq(excl_of(&pmc_evlist__at(evlist, 2)->attr), EU | EH);
	cr_expect_eq(excl_of(&pmc_evlist__at(evlist, 3)->attr), EK | EH);
	pmc_evlist__delete(evlist);
}

/* The same through the public getters, which outputs use to say what each event counts. */
#define ALL (PMC_PRIV_USER | PMC_PRIV_KERNEL | PMC_PRIV_HV)
Test(event_parse, public_levels_and_kernel_side)
{
	static const struct {
		const char *in;
		unsigned priv; /* the list's default */
		bool kernel_side;
		unsigned levels;
	} rows[] = {
		{"context-switches", PMC_PRIV_USER, true, ALL},
		{"cpu-migrations", PMC_PRIV_KERNEL, true, ALL},
		{"cs:u", PMC_PRIV_USER, true, PMC_PRIV_USER},
		{"cs:k", PMC_PRIV_USER, true, PMC_PRIV_KERNEL},
		{"page-faults", PMC_PRIV_USER, false, PMC_PRIV_USER},
		{"page-faults", PMC_PRIV_KERNEL, false, PMC_PRIV_KERNEL},
		{"task-clock:uk", PMC_PRIV_USER, false, PMC_PRIV_USER | PMC_PRIV_KERNEL},
		{"mem:0x1000", PMC_PRIV_USER, false, PMC_PRIV_USER},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_evlist *evlist = new_list(rows[i].priv);
		const struct pmc_evsel *ev;

		cr_assert_eq(pmc_evlist__parse(evlist, rows[i].in, NULL), 0, "%s", rows[i].in);
		ev = pmc_evlist__at(evlist, 0);
		cr_expect_eq(pmc_evsel__kernel_side(ev), rows[i].kernel_side, "%s", rows[i].in);
		cr_expect_eq(pmc_evsel__priv(ev), rows[i].levels, "%s", rows[i].in);
		cr_expect_null(pmc_evsel__note(ev), "%s: no note before a check", rows[i].in);
		pmc_evlist__delete(evlist);
	}
}

Test(event_parse, default_priv)
{
	struct pmc_evlist *evlist = new_list(PMC_PRIV_USER | PMC_PRIV_KERNEL);

	cr_assert_eq(pmc_evlist__parse(evlist, "cycles,cycles:u,mem:0x1000", NULL), 0);
	cr_expect_eq(excl_of(&pmc_evlist__at(evlist, 0)->attr), EH);
	cr_expect_eq(excl_of(&pmc_evlist__at(evlist, 1)->attr), EK | EH);
	cr_expect_eq(excl_of(&pmc_evlist__at(evlist, 2)->attr), EH);
	pmc_evlist__delete(evlist);
}

Test(event_parse, perf_only_modifiers)
{
	struct pmc_evlist *evlist = new_list(0);
	const struct perf_event_attr *a;

	cr_assert_eq(pmc_evlist__parse(evlist, "task-clock:GID,cs:H,faults:GH", NULL), 0);
	a = &pmc_evlist__at(evlist, 0)->attr;
	cr_expect(a->exclude_host && !a->exclude_guest && a->exclude_idle && a->pinned);
	a = &pmc_evlist__at(evlist, 1)->attr;
	cr_expect(!a->exclude_host && a->exclude_guest && !a->pinned);
	a = &pmc_evlist__at(evlist, 2)->attr;
	cr_expect(!a->exclude_host && !a->exclude_guest);
	pmc_evlist__delete(evlist);
}

struct enc_row {
	const char *in;
	const char *enc;
};

static const struct enc_row encodings[] = {
	{"cycles:upp", "type=0,config=0,exclude_user=0,exclude_kernel=1,exclude_hv=1,precise_ip=2"},
	{"L1-dcache-load-misses:k",
	 "type=3,config=0x10000,exclude_user=1,exclude_kernel=0,exclude_hv=1"},
	{"mem:0x1000/8:w", "type=5,config=0,bp_addr=0x1000,bp_len=8,bp_type=2,exclude_user=0,"
			   "exclude_kernel=1,exclude_hv=1"},
	{"software/config=1,config1=2,config2=3,period=1000/",
	 "type=1,config=0x1,config1=0x2,config2=0x3,sample_period=1000,exclude_user=0,"
	 "exclude_kernel=1,exclude_hv=1"},
	{"software/config=1,freq=99/ukh",
	 "type=1,config=0x1,sample_freq=99,exclude_user=0,exclude_kernel=0,exclude_hv=0"},
	{"task-clock:HD", "type=1,config=0x1,exclude_user=0,exclude_kernel=1,exclude_hv=1,"
			  "exclude_guest=1,pinned=1"},
};

Test(event_parse, encoding)
{
	for (size_t i = 0; i < sizeof(encodings) / sizeof(encodings[0]); i++) {
		struct pmc_evlist *evlist = new_list(0);
		char buf[256], small[8];
		int n;

		cr_assert_eq(pmc_evlist__parse(evlist, encodings[i].in, NULL), 0, "%s",
			     encodings[i].in);
		n = pmc_evsel__encoding(pmc_evlist__at(evlist, 0), buf, sizeof(buf));
		cr_expect_str_eq(buf, encodings[i].enc);
		cr_expect_eq(n, (int)strlen(encodings[i].enc));
		/* Truncation still reports the length needed, like snprintf. */
		cr_expect_eq(pmc_evsel__encoding(pmc_evlist__at(evlist, 0), small, sizeof(small)),
			     n);
		cr_expect_eq(strlen(small), sizeof(small) - 1);
		pmc_evlist__delete(evlist);
	}
}

Test(event_parse, bad_backend)
{
	struct pmc_evlist_opts opts = {.sz = sizeof(opts), .backend = "nosuch"};
	struct pmc_evlist *evlist = (void *)1;

	cr_expect_eq(pmc_evlist__new(&opts, &evlist), -PMC_E_NOBACKEND);
	cr_expect_null(evlist);
	pmc_evlist__delete(NULL);
}
