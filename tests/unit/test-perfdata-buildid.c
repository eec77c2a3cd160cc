// SPDX-License-Identifier: MIT
/* The BUILD_ID feature's entries (lib/perfdata/buildid.c): perf's layout, and its reading. */
#include <errno.h>
#include <criterion/criterion.h>
#include <string.h>
#include "perfdata/perfdata.h"

#define ID20 "43d6606e0cef682da92a845761a3d3b6c1aacf66"

Test(perfdata_buildid, layout_is_perfs)
{
	struct pmc__perfdata_build_ids v = {0};
	struct perf_event_header h;
	uint8_t buf[512];
	int32_t pid;
	size_t n;

	cr_assert_eq(pmc__perfdata_build_ids_add(&v, "/usr/bin/prog", ID20, false), 0);
	cr_assert_eq(pmc__perfdata_build_ids_add(&v, "[kernel.kallsyms]", "0102", true), 0);
	n = pmc__perfdata_build_ids_size(&v);
	cr_assert_eq(n, 2 * (36 + 64), "entries of 36 bytes and a name padded to 64: %zu", n);
	pmc__perfdata_build_ids_encode(&v, buf);
	memcpy(&h, buf, sizeof(h));
	memcpy(&pid, buf + 8, 4);
	cr_assert_eq(h.type, 0);
	cr_assert_eq(h.misc, PERF_RECORD_MISC_USER | 1u << 15);
	cr_assert_eq(h.size, 100);
	cr_assert_eq(pid, -1);
	cr_assert_eq(buf[12], 0x43);
	cr_assert_eq(buf[12 + 19], 0x66);
	cr_assert_eq(buf[12 + 20], 20, "byte 20 holds the id's length");
	cr_assert_str_eq((const char *)buf + 36, "/usr/bin/prog");
	memcpy(&h, buf + 100, sizeof(h));
	cr_assert_eq(h.misc, PERF_RECORD_MISC_KERNEL | 1u << 15);
	cr_assert_eq(buf[100 + 12 + 20], 2);
	pmc__perfdata_build_ids_free(&v);
}

Test(perfdata_buildid, round_trip)
{
	struct pmc__perfdata_build_ids v = {0}, back = {0};
	uint8_t buf[1024];

	cr_assert_eq(pmc__perfdata_build_ids_add(&v, "[vdso]", ID20, false), 0);
	cr_assert_eq(pmc__perfdata_build_ids_add(&v, "/lib/x.so", "abcd", false), 0);
	cr_assert_eq(pmc__perfdata_build_ids_add(&v, "/lib/x.so", "ef01", false), 0);
	cr_assert_eq(v.nr, 2, "a name already there keeps its first id");
	pmc__perfdata_build_ids_encode(&v, buf);
	cr_assert_eq(pmc__perfdata_build_ids_decode(buf, pmc__perfdata_build_ids_size(&v), &back),
		     0);
	cr_assert_str_eq(pmc__perfdata_build_ids_find(&back, "[vdso]"), ID20);
	cr_assert_str_eq(pmc__perfdata_build_ids_find(&back, "/lib/x.so"), "abcd");
	cr_assert_null(pmc__perfdata_build_ids_find(&back, "/lib/y.so"));
	pmc__perfdata_build_ids_free(&v);
	pmc__perfdata_build_ids_free(&back);
}

Test(perfdata_buildid, bad_ids_are_refused)
{
	struct pmc__perfdata_build_ids v = {0};

	cr_assert_eq(pmc__perfdata_build_ids_add(&v, "/a", "", false), -EINVAL);
	cr_assert_eq(pmc__perfdata_build_ids_add(&v, "/a", "abc", false), -EINVAL);
	cr_assert_eq(pmc__perfdata_build_ids_add(&v, "/a", "ABCD", false), -EINVAL);
	cr_assert_eq(pmc__perfdata_build_ids_add(&v, "/a", ID20 "00", false), -EINVAL);
	cr_assert_eq(pmc__perfdata_build_ids_add(&v, "", "abcd", false), -EINVAL);
	cr_assert_eq(v.nr, 0);
}

/* perf before 5.12: no size bit, 20 bytes of id; an entry of zeros names nothing; a bad size
 * ends the walk. */
Test(perfdata_buildid, old_and_malformed_entries)
{
	uint8_t buf[3 * 100] = {0};
	struct perf_event_header h = {0, PERF_RECORD_MISC_USER, 100};
	struct pmc__perfdata_build_ids v = {0};

	memcpy(buf, &h, sizeof(h));
	for (int i = 0; i < 20; i++)
		buf[12 + i] = (uint8_t)(i + 1);
	strcpy((char *)buf + 36, "/old");
	memcpy(buf + 100, &h, sizeof(h)); /* all-zero id */
	strcpy((char *)buf + 136, "/zero");
	h.size = 400; /* past the section */
	memcpy(buf + 200, &h, sizeof(h));
	strcpy((char *)buf + 236, "/bad");
	cr_assert_eq(pmc__perfdata_build_ids_decode(buf, sizeof(buf), &v), 0);
	cr_assert_eq(v.nr, 1);
	cr_assert_str_eq(pmc__perfdata_build_ids_find(&v, "/old"),
			 "0102030405060708090a0b0c0d0e0f1011121314");
	pmc__perfdata_build_ids_free(&v);
}
