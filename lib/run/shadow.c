// SPDX-License-Identifier: MIT
/*
 * The comment column of pmc stat (include/pmc/stat-view.h): perf 6.1's shadow values (its
 * stat-shadow.c) as a table of rules over generic event names. docs/stat-output.md lists them.
 */
#include <stdio.h>
#include <string.h>
#include <pmc/stat-view.h>

enum rule_kind {
	RATIO,	 /* event / other */
	PERCENT, /* 100 * event / other */
	PER_NS,	 /* event / other, other in ns (cycles per ns: GHz) */
	UTIL,	 /* event (ns) / the run's wall time: CPUs utilized */
};

struct rule {
	const char *event, *other; /* generic names; other "clock": task-clock or cpu-clock */
	enum rule_kind kind;
	int width, decimals;
	const char *suffix, *unit;
};

/* Data only: perf 6.1's shadow values, its formats and units (tools/perf/util/stat-shadow.c). */
static const struct rule rules[] = {
	{"instructions", "cpu-cycles", RATIO, 7, 2, " ", "insn per cycle"},
	{"branch-misses", "branch-instructions", PERCENT, 7, 2, "%", "of all branches"},
	{"cache-misses", "cache-references", PERCENT, 8, 3, " %", "of all cache refs"},
	{"L1-dcache-load-misses", "L1-dcache-loads", PERCENT, 7, 2, "%",
	 "of all L1-dcache accesses"},
	{"L1-icache-load-misses", "L1-icache-loads", PERCENT, 7, 2, "%",
	 "of all L1-icache accesses"},
	{"dTLB-load-misses", "dTLB-loads", PERCENT, 7, 2, "%", "of all dTLB cache accesses"},
	{"iTLB-load-misses", "iTLB-loads", PERCENT, 7, 2, "%", "of all iTLB cache accesses"},
	{"LLC-load-misses", "LLC-loads", PERCENT, 7, 2, "%", "of all LL-cache accesses"},
	{"stalled-cycles-frontend", "cpu-cycles", PERCENT, 7, 2, "%", "frontend cycles idle"},
	{"stalled-cycles-backend", "cpu-cycles", PERCENT, 7, 2, "%", "backend cycles idle"},
	{"cpu-cycles", "clock", PER_NS, 8, 3, "", "GHz"},
	{"task-clock", NULL, UTIL, 8, 3, "", "CPUs utilized"},
	{"cpu-clock", NULL, UTIL, 8, 3, "", "CPUs utilized"},
};

/* Events that are times themselves: no rate per second of them. */
static const char *const no_rate[] = {"duration_time", "user_time", "system_time"};

static bool is(const char *generic, const char *name)
{
	if (!strcmp(name, "clock"))
		return !strcmp(generic, "task-clock") || !strcmp(generic, "cpu-clock");
	return !strcmp(generic, name);
}

/*
 * The mean of the first counted event named name, at the same levels as e unless it is a
 * clock (time is time: a kernel-side event's rate is per second of the task's clock).
 */
static bool find(const struct pmc_stat_shadow_event *events, size_t nr,
		 const struct pmc_stat_shadow_event *e, const char *name, double *mean)
{
	bool clock = !strcmp(name, "clock");

	for (size_t i = 0; i < nr; i++)
		if (events[i].counted && events[i].generic &&
		    (clock || events[i].priv == e->priv) && is(events[i].generic, name)) {
			*mean = events[i].mean;
			return true;
		}
	return false;
}

static void fill(struct pmc_stat_shadow *out, const struct rule *r, double v)
{
	*out = (struct pmc_stat_shadow){
		.value = v, .width = r->width, .decimals = r->decimals, .suffix = r->suffix};
	snprintf(out->unit, sizeof(out->unit), "%s", r->unit);
}

/* perf's rate of any other event while a clock counted: per second of it, K, M or G. */
static int rate(const struct pmc_stat_shadow_event *events, size_t nr,
		const struct pmc_stat_shadow_event *e, struct pmc_stat_shadow *out)
{
	static const char prefix[] = " KMG";
	double ns, v;
	int p = 0;

	for (size_t i = 0; e->generic && i < sizeof(no_rate) / sizeof(no_rate[0]); i++)
		if (!strcmp(e->generic, no_rate[i]))
			return 0;
	if (!find(events, nr, e, "clock", &ns) || !(ns > 0))
		return 0;
	for (v = 1e9 * e->mean / ns; v > 1000.0 && p < 3; p++)
		v /= 1000.0;
	*out = (struct pmc_stat_shadow){.value = v, .width = 8, .decimals = 3, .suffix = ""};
	snprintf(out->unit, sizeof(out->unit), "%s/sec", p ? (char[2]){prefix[p], 0} : "");
	return 1;
}

int pmc_stat_shadow__compute(const struct pmc_stat_shadow_event *events, size_t nr, size_t idx,
			     double wall_ns, struct pmc_stat_shadow *out)
{
	const struct pmc_stat_shadow_event *e;
	double other;

	if (idx >= nr || !events[idx].counted)
		return 0;
	e = &events[idx];
	for (size_t i = 0; e->generic && i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *r = &rules[i];

		if (strcmp(e->generic, r->event))
			continue;
		if (r->kind == UTIL) {
			if (!(wall_ns > 0))
				return 0;
			fill(out, r, e->mean / wall_ns);
			return 1;
		}
		if (!find(events, nr, e, r->other, &other) || !(other != 0))
			return 0;
		fill(out, r, r->kind == PERCENT ? 100.0 * e->mean / other : e->mean / other);
		return 1;
	}
	return rate(events, nr, e, out);
}
