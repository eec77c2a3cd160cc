// SPDX-License-Identifier: MIT
/* Options structs that carry their size: older, equal, newer and NULL callers (core/opts.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>
#include "core/opts.h"

/* Three versions of one options struct, as an older, this and a newer libpmc define it. */
struct t_opts_v1 {
	size_t sz;
	int a;
};

struct t_opts {
	size_t sz;
	int a;
	const char *b;
	long c;
};

struct t_opts_v3 {
	size_t sz;
	int a;
	const char *b;
	long c;
	long d;
};

static char logged[2048];

static void capture(enum pmc_log_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(logged);

	vsnprintf(logged + len, sizeof(logged) - len, fmt, ap);
}

static void setup(void)
{
	logged[0] = '\0';
	pmc_set_print(capture);
}

TestSuite(opts, .init = setup);

/* dst starts as garbage: the copy must clear what the caller's struct does not set. */
static int copy(struct t_opts *dst, const void *src)
{
	memset(dst, 0xa5, sizeof(*dst));
	return PMC_OPTS_COPY(t_opts, dst, (const struct t_opts *)src, a);
}

Test(opts, smaller_struct_gets_defaults_for_missing_fields)
{
	struct t_opts_v1 v1 = {.sz = sizeof(v1), .a = 7};
	struct t_opts o;

	cr_assert_eq(copy(&o, &v1), 0);
	cr_expect_eq(o.sz, sizeof(o));
	cr_expect_eq(o.a, 7);
	cr_expect_null(o.b);
	cr_expect_eq(o.c, 0);
	cr_expect_str_empty(logged);
}

Test(opts, equal_struct_is_copied_whole)
{
	struct t_opts in = {.sz = sizeof(in), .a = 1, .b = "x", .c = -3};
	struct t_opts o;

	cr_assert_eq(copy(&o, &in), 0);
	cr_expect_eq(memcmp(&o, &in, sizeof(o)), 0);
}

Test(opts, larger_struct_with_zero_tail_is_accepted)
{
	struct t_opts_v3 v3 = {.sz = sizeof(v3), .a = 2, .b = "y", .c = 5};
	struct t_opts o;

	cr_assert_eq(copy(&o, &v3), 0);
	cr_expect_eq(o.sz, sizeof(o));
	cr_expect_eq(o.a, 2);
	cr_expect_str_eq(o.b, "y");
	cr_expect_eq(o.c, 5);
	cr_expect_str_empty(logged);
}

Test(opts, larger_struct_with_nonzero_tail_is_refused)
{
	struct t_opts_v3 v3 = {.sz = sizeof(v3), .a = 2, .d = 1};
	struct t_opts o;

	cr_assert_eq(copy(&o, &v3), -EINVAL);
	cr_expect_eq(o.sz, sizeof(o));
	cr_expect_eq(o.a, 0, "a refused struct leaves defaults, not half a copy");
	cr_expect(strstr(logged, "struct t_opts:"), "the warning names the struct: %s", logged);
	cr_expect(strstr(logged, "not zero"), "and says why: %s", logged);
}

Test(opts, null_means_defaults)
{
	struct t_opts o;

	cr_assert_eq(copy(&o, NULL), 0);
	cr_expect_eq(o.sz, sizeof(o));
	cr_expect_eq(o.a, 0);
	cr_expect_null(o.b);
	cr_expect_eq(o.c, 0);
}

Test(opts, size_below_first_version_is_refused)
{
	struct t_opts in = {.sz = offsetof(struct t_opts, a), .a = 1};
	struct t_opts o;

	cr_assert_eq(copy(&o, &in), -EINVAL);
	cr_expect(strstr(logged, "struct t_opts: sz is 8, smaller than its first version"), "%s",
		  logged);
	in.sz = 0;
	cr_expect_eq(copy(&o, &in), -EINVAL);
}

/* The public entry points apply the rule: a newer caller's option they cannot honour. */
Test(opts, public_structs_refuse_unknown_options)
{
	struct {
		struct pmc_evlist_opts o;
		long extra;
	} eo = {{.sz = sizeof(eo)}, 1};
	struct {
		struct pmc_report_opts o;
		long extra;
	} ro = {{.sz = sizeof(ro)}, 1};
	struct {
		struct pmc_record_opts o;
		long extra;
	} so = {{.sz = sizeof(so)}, 1};
	struct {
		struct pmc_target t;
		long extra;
	} t = {{.sz = sizeof(t), .kind = PMC_TARGET_SELF}, 1};
	struct pmc_evlist *evlist;
	struct pmc_report *r;
	struct pmc_record *rec;

	cr_expect_eq(pmc_evlist__new(&eo.o, &evlist), -EINVAL);
	cr_expect(strstr(logged, "struct pmc_evlist_opts:"), "%s", logged);
	cr_expect_eq(pmc_report__new(&ro.o, &r), -EINVAL);
	cr_expect(strstr(logged, "struct pmc_report_opts:"), "%s", logged);
	cr_assert_eq(pmc_evlist__new(NULL, &evlist), 0);
	cr_expect_eq(pmc_evlist__open(evlist, &t.t, -1), -EINVAL);
	cr_expect(strstr(logged, "struct pmc_target:"), "%s", logged);
	t.extra = 0;
	cr_expect_eq(pmc_record__open(evlist, &t.t, &so.o, &rec), -EINVAL);
	cr_expect(strstr(logged, "struct pmc_record_opts:"), "%s", logged);
	cr_expect_eq(pmc_region_setup(&(struct pmc_region_opts){.sz = 4}), -EINVAL);
	cr_expect(strstr(logged, "struct pmc_region_opts:"), "%s", logged);
	pmc_evlist__delete(evlist);
}

/* An older caller: the fields it lacks are defaults, and it works as before. */
Test(opts, public_structs_accept_older_callers)
{
	struct pmc_evlist_opts eo = {.sz = offsetofend(struct pmc_evlist_opts, priv)};
	struct pmc_report_opts ro = {.sz = offsetofend(struct pmc_report_opts, sort)};
	struct pmc_target t = {.sz = offsetofend(struct pmc_target, cpus)};
	struct pmc_evlist *evlist;
	struct pmc_report *r;

	cr_assert_eq(pmc_evlist__new(&eo, &evlist), 0);
	cr_expect_str_eq(pmc_evlist__backend(evlist), "perf");
	cr_assert_eq(pmc_evlist__parse(evlist, "task-clock", NULL), 0);
	cr_expect_eq(pmc_evlist__open(evlist, &t, -1), 0, "%s", logged);
	pmc_evlist__delete(evlist);
	cr_assert_eq(pmc_report__new(&ro, &r), 0, "%s", logged);
	pmc_report__delete(r);
	cr_expect_str_empty(logged);
}
