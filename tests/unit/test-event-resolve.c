// SPDX-License-Identifier: MIT
/* Event names resolved from the machine: tracepoints through tracefs, libpfm4 names, and
 * suggestions. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>
#include <stdio.h>
#include <string.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include "event/evsel.h"
#include "event/parse.h"

static struct pmc_evlist *new_list(void)
{
	struct pmc_evlist *evlist;

	cr_assert_eq(pmc_evlist__new(NULL, &evlist), 0);
	return evlist;
}

static const char *need_tracepoint(const char *sub, const char *name)
{
	const char *dir = pmc__tp_events_dir();

	if (!dir)
		cr_skip_test("tracefs is not mounted: cannot resolve tracepoints here");
	if (!pmc__tp_exists(sub, name))
		cr_skip_test("tracepoint %s:%s does not exist on this kernel", sub, name);
	return dir;
}

static bool has_suggestion(const struct pmc_parse_error *err, const char *name)
{
	for (int i = 0; i < err->nr_suggest; i++)
		if (!strcmp(err->suggest[i], name))
			return true;
	return false;
}

Test(event_resolve, tracepoint_id_matches_tracefs)
{
	const char *dir = need_tracepoint("syscalls", "sys_enter_getppid");
	struct pmc_evlist *evlist = new_list();
	unsigned long long id = 0;
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/syscalls/sys_enter_getppid/id", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_eq(fscanf(f, "%llu", &id), 1);
	fclose(f);
	cr_assert_eq(pmc_evlist__parse(evlist, "syscalls:sys_enter_getppid:u", NULL), 0);
	const struct pmc_evsel *e = pmc_evlist__at(evlist, 0);
	cr_expect_eq(e->kind, PMC_EV_TRACEPOINT);
	cr_expect_eq(e->attr.type, PERF_TYPE_TRACEPOINT);
	cr_expect_eq(e->attr.config, id);
	cr_expect(e->attr.exclude_kernel && !e->attr.exclude_user);
	cr_expect_str_eq(pmc_evsel__name(e), "syscalls:sys_enter_getppid:u");
	pmc_evlist__delete(evlist);
}

/* A process out of descriptors is told so, not that the tracepoint is unknown. */
Test(event_resolve, tracepoint_read_failure_is_not_unknown)
{
	struct pmc_evlist *evlist;
	struct pmc_parse_error err;
	struct rlimit old, low;
	int fds[64], n = 0, ret1, ret2;

	need_tracepoint("syscalls", "sys_enter_getppid");
	evlist = new_list();
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = 64;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	while (n < 64 && (fds[n] = open("/dev/null", O_RDONLY)) >= 0)
		n++;
	ret1 = pmc_evlist__parse(evlist, "syscalls:sys_enter_getppid", &err);
	ret2 = pmc_evlist__parse(evlist, "syscalls:sys_enter_getpp*", NULL);
	while (n > 0)
		close(fds[--n]);
	setrlimit(RLIMIT_NOFILE, &old);
	cr_expect_eq(ret1, -EMFILE, "got %d: %s", ret1, err.msg);
	cr_expect(strstr(err.msg, "cannot read tracepoint 'syscalls:sys_enter_getppid'") &&
			  strstr(err.msg, "Too many open files"),
		  "message: %s", err.msg);
	cr_expect_eq(ret2, -EMFILE, "a glob too: got %d", ret2);
	pmc_evlist__delete(evlist);
}

Test(event_resolve, tracepoint_glob_expands)
{
	need_tracepoint("syscalls", "sys_enter_getppid");
	struct pmc_evlist *evlist = new_list();

	cr_assert_eq(pmc_evlist__parse(evlist, "{syscalls:sys_enter_getp*id}:k", NULL), 0);
	cr_assert_geq(pmc_evlist__nr(evlist), 2, "getpid and getppid at least");
	for (size_t i = 0; i < pmc_evlist__nr(evlist); i++) {
		const struct pmc_evsel *e = pmc_evlist__at(evlist, i);

		cr_expect_eq(e->kind, PMC_EV_TRACEPOINT);
		cr_expect_eq(strncmp(e->name, "syscalls:sys_enter_getp", 23), 0, "%s", e->name);
		cr_expect_eq(pmc_evsel__leader(e), pmc_evlist__at(evlist, 0));
		cr_expect(e->attr.exclude_user);
	}
	cr_expect_eq(pmc_evsel__group_size(pmc_evlist__at(evlist, 0)), pmc_evlist__nr(evlist));
	pmc_evlist__delete(evlist);
}

Test(event_resolve, tracepoint_typos)
{
	need_tracepoint("syscalls", "sys_enter_getpid");
	struct pmc_evlist *evlist = new_list();
	struct pmc_parse_error err;

	cr_assert_eq(pmc_evlist__parse(evlist, "cs,syscalls:sys_enter_getpidd", &err),
		     -PMC_E_UNKNOWN_EVENT);
	cr_expect_eq(err.offset, 3);
	cr_expect(has_suggestion(&err, "syscalls:sys_enter_getpid"), "%s / %d", err.suggest[0],
		  err.nr_suggest);
	cr_assert_eq(pmc_evlist__parse(evlist, "syscals:sys_enter_getpid", &err),
		     -PMC_E_UNKNOWN_EVENT);
	cr_expect(has_suggestion(&err, "syscalls:sys_enter_getpid"), "%s", err.suggest[0]);
	cr_assert_eq(pmc_evlist__parse(evlist, "syscalls:nomatch*", &err), -PMC_E_UNKNOWN_EVENT);
	cr_assert_eq(pmc_evlist__parse(evlist, "syscalls:", &err), -PMC_E_PARSE);
	cr_expect_eq(err.offset, 9);
	cr_expect_eq(pmc_evlist__nr(evlist), 0);
	pmc_evlist__delete(evlist);
}

struct row {
	const char *in;
	const char *want; /* expected among the suggestions */
};

static const struct row typos[] = {
	{"instructons", "instructions"},
	{"instrutions:u", "instructions"},
	{"L1-dcache-load-mises", "L1-dcache-load-misses"},
	{"task-clok", "task-clock"},
	{"branch-mises", "branch-misses"},
	{"cpu-migratons", "cpu-migrations"},
};

Test(event_resolve, suggestions)
{
	for (size_t i = 0; i < sizeof(typos) / sizeof(typos[0]); i++) {
		struct pmc_evlist *evlist = new_list();
		struct pmc_parse_error err;

		cr_expect_eq(pmc_evlist__parse(evlist, typos[i].in, &err), -PMC_E_UNKNOWN_EVENT,
			     "%s", typos[i].in);
		cr_expect(has_suggestion(&err, typos[i].want), "'%s': got '%s' (%d)", typos[i].in,
			  err.nr_suggest ? err.suggest[0] : "", err.nr_suggest);
		cr_expect_str_eq(err.suggest[0], typos[i].want);
		pmc_evlist__delete(evlist);
	}
}

static int first_cpu_name(const struct pmc_event_info *info, void *arg)
{
	if (info->kind != PMC_EV_SYMBOLIC)
		return 0;
	snprintf(arg, 256, "%s", info->name);
	return 1;
}

/* A CPU-specific name libpfm4 knows on this machine, or skip. */
static void need_pfm_name(struct pmc_evlist *evlist, char *name)
{
	if (pmc_evlist__for_each_known(evlist, first_cpu_name, name) != 1)
		cr_skip_test("[cap:no-pmu] libpfm4 detected no CPU PMU here (or the backend has no "
			     "CPU names)");
}

Test(event_resolve, cpu_names_with_modifiers)
{
	struct pmc_evlist *evlist = new_list();
	char name[256], str[600];
	const struct pmc_evsel *plain, *mod;

	need_pfm_name(evlist, name);
	snprintf(str, sizeof(str), "%s,%s:u:c=1:i", name, name);
	cr_assert_eq(pmc_evlist__parse(evlist, str, NULL), 0, "%s", str);
	plain = pmc_evlist__at(evlist, 0);
	mod = pmc_evlist__at(evlist, 1);
	cr_expect_eq(plain->kind, PMC_EV_SYMBOLIC);
	cr_expect_eq(mod->mods & (PMC_MOD_CMASK | PMC_MOD_INV), PMC_MOD_CMASK | PMC_MOD_INV);
	cr_expect_eq(mod->cmask, 1);
	cr_expect(mod->attr.exclude_kernel && !mod->attr.exclude_user);
	cr_expect_neq(plain->attr.config, mod->attr.config, "c=1:i must change the encoding");
	if (mod->attr.type == PERF_TYPE_RAW) /* x86 core PMUs: cmask 31:24, inv 23 */
		cr_expect_eq(mod->attr.config >> 23 & 0x1ff, 0x3, "%#llx", mod->attr.config);
	pmc_evlist__delete(evlist);
}

Test(event_resolve, intel_name_known_or_not)
{
	struct pmc_evlist *evlist = new_list();
	struct pmc_parse_error err;
	int ret = pmc_evlist__parse(evlist, "INST_RETIRED.ANY:u", &err);

	if (ret == 0) {
		cr_expect_eq(pmc_evsel__kind(pmc_evlist__at(evlist, 0)), PMC_EV_SYMBOLIC);
	} else {
		cr_expect_eq(ret, -PMC_E_UNKNOWN_EVENT, "%s", err.msg);
		cr_expect_eq(err.offset, 0);
		cr_expect_neq(strstr(err.msg, "INST_RETIRED"), NULL, "%s", err.msg);
	}
	pmc_evlist__delete(evlist);
}

Test(event_resolve, pfm_generic_pmu)
{
	struct pmc_evlist *evlist = new_list();
	struct pmc_parse_error err;
	int ret = pmc_evlist__parse(evlist, "perf::PERF_COUNT_HW_INSTRUCTIONS:k", &err);

	if (ret == -PMC_E_UNKNOWN_EVENT)
		cr_skip_test("libpfm4 unavailable: %s", err.msg);
	cr_assert_eq(ret, 0, "%s", err.msg);
	const struct pmc_evsel *e = pmc_evlist__at(evlist, 0);
	cr_expect_eq(e->kind, PMC_EV_SYMBOLIC);
	cr_expect_str_eq(e->symbol, "perf::PERF_COUNT_HW_INSTRUCTIONS");
	cr_expect_eq(e->attr.type, PERF_TYPE_HARDWARE);
	cr_expect_eq(e->attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	cr_expect(e->attr.exclude_user && !e->attr.exclude_kernel);
	pmc_evlist__delete(evlist);
}

/* A recorded tracepoint's tracefs names from its id (record's TRACING_DATA): by the event's
 * name when it leads with them, else by reading every tracepoint. */
Test(event_resolve, tracepoint_by_id)
{
	struct pmc_tp *tps, *tp;
	size_t nr;

	need_tracepoint("syscalls", "sys_enter_getppid");
	cr_assert_eq(pmc__tp_lookup("syscalls", "sys_enter_getppid", &tps, &nr), 0);
	cr_assert_eq(nr, 1);
	const char *hints[] = {"syscalls:sys_enter_getppid:u", "syscalls:sys_enter_getppid/nr=1/",
			       "renamed", "syscalls:sys_enter_getpid", NULL};
	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		cr_assert_eq(pmc__tp_by_id(tps[0].id, hints[i], &tp), 0, "hint %s", hints[i]);
		cr_expect_str_eq(tp->subsys, "syscalls");
		cr_expect_str_eq(tp->name, "sys_enter_getppid");
		cr_expect_eq(tp->id, tps[0].id);
		pmc__tp_free(tp, 1);
	}
	cr_expect_eq(pmc__tp_by_id(UINT64_MAX, "syscalls:sys_enter_getppid", &tp), -ENOENT);
	cr_expect_null(tp);
	pmc__tp_free(tps, nr);
}
