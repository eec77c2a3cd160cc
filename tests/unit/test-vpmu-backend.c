// SPDX-License-Identifier: MIT
/*
 * The vpmu backend: its event table (generated from data/vpmu/events.tsv), encodings of every
 * event syntax on both models, reasons for what cannot be counted, and exact counts of a
 * command under valgrind --tool=vpmu through the public counting API (skipped without the
 * tool).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>
#include <vpmu/protocol.h>
#include "backend/vpmu/events.h"

static struct pmc_evlist *vpmu_list(const char *str, int *err, char *msg, size_t len)
{
	struct pmc_evlist_opts o = {.sz = sizeof(o), .backend = "vpmu"};
	struct pmc_parse_error perr;
	struct pmc_evlist *l;

	cr_assert_eq(pmc_evlist__new(&o, &l), 0);
	*err = pmc_evlist__parse(l, str, &perr);
	if (msg)
		snprintf(msg, len, "%s", perr.msg);
	return l;
}

/* Two rows of a model with the same encoding: the data file forbids it (gen-events.py). */
static bool same_encoding(const struct vpmu_event *a, const struct vpmu_event *b)
{
	return a->model == b->model && a->event == b->event && a->umask == b->umask &&
	       a->cmask == b->cmask && a->inv == b->inv && a->edge == b->edge;
}

/* The table generated from data/vpmu/events.tsv, then the rows libpmc adds: each row
 * well-formed and found again by its name and its code, no encoding twice in a model. */
Test(vpmu_table, well_formed)
{
	size_t nr_data = 0, nr_model[3] = {0};

	for (size_t i = 0; i < pmc__vpmu_nr_events; i++) {
		const struct vpmu_event *e = &pmc__vpmu_events[i], *found;

		cr_assert(e->model == VPMU_MODEL_COREI7 || e->model == VPMU_MODEL_PENTIUM,
			  "row %zu", i);
		cr_assert(e->name && *e->name && e->desc && *e->desc, "row %zu", i);
		cr_expect_leq(e->kind, VPMU_EV_UNSUPPORTED, "%s", e->name);
		if (e->model == VPMU_MODEL_PENTIUM)
			cr_expect(!e->umask && !e->cmask && !e->inv && !e->edge, "%s", e->name);
		nr_model[e->model]++;
		if (e->extra)
			continue;
		cr_expect_eq(nr_data++, i, "%s: a row of the data file after libpmc's", e->name);
		found = pmc__vpmu_event_find(e->model, e->name);
		cr_expect(found && !strcmp(found->name, e->name) && found->kind == e->kind, "%s",
			  e->name);
		found = pmc__vpmu_event_find_code(e->model, e->event, e->umask);
		cr_expect(found && found->event == e->event && found->umask == e->umask, "%s",
			  e->name);
		for (size_t j = 0; j < i; j++)
			cr_expect(!same_encoding(e, &pmc__vpmu_events[j]),
				  "%s has the encoding of %s", e->name, pmc__vpmu_events[j].name);
	}
	cr_expect_gt(nr_model[VPMU_MODEL_COREI7], 0);
	cr_expect_gt(nr_model[VPMU_MODEL_PENTIUM], 0);
	cr_expect_eq(pmc__vpmu_nr_events - nr_data, 4,
		     "libpmc adds 4 rows: the 3 fixed counters and the Pentium's clocks");
}

struct enc_case {
	const char *model; /* PMC_VPMU_MODEL */
	const char *event;
	int fixed;	/* expected fixed counter, -1 for a general one */
	uint64_t value; /* expected PerfEvtSel / ES|CC, or the fixed control field */
};

/* USR|EN and USR|OS|EN bits of a Core i7 PerfEvtSel. */
#define U 0x410000ULL
#define UO 0x430000ULL

static const struct enc_case enc_cases[] = {
	{"corei7", "instructions", 0, 0x2},
	{"corei7", "cycles", 1, 0x2},
	{"corei7", "ref-cycles", 2, 0x2},
	{"corei7", "INST_RETIRED.ANY", 0, 0x2},
	{"corei7", "INST_RETIRED.ANY:uk", 0, 0x3},
	{"corei7", "INST_RETIRED.ANY:c=1", -1, U | 0x010001c0},
	{"corei7", "INST_RETIRED.ANY_P", -1, U | 0x01c0},
	{"corei7", "inst_retired.any_p", -1, U | 0x01c0},
	{"corei7", "INST_RETIRED:ANY_P", -1, U | 0x01c0},
	{"corei7", "branches", -1, U | 0x00c4},
	{"corei7", "branch-misses", -1, U | 0x00c5},
	{"corei7", "cache-misses", -1, U | 0x412e},
	{"corei7", "L1-dcache-load-misses", -1, U | 0x0140},
	{"corei7", "L1-icache-load-misses", -1, U | 0x0280},
	{"corei7", "dTLB-load-misses", -1, U | 0x0108},
	{"corei7", "iTLB-load-misses", -1, U | 0x0185},
	{"corei7", "LLC-load-misses", -1, U | 0x10cb},
	{"corei7", "MEM_LOAD_RETIRED.L1D_HIT", -1, U | 0x01cb},
	{"corei7", "BR_MISP_RETIRED.ALL_BRANCHES:u:c=1:i", -1, U | 0x018000c5},
	{"corei7", "UOPS_RETIRED.STALL_CYCLES", -1, U | 0x018001c2},
	{"corei7", "UOPS_EXECUTED.CORE_STALL_CYCLES:e=1", -1, U | 0x01843fb1}, /* libpfm4 e=1 */
	{"corei7", "INST_RETIRED:ANY_P:c=1:i=1", -1, U | 0x018001c0},
	{"corei7", "r01c4", -1, U | 0x01c4},
	{"corei7", "r01c4:uk", -1, UO | 0x01c4},
	{"corei7", "r0388", -1, U | 0x0388}, /* an OR of two BR_INST_EXEC conditions */
	{"corei7", "vpmu/event=0xc4,umask=0x1/", -1, U | 0x01c4},
	{"corei7", "vpmu/r1c4/", -1, U | 0x01c4},			/* a raw term is config */
	{"corei7", "vpmu/config=0x1c0,event=0xc4/", -1, U | 0x01c4},	/* terms in order */
	{"corei7", "INST_RETIRED.ANY_P/config=0x1c4/", -1, U | 0x01c4}, /* config replaces */
	{"corei7", "vpmu/event=0xc2,umask=1,cmask=1,inv,edge/", -1, U | 0x01c401c2},
	{"pentium", "instructions", -1, 0x16 | 2 << 6},
	{"pentium", "cycles", -1, 0x16 | 6 << 6},
	{"pentium", "data_read", -1, 0x00 | 2 << 6},
	{"pentium", "misaligned_data_memory_or_IO_references:uk", -1, 0x0b | 3 << 6},
	{"pentium", "branch-misses", -1, 0x15 | 2 << 6},
	{"pentium", "r22", -1, 0x22 | 2 << 6},
};

static void check_encoding(const struct enc_case *c)
{
	struct vpmu_enc enc;
	char why[256] = "", msg[256];
	int err;
	struct pmc_evlist *l;

	setenv("PMC_VPMU_MODEL", c->model, 1);
	l = vpmu_list(c->event, &err, msg, sizeof(msg));
	cr_assert_eq(err, 0, "%s: %s", c->event, msg);
	err = pmc__vpmu_encode(pmc_evlist__at(l, 0), pmc__vpmu_model(), &enc, why, sizeof(why));
	cr_assert_eq(err, 0, "%s: %s", c->event, why);
	cr_expect_eq(enc.fixed, c->fixed, "%s: fixed %d", c->event, enc.fixed);
	cr_expect_eq(c->fixed >= 0 ? enc.fixed_ctrl : enc.config, c->value, "%s: 0x%llx", c->event,
		     (unsigned long long)(c->fixed >= 0 ? enc.fixed_ctrl : enc.config));
	pmc_evlist__delete(l);
}

/* Criterion's parameterized tests cannot carry pointers: one test walks the table. */
Test(vpmu_encode, table)
{
	for (size_t i = 0; i < sizeof(enc_cases) / sizeof(enc_cases[0]); i++)
		check_encoding(&enc_cases[i]);
}

struct why_case {
	const char *model;
	const char *event;
	const char *reason; /* a substring of the verdict; NULL: the name does not resolve */
};

static const struct why_case why_cases[] = {
	{"corei7", "UOPS_EXECUTED.PORT0", "execution-port"},
	{"corei7", "RESOURCE_STALLS.RS_FULL", "reservation station"},
	{"corei7", "task-clock", "software events"},
	{"corei7", "L1-dcache-prefetches", "prefetcher"},
	{"corei7", "instructions:k", "user-level code only"},
	{"corei7", "vpmu/event=0xc4,umask=1,inv/", "counter mask"},
	{"corei7", "r0199", "unknown to the vpmu Core i7 model"},
	{"corei7", "r3088", "BR_INST_EXEC"},	  /* 0x88 bits 0x10|0x20 are supported ... */
	{"corei7", "r8088", "no such condition"}, /* ... bit 0x80 is not */
	{"corei7", "r100000000c0", "reserved"},
	{"pentium", "bank_conflicts", "cache banks"},
	{"pentium", "LLC-loads", "no last-level cache"},
	{"pentium", "data_read:c=1", "no counter mask"},
	{"corei7", "NO_SUCH_EVENT.ANY", NULL},
	{"corei7", "data_read", NULL},
	{"pentium", "INST_RETIRED.ANY", NULL},
};

static void check_reason(const struct why_case *c)
{
	char why[256] = "", msg[256];
	struct pmc_evlist *l;
	int err;

	setenv("PMC_VPMU_MODEL", c->model, 1);
	l = vpmu_list(c->event, &err, msg, sizeof(msg));
	if (!c->reason) {
		cr_expect_eq(err, -PMC_E_UNKNOWN_EVENT, "%s resolved", c->event);
		cr_expect(strstr(msg, "vpmu") || strstr(msg, "unknown"), "%s: %s", c->event, msg);
		pmc_evlist__delete(l);
		return;
	}
	cr_assert_eq(err, 0, "%s: %s", c->event, msg);
	err = pmc_evsel__check(pmc_evlist__at(l, 0), why, sizeof(why));
	if (!strcmp(c->event, "r3088"))
		cr_expect(err == 0 || err == -PMC_E_NOVPMU, "%s: %s", c->event, why);
	else
		cr_expect(err < 0 && strstr(why, c->reason), "%s: '%s'", c->event, why);
	pmc_evlist__delete(l);
}

Test(vpmu_check, reasons)
{
	for (size_t i = 0; i < sizeof(why_cases) / sizeof(why_cases[0]); i++)
		check_reason(&why_cases[i]);
}

Test(vpmu_check, other_model_name_says_so)
{
	char msg[256];
	int err;
	struct pmc_evlist *l;

	setenv("PMC_VPMU_MODEL", "pentium", 1);
	l = vpmu_list("BR_INST_RETIRED.ALL_BRANCHES", &err, msg, sizeof(msg));
	cr_expect_eq(err, -PMC_E_UNKNOWN_EVENT);
	cr_expect(strstr(msg, "PMC_VPMU_MODEL"), "%s", msg);
	pmc_evlist__delete(l);
}

Test(vpmu_plan, counters_and_passes)
{
	struct pmc_evlist *l;
	int err, passes;

	unsetenv("PMC_VPMU_MODEL");
	l = vpmu_list("instructions,cycles,branches,branch-misses,cache-references,cache-misses,"
		      "L1-dcache-loads,L1-dcache-load-misses",
		      &err, NULL, 0);
	cr_assert_eq(err, 0);
	if (!pmc_caps__backend(pmc_caps(), "vpmu")->usable)
		cr_skip_test("vpmu tool not available: %s",
			     pmc_caps__backend(pmc_caps(), "vpmu")->why);
	cr_assert_eq(pmc_evlist__plan(l, false, &passes), 0);
	cr_expect_eq(passes, 2, "8 events (2 fixed, 6 general) on 3 + 4 counters");
	cr_expect_str_eq(pmc_evsel__resource(pmc_evlist__at(l, 0)), "fixed counter");
	cr_expect_str_eq(pmc_evsel__resource(pmc_evlist__at(l, 2)), "general counter");
	pmc_evlist__delete(l);
}

/* Each fixed counter counts one event: a second event for the same fixed counter takes a
 * general one (cycles and cpu-cycles both want fixed counter 1), so these 6 events need 5
 * general counters and two passes; counting the fixed counters as a pool of 3 planned one
 * pass that the backend then could not assign. */
Test(vpmu_plan, one_event_per_fixed_counter)
{
	struct pmc_evlist *l;
	int err, passes;

	unsetenv("PMC_VPMU_MODEL");
	l = vpmu_list("cycles,cpu-cycles,branches,branch-misses,cache-references,cache-misses",
		      &err, NULL, 0);
	cr_assert_eq(err, 0);
	if (!pmc_caps__backend(pmc_caps(), "vpmu")->usable)
		cr_skip_test("vpmu tool not available: %s",
			     pmc_caps__backend(pmc_caps(), "vpmu")->why);
	cr_assert_eq(pmc_evlist__plan(l, false, &passes), 0);
	cr_expect_eq(passes, 2,
		     "cycles twice: one fixed and five general counters, got %d pass(es)", passes);
	pmc_evlist__delete(l);
}

/* Runs vpmu-loop MODE N under vpmu; values of every event, in list order. */
static void run_loop(const char *events, const char *mode, const char *n, uint64_t *out)
{
	char prog[512];
	char *argv[] = {prog, (char *)mode, (char *)n, NULL};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	struct pmc_evlist *l;
	int err, passes, status;

	snprintf(prog, sizeof(prog), "%s/vpmu-loop", PMC_PROGS_DIR);
	l = vpmu_list(events, &err, NULL, 0);
	cr_assert_eq(err, 0);
	cr_assert_eq(pmc_evlist__plan(l, false, &passes), 0);
	for (int p = 0; p < passes; p++) {
		cr_assert_eq(pmc_evlist__open(l, &t, p), 0);
		cr_assert_eq(pmc_evlist__start(l), 0);
		cr_assert_eq(pmc_evlist__wait(l, &status), 0);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		cr_assert_eq(pmc_evlist__read(l), 0);
		for (size_t i = 0; i < pmc_evlist__nr(l); i++) {
			struct pmc_count c;

			if (pmc_evsel__pass(pmc_evlist__at(l, i)) != p)
				continue;
			cr_assert_eq(pmc_evsel__count(pmc_evlist__at(l, i), &c), 0);
			cr_expect_eq(c.time_enabled_ns, c.time_running_ns, "never scaled");
			out[i] = c.value;
		}
		pmc_evlist__close(l);
	}
	pmc_evlist__delete(l);
}

Test(vpmu_count, exact_differences_of_k_iterations, .timeout = 120)
{
	const char *ev = "instructions,branches,BR_INST_RETIRED.CONDITIONAL,INST_RETIRED.ANY_P,"
			 "cycles,MEM_INST_RETIRED.LOADS,L1-dcache-load-misses";
	uint64_t a[7], b[7], c[7];

	unsetenv("PMC_VPMU_MODEL");
	if (!pmc_caps__backend(pmc_caps(), "vpmu")->usable)
		cr_skip_test("vpmu tool not available: %s",
			     pmc_caps__backend(pmc_caps(), "vpmu")->why);
	run_loop(ev, "loop", "100000", a);
	run_loop(ev, "loop", "200000", b);
	run_loop(ev, "loop", "100000", c);
	cr_expect_eq(b[0] - a[0], 400000, "instructions: 4 per iteration");
	cr_expect_eq(b[1] - a[1], 100000, "branches: 1 per iteration");
	cr_expect_eq(b[2] - a[2], 100000, "conditional branches: 1 per iteration");
	cr_expect_eq(b[3], b[0], "fixed and general instruction counters agree");
	cr_expect_geq(b[4], b[0], "cycles: at least one per instruction");
	cr_expect_eq(b[5], a[5], "the loop does no loads");
	cr_expect_eq(memcmp(a, c, sizeof(a)), 0, "two runs of the same command count the same");
}

Test(vpmu_count, only_commands_and_self_under_vpmu)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_CPUS};
	struct pmc_evlist *l;
	int err, passes;

	unsetenv("PMC_VPMU_MODEL");
	if (!pmc_caps__backend(pmc_caps(), "vpmu")->usable)
		cr_skip_test("vpmu tool not available: %s",
			     pmc_caps__backend(pmc_caps(), "vpmu")->why);
	l = vpmu_list("instructions", &err, NULL, 0);
	cr_assert_eq(pmc_evlist__plan(l, false, &passes), 0);
	cr_expect_eq(pmc_evlist__open(l, &t, 0), -EOPNOTSUPP);
	t.kind = PMC_TARGET_SELF; /* this test does not run under vpmu */
	cr_expect_eq(pmc_evlist__open(l, &t, 0), -EOPNOTSUPP);
	pmc_evlist__delete(l);
}
