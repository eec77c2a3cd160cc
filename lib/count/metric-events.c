// SPDX-License-Identifier: MIT
/*
 * The events a set's selected metrics need, added to an event list before its passes are
 * planned (pmc_metrics__add_events()): a metric's counters as one weak group, so that the
 * planner keeps them in one pass when they fit, each counter the backend refuses alone
 * (pmc_evsel__check(), which is why this is counting's and not the metric engine's), each
 * event unknown here kept by the set with its reason (docs/metrics.md, "In pmc stat").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "metric/metric.h"

/* The events one metric needs that the list lacks, walked into a group string. */
struct adding {
	struct pmc_metrics *m; /* the absent events go into it */
	struct pmc_evlist *evlist;
	char *group; /* "a,b,c" of the counters */
	size_t len, nr;
	char **tools; /* tool events and counters this backend refuses, added alone */
	size_t nr_tools;
	struct pmc_evlist *scratch; /* where each counter event is tried first */
};

/* Whether the list counts event already: as named, or as a member of a weak group. */
static bool listed(const struct pmc_evlist *evlist, const char *event)
{
	size_t len = strlen(event);

	for (size_t i = 0; i < pmc_evlist__nr(evlist); i++) {
		const char *name = pmc_evsel__name(pmc_evlist__at(evlist, i));

		if (!strcmp(name, event) ||
		    (!strncmp(name, event, len) && !strcmp(name + len, ":W")))
			return true;
	}
	return false;
}

static bool in_group(const struct adding *a, const char *event)
{
	size_t len = strlen(event);

	for (const char *s = a->group; s && *s; s += strcspn(s, ",") + (s[strcspn(s, ",")] != 0))
		if (strcspn(s, ",") == len && !strncmp(s, event, len))
			return true;
	for (size_t i = 0; i < a->nr_tools; i++)
		if (!strcmp(a->tools[i], event))
			return true;
	return false;
}

/*
 * Whether event parses and the backend accepts it alone: a group is counted whole or not at
 * all, so an event it would refuse (a software event under vpmu, a hardware one without a
 * PMU) goes alone, shown <not supported> with its reason, and does not take the metric's
 * other events down with it.
 */
static bool countable(struct adding *a, const char *event)
{
	size_t before = pmc_evlist__nr(a->scratch);
	bool ok = !pmc_evlist__parse(a->scratch, event, NULL);

	for (size_t i = before; ok && i < pmc_evlist__nr(a->scratch); i++)
		ok = pmc_evsel__check(pmc_evlist__at(a->scratch, i), NULL, 0) >= 0;
	return ok;
}

static int add_tool(struct adding *a, const char *event)
{
	char **v = realloc(a->tools, (a->nr_tools + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	a->tools = v;
	v[a->nr_tools] = strdup(event);
	return v[a->nr_tools] ? (a->nr_tools++, 0) : -ENOMEM;
}

static int add_one(const struct pmc_metric_event *ev, void *arg)
{
	struct adding *a = arg;
	size_t len = strlen(ev->event);
	char *g;

	if (listed(a->evlist, ev->event) || in_group(a, ev->event))
		return 0;
	if (ev->tool || !countable(a, ev->event))
		return add_tool(a, ev->event);
	g = realloc(a->group, a->len + len + 2);
	if (!g)
		return -ENOMEM;
	a->group = g;
	a->len += (size_t)sprintf(g + a->len, "%s%s", a->nr++ ? "," : "", ev->event);
	return 0;
}

/* An event of a metric that this backend does not know: the metric shows it unavailable. */
static int note_absent(struct adding *a, const char *event, const struct pmc_parse_error *perr)
{
	char *why;
	int rc;

	if (asprintf(&why, "'%s' is not an event here: %s", event,
		     perr->msg[0] ? perr->msg : "it does not parse") < 0)
		return -ENOMEM;
	rc = pmc__metrics_absent_add(a->m, event, why);
	free(why);
	return rc;
}

static int parse_into(struct adding *a, const char *str)
{
	struct pmc_parse_error perr = {0};
	int rc = pmc_evlist__parse(a->evlist, str, &perr);

	if (rc == -ENOMEM)
		return rc;
	return rc ? note_absent(a, str, &perr) : 0;
}

/* The group as {...}:W; when it does not parse, each of its events alone. */
static int parse_group(struct adding *a)
{
	char *str = malloc(a->len + 8);
	int rc;

	if (!str)
		return -ENOMEM;
	sprintf(str, "{%s}:W", a->group);
	rc = pmc_evlist__parse(a->evlist, str, NULL);
	free(str);
	if (rc != -PMC_E_PARSE && rc != -PMC_E_UNKNOWN_EVENT)
		return rc ? -ENOMEM : 0;
	rc = 0;
	for (char *s = strtok(a->group, ","); s && !rc; s = strtok(NULL, ","))
		rc = parse_into(a, s);
	return rc;
}

/* Adds one metric's missing events: its counters as {...}:W (one alone as itself). */
static int add_metric(struct adding *a, const struct pmc_metric *metric)
{
	int rc = pmc_metric__for_each_event(metric, add_one, a);

	if (rc)
		rc = -ENOMEM;
	else if (a->nr > 1)
		rc = parse_group(a);
	else if (a->nr == 1)
		rc = parse_into(a, a->group);
	for (size_t i = 0; i < a->nr_tools && !rc; i++)
		rc = parse_into(a, a->tools[i]);
	free(a->group);
	for (size_t i = 0; i < a->nr_tools; i++)
		free(a->tools[i]);
	free(a->tools);
	a->group = NULL;
	a->tools = NULL;
	a->len = a->nr = a->nr_tools = 0;
	return rc;
}

/*
 * The names of a one-off definition (-M 'name = expression') are the user's: one that is no
 * event here is refused before anything is added or counted (as perf refuses a metric whose
 * event does not parse), where a file's metric would only be unavailable.
 */
static int check_definitions(struct pmc_metrics *m, struct pmc_evlist *scratch,
			     struct pmc_metric_error *err)
{
	for (size_t i = 0; i < pmc_metrics__nr_selected(m); i++) {
		const struct pmc_metric *metric = pmc_metrics__selected(m, i);
		const struct pmc_metric_info *info = pmc_metric__info(metric);
		int rc;

		if (info->file)
			continue;
		rc = pmc_metric__check_events(metric, scratch, err);
		if (!rc)
			continue;
		if (err)
			snprintf(err->where, sizeof(err->where), "-M '%s = ...'", info->name);
		return rc;
	}
	return 0;
}

int pmc_metrics__add_events(struct pmc_metrics *m, struct pmc_evlist *evlist,
			    const struct pmc_evlist_opts *eo, struct pmc_metric_error *err)
{
	struct pmc_metric_error scratch_err;
	struct adding a = {.m = m, .evlist = evlist};
	int rc;

	if (!m || !evlist)
		return -EINVAL;
	if (!err)
		err = &scratch_err;
	*err = (struct pmc_metric_error){.parse.offset = -1};
	rc = pmc_evlist__new(eo, &a.scratch);
	if (!rc)
		rc = check_definitions(m, a.scratch, err);
	for (size_t i = 0; i < pmc_metrics__nr_selected(m) && !rc; i++)
		rc = add_metric(&a, pmc_metrics__selected(m, i));
	pmc_evlist__delete(a.scratch);
	return rc;
}
