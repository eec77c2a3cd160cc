// SPDX-License-Identifier: MIT
/*
 * The cost of reading a group of 4 software events, side by side in one run: a bare
 * read(2) of a PERF_FORMAT_GROUP leader, libpmc's pmc_evsel__read_group(), PAPI_read()
 * on the same events, and the four events read one by one without the group format.
 * Each variant runs R rounds of N reads; the median round is reported in ns per read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <papi.h>
#include <pmc/pmc.h>
#include "../common/interleave.h"

#define ROUNDS 15

static const char *const pmc_names = "{task-clock,page-faults,context-switches,cpu-migrations}";
static const char *const papi_names[4] = {"perf::TASK-CLOCK", "perf::PAGE-FAULTS",
					  "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS"};

static void bare_group(void *arg)
{
	uint64_t buf[3 + 4];

	if (read(*(int *)arg, buf, sizeof(buf)) < 0)
		abort();
}

static void bare_singles(void *arg)
{
	uint64_t buf[3];

	for (int i = 0; i < 4; i++)
		if (read(((int *)arg)[i], buf, sizeof(buf)) < 0)
			abort();
}

static void libpmc_group(void *arg)
{
	struct pmc_count v[4];

	if (pmc_evsel__read_group(arg, v, 4) != 4)
		abort();
}

static void papi_read(void *arg)
{
	long long v[4];

	if (PAPI_read(*(int *)arg, v) != PAPI_OK)
		abort();
}

/*
 * PAPI's event set of the four events, started; on any failure the set is destroyed, *set
 * is PAPI_NULL and why says which step failed (PAPI then gets a row saying so, and the
 * other rows are measured all the same).
 */
static int setup_papi(int *set, char *why, size_t len)
{
	int ret, step = 0;

	*set = PAPI_NULL;
	ret = PAPI_library_init(PAPI_VER_CURRENT);
	if (ret != PAPI_VER_CURRENT) {
		snprintf(why, len, "PAPI_library_init: %s",
			 ret > 0 ? "version mismatch" : PAPI_strerror(ret));
		return -1;
	}
	ret = PAPI_create_eventset(set);
	for (int i = 0; ret == PAPI_OK && i < 4; i++, step++)
		ret = PAPI_add_named_event(*set, papi_names[i]);
	if (ret == PAPI_OK)
		ret = PAPI_start(*set);
	if (ret == PAPI_OK)
		return 0;
	snprintf(why, len, "%s: %s", step < 4 ? papi_names[step] : "PAPI_start",
		 PAPI_strerror(ret));
	if (*set != PAPI_NULL) {
		PAPI_cleanup_eventset(*set);
		PAPI_destroy_eventset(set);
	}
	*set = PAPI_NULL;
	return -1;
}

int main(void)
{
	struct pmc_evlist_opts o = {.sz = sizeof(o)};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_SELF, .no_inherit = true};
	struct pmc_evlist *l;
	int grp[4], single[4], set, passes;
	double bare, lib, one, papi = -1;
	char papi_why[256] = "";

	if (open_sw_events(grp, 1) || open_sw_events(single, 0)) {
		perror("perf_event_open");
		return 1;
	}
	if (pmc_evlist__new(&o, &l) || pmc_evlist__parse(l, pmc_names, NULL) ||
	    pmc_evlist__plan(l, false, &passes) || pmc_evlist__open(l, &t, -1) ||
	    pmc_evlist__start(l)) {
		fprintf(stderr, "libpmc setup failed\n");
		return 1;
	}
	if (setup_papi(&set, papi_why, sizeof(papi_why)))
		fprintf(stderr,
			"bench-read: PAPI cannot read these events here (%s): its row says so\n",
			papi_why);
	struct variant v[4] = {{NULL, bare_group, &grp[0]},
			       {NULL, libpmc_group, pmc_evlist__at(l, 0)},
			       {NULL, bare_singles, single},
			       {NULL, papi_read, &set}};

	measure(v, set != PAPI_NULL ? 4 : 3, ROUNDS);
	bare = v[0].median;
	lib = v[1].median;
	one = v[2].median;
	if (set != PAPI_NULL)
		papi = v[3].median;
	printf("| read of a 4-event software group | ns per read | × bare group read |\n");
	printf("|---|---:|---:|\n");
	printf("| bare read(2), PERF_FORMAT_GROUP | %.0f | 1.00 |\n", bare);
	printf("| libpmc pmc_evsel__read_group() | %.0f | %.3f |\n", lib, lib / bare);
	if (papi > 0)
		printf("| PAPI_read() | %.0f | %.3f |\n", papi, papi / bare);
	else
		printf("| PAPI_read() | not measured: %s | |\n", papi_why);
	printf("| four read(2) calls, one per event, no group format | %.0f | %.3f |\n", one,
	       one / bare);
	pmc_evlist__delete(l);
	return 0;
}
