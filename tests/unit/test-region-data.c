// SPDX-License-Identifier: MIT
/* The region record reader (docs/regions.md): a table of records and their verdicts, merging. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>
#include "region/proto.h"
#include "region/region.h"

/* A body and its header's length must agree; rec() builds the header from the body. */
static char *rec(const char *body)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "PMC-REGIONS 1 %zu\n%s", strlen(body), body);
	return buf;
}

#define BODY_OK                                                        \
	"process 10 2 0 0\nevent a%3Ab\nevent task-clock\nthread 11\n" \
	"region #0 0 1 1 0 0 5 7\nregion 100 my%20loop 100 100 0 0 1000 9\nend\n"

struct row {
	const char *body; /* NULL: use raw */
	const char *raw;
	int expect; /* records parsed, or the error */
};

static const struct row rows[] = {
	{BODY_OK, NULL, 1},
	{NULL, "", 0},
	{NULL, "PMC-REGIONS 2 5\nxxxxx", -PMC_E_VERSION},
	{NULL, "PMC-REGION 1 4\nend\n", -PMC_E_FORMAT},
	{NULL, "PMC-REGIONS 1 400\nprocess 1 0 0 0\nend\n", -PMC_E_TRUNCATED},
	{NULL, "PMC-REGIONS 1 4", -PMC_E_TRUNCATED},
	{"process 1 0 0 0\n", NULL, -PMC_E_FORMAT}, /* no end */
	{"process 1 0 0 0\nend\n", NULL, 1},
	{"process x 0 0 0\nend\n", NULL, -PMC_E_FORMAT},
	{"process 1 1 0 0\nend\n", NULL, -PMC_E_FORMAT}, /* an event missing */
	{"process 1 1 0 0\nevent e\nregion #0 0 1 1 0 0 5\nend\n", NULL, -PMC_E_FORMAT},
	{"process 1 1 0 0\nevent e\nthread 2\nregion #0 0 1 1 0 0\nend\n", NULL, -PMC_E_FORMAT},
	{"process 1 1 0 0\nevent e\nthread 2\nregion #0 0 1 1 0 0 5 6\nend\n", NULL, -PMC_E_FORMAT},
	{"process 1 1 0 0\nevent e\nthread 2\nregion 100 a%zz 1 1 0 0 5\nend\n", NULL,
	 -PMC_E_FORMAT},
	{"process 1 1 0 0\nevent e\nfuture 1 2 3\nthread 2\nregion 100 a 1 1 0 0 5\nend\n", NULL,
	 1},
	{"process 1 1 0 0\nevent e\nthread 2\nregion 100 a 1 1 0 0 -5\nend\n", NULL, -PMC_E_FORMAT},
	/* "named": entries of the region above made with the named marker, at most entered */
	{"process 1 1 0 0\nevent e\nthread 2\nregion 100 a 3 3 0 0 5\nnamed 3\nend\n", NULL, 1},
	{"process 1 1 0 0\nevent e\nthread 2\nregion 100 a 3 3 0 0 5\nnamed 4\nend\n", NULL,
	 -PMC_E_FORMAT},
	{"process 1 1 0 0\nevent e\nthread 2\nnamed 1\nend\n", NULL, -PMC_E_FORMAT},
	{"process 1 1 0 0\nevent e\nthread 2\nregion 100 a 3 3 0 0 5\nnamed 1 2\nend\n", NULL,
	 -PMC_E_FORMAT},
	/* The runner's file: its pass header (protocol 3), then the records. */
	{NULL, "PMC-PASS 3 9\nevents e\n", 0},
	{NULL, "PMC-PASS 3 9\nevents e\nPMC-REGIONS 1 20\nprocess 1 0 0 0\nend\n", 1},
	{NULL, "PMC-PASS 3 13\nevents e\nx y\n", 0}, /* other keys skipped */
	{NULL, "PMC-PASS 2 9\nevents e\n", -PMC_E_VERSION},
	{NULL, "PMC-PASS 4 9\nevents e\n", -PMC_E_VERSION},
	{NULL, "PMC-PASS 3 90\nevents e\n", -PMC_E_TRUNCATED},
	{NULL, "PMC-PASS 3 9", -PMC_E_TRUNCATED},
	{NULL, "PMC-PASS 3 x\nevents e\n", -PMC_E_FORMAT},
	{NULL, "PMC-PASS 3 -9\nevents e\n", -PMC_E_FORMAT},
	{NULL, "PMC-REGIONS 1 20\nprocess 1 0 0 0\nend\nPMC-PASS 3 9\nevents e\n", -PMC_E_FORMAT},
};

Test(region_data, table)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_region_data *d;
		const char *in = rows[i].body ? rec(rows[i].body) : rows[i].raw;

		cr_assert_eq(pmc_region_data__new(&d), 0);
		cr_expect_eq(pmc_region_data__parse(d, in, strlen(in)), rows[i].expect,
			     "row %zu: got %d, expected %d", i,
			     pmc_region_data__parse(d, in, strlen(in)), rows[i].expect);
		pmc_region_data__delete(d);
	}
}

Test(region_data, fields_and_order)
{
	struct pmc_region_data *d;
	struct pmc_region_values v;
	const char *in = rec(BODY_OK);
	int pid, tid;

	cr_assert_eq(pmc_region_data__new(&d), 0);
	cr_assert_eq(pmc_region_data__parse(d, in, strlen(in)), 1);
	cr_expect_eq(pmc_region_data__nr_events(d), 2);
	cr_expect_str_eq(pmc_region_data__event(d, 0), "a:b");
	cr_expect_eq(pmc_region_data__nr_regions(d), 2);
	cr_assert_eq(pmc_region_data__get(d, 0, -1, &v), 0);
	cr_expect_str_eq(v.name, "0");
	cr_expect_eq(v.entered, 1);
	cr_expect_eq(v.exited, 1);
	cr_expect_eq(v.values[1], 7);
	cr_assert_eq(pmc_region_data__get(d, 1, 0, &v), 0);
	cr_expect_str_eq(v.name, "my loop");
	cr_expect_eq(v.values[0], 1000);
	cr_expect_eq(pmc_region_data__thread(d, 0, &pid, &tid), 0);
	cr_expect_eq(pid, 10);
	cr_expect_eq(tid, 11);
	cr_expect_eq(pmc_region_data__get(d, 2, -1, &v), -EINVAL);
	pmc_region_data__delete(d);
}

Test(region_data, merges_processes_by_name_and_rejects_other_events)
{
	struct pmc_region_data *d;
	struct pmc_region_values v;
	char two[2048];
	const char *other =
		"process 30 1 0 0\nevent other\nthread 31\nregion 100 x 1 1 0 0 1\nend\n";
	int tid;

	strcpy(two, rec("process 20 1 0 0\nevent e\nthread 22\nregion 100 x 2 2 0 0 20\nend\n"));
	strcat(two, rec("process 21 1 1 0\nevent e\nthread 21\nregion 101 x 3 2 1 0 30\n"
			"region 102 z 1 1 0 0 1\nend\n"));
	cr_assert_eq(pmc_region_data__new(&d), 0);
	cr_assert_eq(pmc_region_data__parse(d, two, strlen(two)), 2);
	cr_expect_eq(pmc_region_data__nr_regions(d), 2);
	cr_expect_eq(pmc_region_data__nr_threads(d), 2);
	cr_assert_eq(pmc_region_data__get(d, 0, -1, &v), 0);
	cr_expect_eq(v.entered, 5);
	cr_expect_eq(v.exited, 4);
	cr_expect_eq(v.open_at_exit, 1);
	cr_expect_eq(v.values[0], 50);
	pmc_region_data__thread(d, 0, NULL, &tid);
	cr_expect_eq(tid, 22, "threads are ordered by pid");
	cr_assert_eq(pmc_region_data__get(d, 0, 0, &v), 0);
	cr_expect_eq(v.values[0], 20);
	cr_expect_eq(pmc_region_data__parse(d, rec(other), strlen(rec(other))), -PMC_E_PROTOCOL);
	cr_expect_eq(pmc_region_data__nr_threads(d), 2, "a rejected record adds nothing");
	pmc_region_data__delete(d);
}

Test(region_data, a_bad_record_is_counted_and_the_next_ones_are_read)
{
	struct pmc_region_data *d;
	struct pmc_region_values v;
	char buf[2048];

	strcpy(buf, rec("process 20 1 0 0\nevent e\nthread 22\nregion 100 x 2 2 0 0 20\nend\n"));
	strcat(buf, "PMC-REGIONS 1 4\nbad\n");
	strcat(buf, rec("process 21 1 0 0\nevent e\nthread 21\nregion 100 x 3 3 0 0 30\nend\n"));
	strcat(buf, rec("process 22 1 0 0\nevent other\nthread 23\nregion 100 x 1 1 0 0 1\nend\n"));
	cr_assert_eq(pmc_region_data__new(&d), 0);
	cr_expect_eq(pmc_region_data__parse(d, buf, strlen(buf)), -PMC_E_FORMAT,
		     "the first error is returned");
	cr_expect_eq(pmc_region_data__nr_lost(d), 2, "the malformed and the other-events record");
	cr_expect_eq(pmc_region_data__nr_threads(d), 2);
	cr_assert_eq(pmc_region_data__get(d, 0, -1, &v), 0);
	cr_expect_eq(v.entered, 5, "both good records are counted");
	cr_expect_eq(v.values[0], 50);
	/* An unframed rest (no header: cut short) is one record lost, at least, and ends the read.
	 */
	strcpy(buf, "garbage without a header");
	cr_expect_eq(pmc_region_data__parse(d, buf, strlen(buf)), -PMC_E_TRUNCATED);
	cr_expect_eq(pmc_region_data__nr_lost(d), 3);
	pmc_region_data__delete(d);
}

/*
 * A process says it started to count before it has results: one whose results never come
 * (_exit(), a crash, SIGKILL) is a lost record; one whose results came is not.
 */
Test(region_data, a_started_process_without_results_is_a_lost_record)
{
	struct pmc_region_data *d;
	struct pmc_region_values v;
	char buf[2048];

	strcpy(buf, rec("process 0000000030 0 0 0\nstarted\nend\n"));
	strcat(buf, rec("process 0000000031 0 0 0\nstarted\nend\n"));
	strcat(buf, rec("process 30 1 0 0\nevent e\nthread 30\nregion 100 x 2 2 0 0 20\nend\n"));
	cr_assert_eq(pmc_region_data__new(&d), 0);
	cr_expect_eq(pmc_region_data__parse(d, buf, strlen(buf)), 3);
	cr_expect_eq(pmc_region_data__nr_lost(d), 1, "process 31 never wrote its results");
	cr_expect_eq(pmc_region_data__nr_regions(d), 1, "a started record adds no region");
	cr_assert_eq(pmc_region_data__get(d, 0, -1, &v), 0);
	cr_expect_eq(v.entered, 2);
	/* its own length: "process " + ten digits + " 0 0 0\nstarted\nend\n" */
	cr_expect_eq(pmc__region_start_record(buf, sizeof(buf)), 17 + 37);
	cr_expect_eq(pmc__region_start_record(buf, 20), 0, "too small a buffer: nothing");
	pmc_region_data__delete(d);
}

/* The pass header as the command reads it (lib/region/pass.c): its keys, whatever their order. */
static int pass_of(const char *body, struct pmc__region_pass *p)
{
	int fd = memfd_create("pass", MFD_CLOEXEC);
	char buf[512];
	int err;

	cr_assert_geq(fd, 0);
	snprintf(buf, sizeof(buf), "PMC-PASS 3 %zu\n%s", strlen(body), body);
	cr_assert_eq(write(fd, buf, strlen(buf)), (ssize_t)strlen(buf));
	err = pmc__region_pass_read(fd, p);
	cr_expect_eq(lseek(fd, 0, SEEK_CUR), (off_t)strlen(buf), "read with pread: offset kept");
	close(fd);
	return err;
}

Test(region_data, the_pass_header_tells_events_backend_and_privilege)
{
	struct pmc_region_pass_case {
		const char *body;
		int err;
		const char *events, *backend;
		unsigned priv;
	} cases[] = {
		{"events a,b\npriv 1\nbackend vpmu\n", 0, "a,b", "vpmu", 1},
		{"backend vpmu\nfuture x\npriv 3\nevents {a,b}\n", 0, "{a,b}", "vpmu", 3},
		{"events e\n", 0, "e", NULL, 0},
		{"events e\nevents f\npriv 2\npriv 1\n", 0, "e", NULL, 2}, /* the first line wins */
		{"priv 1\n", -PMC_E_FORMAT, NULL, NULL, 0},
		{"events \n", -PMC_E_FORMAT, NULL, NULL, 0},
		{"events e\nbackend \n", -PMC_E_FORMAT, NULL, NULL, 0},
		{"events e\npriv -1\n", -PMC_E_FORMAT, NULL, NULL, 0},
		{"events e\npriv 1x\n", -PMC_E_FORMAT, NULL, NULL, 0},
		{"events e\npriv 99999999999999999999\n", -PMC_E_FORMAT, NULL, NULL, 0},
		{"events e\npriv\n", 0, "e", NULL, 0}, /* "priv" alone is another key: skipped */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmc__region_pass p = {.events = (char *)"stale"};
		int err = pass_of(cases[i].body, &p);

		cr_expect_eq(err, cases[i].err, "case %zu: %d", i, err);
		if (!cases[i].events) {
			cr_expect_null(p.events, "case %zu: nothing on an error", i);
			continue;
		}
		cr_expect_str_eq(p.events, cases[i].events, "case %zu", i);
		if (cases[i].backend)
			cr_expect_str_eq(p.backend, cases[i].backend, "case %zu", i);
		else
			cr_expect_null(p.backend, "case %zu", i);
		cr_expect_eq(p.priv, cases[i].priv, "case %zu", i);
		pmc__region_pass_free(&p);
	}
}

Test(region_data, named_entries_are_summed_over_processes_and_kept_per_thread)
{
	struct pmc_region_data *d;
	char two[512];
	uint64_t n = 99;
	const char *a =
		"process 1 1 0 0\nevent e\nthread 1\nregion 100 r 4 4 0 0 8\nnamed 3\nend\n";
	const char *b = "process 2 1 0 0\nevent e\nthread 2\nregion 100 r 2 2 0 0 8\nend\n";

	snprintf(two, sizeof(two), "%s", rec(a));
	snprintf(two + strlen(two), sizeof(two) - strlen(two), "%s", rec(b));
	cr_assert_eq(pmc_region_data__new(&d), 0);
	cr_assert_eq(pmc_region_data__parse(d, two, strlen(two)), 2);
	cr_assert_eq(pmc_region_data__named_entries(d, 0, -1, &n), 0);
	cr_expect_eq(n, 3, "named entries over both processes: %lu", (unsigned long)n);
	cr_assert_eq(pmc_region_data__named_entries(d, 0, 1, &n), 0);
	cr_expect_eq(n, 0, "the second process named none");
	cr_expect_eq(pmc_region_data__named_entries(d, 1, -1, &n), -EINVAL);
	pmc_region_data__delete(d);
}

/*
 * A record of more events than 4,096 (the reader's old cap, which the writer never had) is
 * read; a count of events its body cannot hold is refused before anything is allocated.
 */
Test(region_data, a_record_of_5000_events_is_read)
{
	size_t n = 5000, cap = 64 * n + 256, len;
	char *body = malloc(cap), *buf = malloc(cap + 64);
	struct pmc_region_data *d;
	struct pmc_region_values v;

	cr_assert(body && buf);
	len = (size_t)snprintf(body, cap, "process 10 %zu 0 0\n", n);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(body + len, cap - len, "event e%zu\n", i);
	len += (size_t)snprintf(body + len, cap - len, "thread 11\nregion 1 r 1 1 0 0");
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(body + len, cap - len, " %zu", i);
	len += (size_t)snprintf(body + len, cap - len, "\nend\n");
	len = (size_t)snprintf(buf, cap + 64, "PMC-REGIONS 1 %zu\n%s", len, body);
	cr_assert_eq(pmc_region_data__new(&d), 0);
	cr_assert_eq(pmc_region_data__parse(d, buf, len), 1);
	cr_expect_eq(pmc_region_data__nr_events(d), n);
	cr_assert_eq(pmc_region_data__get(d, 0, -1, &v), 0);
	cr_expect_eq(v.values[n - 1], n - 1);
	pmc_region_data__delete(d);
	free(body);
	free(buf);

	const char *huge = rec("process 10 99999999999 0 0\nend\n");

	cr_assert_eq(pmc_region_data__new(&d), 0);
	cr_expect_eq(pmc_region_data__parse(d, huge, strlen(huge)), -PMC_E_FORMAT);
	pmc_region_data__delete(d);
}
