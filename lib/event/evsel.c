// SPDX-License-Identifier: MIT
/* One event: creation by the parser, getters, and its perf-like encoding string. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "event/parse.h"
#include "event/uncore.h"

struct pmc_evsel *pmc__evsel_new(struct pmc_parser *p, enum pmc_event_kind kind, int offset)
{
	struct pmc_evsel *evsel = calloc(1, sizeof(*evsel));

	if (!evsel)
		return NULL;
	evsel->evlist = p->evlist;
	evsel->kind = kind;
	evsel->offset = offset;
	evsel->leader = evsel;
	evsel->nr_members = 1;
	evsel->pass = -1;
	evsel->check_err = 1;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->terms_off = -1;
	return evsel;
}

void pmc__evsel_delete(struct pmc_evsel *evsel)
{
	if (!evsel)
		return;
	free(evsel->name);
	free(evsel->pmu);
	free(evsel->symbol);
	free(evsel->check_why);
	free(evsel->check_note);
	free(evsel->terms);
	free(evsel->unit);
	free(evsel->filter);
	free(evsel->group_name);
	free(evsel->cfg.branch_type);
	free(evsel->cfg.metric_id);
	free(evsel->hybrid_of);
	free(evsel);
}

int pmc__evsel_set_name(struct pmc_evsel *evsel, const char *s, size_t len)
{
	char *name = strndup(s, len);

	if (!name)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = name;
	return 0;
}

const char *pmc_evsel__name(const struct pmc_evsel *evsel)
{
	return evsel->name;
}

double pmc_evsel__scale(const struct pmc_evsel *evsel)
{
	return evsel->scale > 0 ? evsel->scale : 1;
}

const char *pmc_evsel__unit(const struct pmc_evsel *evsel)
{
	return evsel->unit ? evsel->unit : "";
}

const char *pmc_evsel__hybrid_name(const struct pmc_evsel *evsel)
{
	return evsel->hybrid_of;
}

enum pmc_event_kind pmc_evsel__kind(const struct pmc_evsel *evsel)
{
	return evsel->kind;
}

size_t pmc_evsel__idx(const struct pmc_evsel *evsel)
{
	return evsel->idx;
}

struct pmc_evsel *pmc_evsel__leader(const struct pmc_evsel *evsel)
{
	return evsel->leader;
}

size_t pmc_evsel__group_size(const struct pmc_evsel *evsel)
{
	return evsel->leader->nr_members;
}

const char *pmc_evsel__group_name(const struct pmc_evsel *evsel)
{
	return evsel->leader->group_name;
}

/*
 * What the encoding alone says cannot be opened, as the kernel would refuse it: breakpoint
 * lengths (breakpoint.c), and D or e on a group member (perf_event_open(2): only a group's
 * leader may be pinned or exclusive), and uncore events sampled or grouped with another PMU's
 * (uncore.c).
 */
int pmc__evsel_static_check(const struct pmc_evsel *evsel, char *why, size_t len)
{
	int err = pmc__uncore_check(evsel, why, len);

	if (err)
		return err;
	if (evsel->leader != evsel && (evsel->attr.pinned || evsel->attr.exclusive)) {
		snprintf(why, len,
			 "%s on a member of a group: the kernel lets only a group's leader be "
			 "pinned or exclusive; write {...}:%c to pin or reserve the whole group",
			 evsel->attr.pinned ? "D (pinned)" : "e (exclusive)",
			 evsel->attr.pinned ? 'D' : 'e');
		return -PMC_E_UNSUPPORTED;
	}
	return pmc__bp_check(evsel, why, len);
}

bool pmc__event_kernel_side(const struct pmc_evsel *evsel)
{
	const struct perf_event_attr *a = &evsel->attr;

	if (a->type == PERF_TYPE_TRACEPOINT)
		return true;
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
						 a->config == PERF_COUNT_SW_CPU_MIGRATIONS ||
						 a->config == PERF_COUNT_SW_CGROUP_SWITCHES);
}

bool pmc__event_user_blind(const struct pmc_evsel *evsel)
{
	/* syscalls:* hand the kernel the task's user registers: they count at user level. */
	if (evsel->attr.type == PERF_TYPE_TRACEPOINT && !strncmp(evsel->name, "syscalls:", 9))
		return false;
	return pmc__event_kernel_side(evsel);
}

bool pmc__event_levels_written(const struct pmc_evsel *evsel)
{
	return evsel->mods & (PMC_MOD_U | PMC_MOD_K | PMC_MOD_H);
}

bool pmc_evsel__kernel_side(const struct pmc_evsel *evsel)
{
	return pmc__event_kernel_side(evsel);
}

unsigned pmc_evsel__priv(const struct pmc_evsel *evsel)
{
	const struct perf_event_attr *a = &evsel->attr;

	return (a->exclude_user ? 0 : PMC_PRIV_USER) | (a->exclude_kernel ? 0 : PMC_PRIV_KERNEL) |
	       (a->exclude_hv ? 0 : PMC_PRIV_HV);
}

const char *pmc_evsel__note(const struct pmc_evsel *evsel)
{
	return evsel->check_note;
}

const char *pmc_event_kind__name(enum pmc_event_kind kind)
{
	static const char *const names[] = {
		[PMC_EV_HARDWARE] = "hardware",
		[PMC_EV_SOFTWARE] = "software",
		[PMC_EV_CACHE] = "cache",
		[PMC_EV_RAW] = "raw",
		[PMC_EV_PMU] = "pmu",
		[PMC_EV_TRACEPOINT] = "tracepoint",
		[PMC_EV_BREAKPOINT] = "breakpoint",
		[PMC_EV_SYMBOLIC] = "cpu",
		[PMC_EV_PRESET] = "preset",
		[PMC_EV_TOOL] = "tool",
	};

	if ((unsigned)kind >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[kind];
}

/* snprintf that keeps counting the needed length once buf is full. */
static int append(char *buf, size_t len, int at, const char *fmt, unsigned long long v)
{
	size_t room = (size_t)at < len ? len - at : 0;

	return at + snprintf(room ? buf + at : NULL, room, fmt, v);
}

/*
 * The fields that define what is counted, in perf_event_attr's names; zero fields are left
 * out except type and config, so that the string stays short and stable across versions.
 */
int pmc_evsel__encoding(const struct pmc_evsel *evsel, char *buf, size_t len)
{
	const struct perf_event_attr *a = &evsel->attr;
	int n = 0;

	if (len)
		buf[0] = '\0';
	if (evsel->kind == PMC_EV_TOOL) /* no attr is opened: perf's tool event number */
		return append(buf, len, n, "tool=%llu", (unsigned long long)evsel->tool);
	n = append(buf, len, n, "type=%llu", a->type);
	n = append(buf, len, n, ",config=%#llx", a->config);
	/* bp_addr and bp_len share config1 and config2's storage. */
	if (a->config1 && a->type != PERF_TYPE_BREAKPOINT)
		n = append(buf, len, n, ",config1=%#llx", a->config1);
	if (a->config2 && a->type != PERF_TYPE_BREAKPOINT)
		n = append(buf, len, n, ",config2=%#llx", a->config2);
	if (a->type == PERF_TYPE_BREAKPOINT) {
		n = append(buf, len, n, ",bp_addr=%#llx", a->bp_addr);
		n = append(buf, len, n, ",bp_len=%llu", a->bp_len);
		n = append(buf, len, n, ",bp_type=%llu", a->bp_type);
	}
	if (a->freq)
		n = append(buf, len, n, ",sample_freq=%llu", a->sample_freq);
	else if (a->sample_period)
		n = append(buf, len, n, ",sample_period=%llu", a->sample_period);
	n = append(buf, len, n, ",exclude_user=%llu", a->exclude_user);
	n = append(buf, len, n, ",exclude_kernel=%llu", a->exclude_kernel);
	n = append(buf, len, n, ",exclude_hv=%llu", a->exclude_hv);
	if (a->exclude_host)
		n = append(buf, len, n, ",exclude_host=%llu", 1);
	if (a->exclude_guest)
		n = append(buf, len, n, ",exclude_guest=%llu", 1);
	if (a->exclude_idle)
		n = append(buf, len, n, ",exclude_idle=%llu", 1);
	if (a->pinned)
		n = append(buf, len, n, ",pinned=%llu", 1);
	if (a->exclusive)
		n = append(buf, len, n, ",exclusive=%llu", 1);
	if (a->precise_ip)
		n = append(buf, len, n, ",precise_ip=%llu", a->precise_ip);
	return n;
}
