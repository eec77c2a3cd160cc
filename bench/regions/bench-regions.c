// SPDX-License-Identifier: MIT
/*
 * The cost of an empty region on the same 4 software events, in one run: one and two bare
 * group read(2) calls (a pair needs two), libpmc's pmc_region_begin/end by id and by name,
 * two PAPI_read() calls, PAPI_stop()+PAPI_start(), and PAPI_hl_region_begin/end. Each
 * variant runs ROUNDS rounds of N operations; the median and the fastest round are reported
 * in ns per op (the fastest is the least disturbed by the rest of the machine).
 */
#include <pthread.h>
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

#define ROUNDS 21

static const char pmc_events[] = "task-clock,page-faults,context-switches,cpu-migrations";
static const char papi_events[] =
	"perf::TASK-CLOCK,perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES,perf::CPU-MIGRATIONS";

static void bare_group(void *arg)
{
	uint64_t buf[3 + 4];

	if (read(*(int *)arg, buf, sizeof(buf)) < 0)
		abort();
}

static void bare_two(void *arg)
{
	bare_group(arg);
	bare_group(arg);
}

static void pmc_pair_id(void *arg)
{
	unsigned id = *(unsigned *)arg;

	pmc_region_begin_n(id);
	pmc_region_end_n(id);
}

static void pmc_pair_name(void *arg)
{
	pmc_region_begin("bench");
	pmc_region_end("bench");
}

static void papi_two_reads(void *arg)
{
	long long v[4];

	if (PAPI_read(*(int *)arg, v) != PAPI_OK || PAPI_read(*(int *)arg, v) != PAPI_OK)
		abort();
}

static void papi_stop_start(void *arg)
{
	long long v[4];

	if (PAPI_stop(*(int *)arg, v) != PAPI_OK || PAPI_start(*(int *)arg) != PAPI_OK)
		abort();
}

static void papi_hl_pair(void *arg)
{
	PAPI_hl_region_begin("bench");
	PAPI_hl_region_end("bench");
}

static int setup_papi(int *set)
{
	*set = PAPI_NULL;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT || PAPI_create_eventset(set))
		return -1;
	for (int i = 0; i < 4; i++) {
		char name[64];
		const char *s = papi_events;

		for (int k = 0; k < i; k++)
			s = strchr(s, ',') + 1;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(s, ","), s);
		if (PAPI_add_named_event(*set, name) != PAPI_OK)
			return -1;
	}
	return PAPI_start(*set) == PAPI_OK ? 0 : -1;
}

static int setup_pmc(unsigned *id)
{
	struct pmc_region_opts o = {
		.sz = sizeof(o), .events = pmc_events, .sink = PMC_REGION_SINK_NONE};
	int r = pmc_region_setup(&o);

	if (r)
		return r;
	pmc_region_register("bench");
	r = pmc_region_register("bench-id");
	*id = (unsigned)r;
	return r < 0 ? r : 0;
}

static void row(const struct variant *v, double bare)
{
	printf("| %s | %.0f | %.2f | %.0f |\n", v->name, v->median, v->median / bare, v->rounds[0]);
}

int main(void)
{
	char dir[] = "/tmp/bench-regions-papi-XXXXXX";
	int grp[4], set, nr = 4;
	unsigned id;

	/* PAPI's high-level API reads its events and output folder from the environment. */
	setenv("PAPI_EVENTS", papi_events, 1);
	if (mkdtemp(dir))
		setenv("PAPI_OUTPUT_DIRECTORY", dir, 1);
	if (open_sw_events(grp, 1) || setup_pmc(&id)) {
		fprintf(stderr, "bench-regions: cannot open the counters\n");
		return 1;
	}
	if (setup_papi(&set))
		nr = 3, fprintf(stderr, "bench-regions: PAPI set-up failed; no PAPI variants\n");
	struct variant a[6] = {
		{"bare read(2) of the group (one read)", bare_group, &grp[0]},
		{"two bare read(2) calls (the floor of a pair)", bare_two, &grp[0]},
		{"libpmc empty region, pmc_region_begin_n/end_n", pmc_pair_id, &id},
		{"libpmc empty region, pmc_region_begin/end by name", pmc_pair_name, NULL},
		{"two PAPI_read() calls", papi_two_reads, &set},
		{"PAPI_stop() + PAPI_start()", papi_stop_start, &set},
	};
	measure(a, nr == 4 ? 6 : 4, ROUNDS);
	/* The high-level API runs its own event set, which may not run beside set. */
	struct variant b[2] = {
		{"bare read(2) of the group (one read), second phase", bare_group, &grp[0]},
		{"PAPI_hl_region_begin/end", papi_hl_pair, NULL},
	};
	if (nr == 4 && PAPI_stop(set, (long long[4]){0}) == PAPI_OK)
		measure(b, 2, ROUNDS);
	printf("| empty region / operation on 4 software events | ns per op (median round) | "
	       "× one bare group read | fastest round |\n");
	printf("|---|---:|---:|---:|\n");
	for (int i = 0; i < (nr == 4 ? 6 : 4); i++)
		row(&a[i], a[0].median);
	if (nr == 4)
		row(&b[1], b[0].median);
	return 0;
}
