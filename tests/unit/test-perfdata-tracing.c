// SPDX-License-Identifier: MIT
/*
 * perf's TRACING_DATA as pmc writes it (lib/perfdata/tracing-data.c), walked field by field as
 * perf 6.1's trace-event-read.c reads it: each format once, grouped by subsystem, ftrace's
 * apart, and nothing after saved_cmdlines.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/tracefs.h"
#include "perfdata/perfdata.h"

struct walk {
	const char *p;
	size_t off, len;
};

static uint64_t take_num(struct walk *w, size_t n)
{
	uint64_t v = 0;

	cr_assert_leq(w->off + n, w->len, "number at %zu runs past the end", w->off);
	memcpy(&v, w->p + w->off, n); /* little endian: the test runs where pmc writes */
	w->off += n;
	return v;
}

static const char *take_str(struct walk *w)
{
	const char *s = w->p + w->off;
	size_t n = strnlen(s, w->len - w->off);

	cr_assert_lt(w->off + n, w->len, "string at %zu runs past the end", w->off);
	w->off += n + 1;
	return s;
}

/* A file of size_bytes' size: its contents, which must start with prefix. */
static void take_file(struct walk *w, size_t size_bytes, const char *prefix)
{
	uint64_t n = take_num(w, size_bytes);

	cr_assert_leq(w->off + n, w->len, "file at %zu runs past the end", w->off);
	cr_expect(n >= strlen(prefix) && !memcmp(w->p + w->off, prefix, strlen(prefix)),
		  "file at %zu does not start with '%s'", w->off, prefix);
	w->off += n;
}

static void need_tracefs(void)
{
	const char *root = pmc__tracefs_root();
	char path[256];

	if (!root)
		cr_skip_test("tracefs is not mounted: no formats to write");
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_getppid/format", root);
	if (access(path, R_OK))
		cr_skip_test("no syscalls:sys_enter_getppid tracepoint here");
}

Test(perfdata_tracing, layout_as_perf_reads_it)
{
	const struct pmc__tp_path tps[] = {
		{"syscalls", "sys_enter_getppid"},
		{"sched", "sched_process_exit"},
		{"syscalls", "sys_exit_getppid"},
		{"syscalls", "sys_enter_getppid"}, /* recorded twice: one format */
	};
	struct walk w = {0};
	char *buf;

	need_tracefs();
	cr_assert_eq(pmc__perfdata_tracing_data(tps, 4, &buf, &w.len), 0);
	w.p = buf;
	cr_expect_eq(memcmp(buf, "\027\010\104tracing", 10), 0);
	w.off = 10;
	cr_expect_str_eq(take_str(&w), "0.6");
	cr_expect_eq(take_num(&w, 1), 0, "little endian");
	cr_expect_eq(take_num(&w, 1), sizeof(long));
	cr_expect_eq(take_num(&w, 4), (uint64_t)sysconf(_SC_PAGESIZE));
	cr_expect_str_eq(take_str(&w), "header_page");
	take_file(&w, 8, "\tfield: u64 timestamp;");
	cr_expect_str_eq(take_str(&w), "header_event");
	take_file(&w, 8, "");
	cr_expect_eq(take_num(&w, 4), 0, "no ftrace formats");
	cr_expect_eq(take_num(&w, 4), 2, "two systems");
	cr_expect_str_eq(take_str(&w), "syscalls");
	cr_expect_eq(take_num(&w, 4), 2, "two syscalls formats");
	take_file(&w, 8, "name: sys_enter_getppid\nID: ");
	take_file(&w, 8, "name: sys_exit_getppid\nID: ");
	cr_expect_str_eq(take_str(&w), "sched");
	cr_expect_eq(take_num(&w, 4), 1);
	take_file(&w, 8, "name: sched_process_exit\nID: ");
	cr_expect_eq(take_num(&w, 4), 0, "kallsyms: empty");
	take_file(&w, 4, ""); /* printk_formats */
	take_file(&w, 8, ""); /* saved_cmdlines */
	cr_expect_eq(w.off, w.len, "nothing after saved_cmdlines");
	free(buf);
}

Test(perfdata_tracing, refuses_what_is_no_tracefs_name)
{
	const struct pmc__tp_path bad[] = {{"syscalls", "../../../../etc/passwd"}};
	const struct pmc__tp_path dot[] = {{"..", "x"}};
	const struct pmc__tp_path none[] = {{"syscalls", "no_such_tracepoint_here"}};
	char *buf = (char *)1;
	size_t len = 1;

	cr_expect_eq(pmc__perfdata_tracing_data(bad, 1, &buf, &len), -EINVAL);
	cr_expect_null(buf);
	cr_expect_eq(len, 0);
	cr_expect_eq(pmc__perfdata_tracing_data(dot, 1, &buf, &len), -EINVAL);
	need_tracefs();
	cr_expect_eq(pmc__perfdata_tracing_data(none, 1, &buf, &len), -ENOENT);
	cr_expect_null(buf);
}
