// SPDX-License-Identifier: MIT
/*
 * The metric set of -M, --metrics-file and --topdown (stat-metric.h), and the events it adds
 * to pmc stat's list: a metric's counters as one weak group, so that the planner keeps them
 * in one pass when they fit (docs/metrics.md, "In pmc stat").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "stat-metric.h"

bool metric_opts__any(const struct metric_opts *o)
{
	return o->nr_select || o->nr_likwid || o->topdown;
}

int metric_opts__add(char ***list, size_t *nr, const char *arg)
{
	char **l = realloc(*list, (*nr + 1) * sizeof(*l));

	if (!l)
		return -1;
	*list = l;
	l[(*nr)++] = (char *)arg;
	return 0;
}

/* A refused file, definition or selection: where, what, a caret under it, the closest names. */
static void print_error(const char *cmd, const char *input, const struct pmc_metric_error *err,
			int code)
{
	const char *text = err->text[0] ? err->text : input;
	bool caret = err->parse.offset >= 0 && text && *text;

	if (err->where[0] && !caret) {
		fprintf(stderr, "%s: %s: %s\n", cmd, cli_show(err->where),
			err->parse.msg[0] ? err->parse.msg : pmc_strerror(code));
		for (int i = 0; i < err->parse.nr_suggest && i < 3; i++)
			fprintf(stderr, "  did you mean '%s'?\n", cli_show(err->parse.suggest[i]));
		return;
	}
	if (err->where[0])
		fprintf(stderr, "%s: %s:\n", cmd, cli_show(err->where));
	if (caret) {
		cli_print_parse_error_hint(
			cmd, text, &err->parse,
			code == -PMC_E_UNKNOWN_METRIC
				? "run 'pmc list metrics' for the metrics and "
				  "groups known here"
				: "docs/metrics.md gives the expression grammar");
		return;
	}
	fprintf(stderr, "%s: %s\n", cmd,
		err->parse.msg[0] ? cli_show(err->parse.msg) : pmc_strerror(code));
}

/* An exit status for a refusal of the set: 2 for what the user wrote, 1 for the rest. */
static int status_of(int code)
{
	return code == -ENOMEM ? 1 : 2;
}

/* "1", "1 and 2", "1, 2 and 3": the levels of mask, for a message. */
static void levels_text(unsigned mask, char *buf, size_t len)
{
	int left = __builtin_popcount(mask);
	size_t at = 0;

	buf[0] = 0;
	for (int level = 1; level <= 9 && at < len; level++) {
		if (!(mask & (1u << (level - 1))))
			continue;
		left--;
		at += (size_t)snprintf(buf + at, len - at, "%d%s", level,
				       left > 1	   ? ", "
				       : left == 1 ? " and "
						   : "");
	}
}

static int topdown(struct pmc_metrics *m, const struct metric_opts *o, const char *cmd)
{
	struct pmc_metric_error err = {0};
	int level = o->td_level ? o->td_level : 1, rc;
	unsigned levels = pmc_metrics__topdown_levels(m);
	const char *backend = o->backend ? o->backend : "perf";
	char group[32], have[64];

	snprintf(group, sizeof(group), "TopdownL%d", level);
	if (!(levels & (1u << (level - 1)))) {
		levels_text(levels, have, sizeof(have));
		if (levels)
			fprintf(stderr,
				"%s: --td-level %d: no top-down level %d exists for backend %s on "
				"this CPU; the levels here: %s\n",
				cmd, level, level, backend, have);
		else
			fprintf(stderr,
				"%s: --topdown: no metric of group %s is known for backend %s on "
				"this CPU (no shipped file has top-down metrics for it); give one "
				"with --metrics-file FILE\n",
				cmd, group, backend);
		return 2;
	}
	rc = pmc_metrics__select(m, group, &err);
	if (rc)
		print_error(cmd, group, &err, rc);
	return rc ? status_of(rc) : 0;
}

static int build(struct pmc_metrics *m, const struct metric_opts *o, const char *cmd)
{
	struct pmc_metric_error err = {0};
	int rc = 0;

	for (size_t i = 0; i < o->nr_files && !rc; i++) {
		rc = pmc_metrics__load(m, o->files[i], &err);
		if (rc && !err.where[0])
			snprintf(err.where, sizeof(err.where), "%s", o->files[i]);
		if (rc)
			print_error(cmd, NULL, &err, rc);
	}
	for (size_t i = 0; i < o->nr_likwid && !rc; i++) {
		rc = pmc_metrics__load_likwid(m, o->likwid[i], &err);
		if (rc && !err.where[0])
			snprintf(err.where, sizeof(err.where), "--likwid-group %s", o->likwid[i]);
		if (rc)
			print_error(cmd, NULL, &err, rc);
	}
	for (size_t i = 0; i < o->nr_select && !rc; i++) {
		const char *s = o->select[i];

		rc = strchr(s, '=') ? pmc_metrics__define(m, s, &err)
				    : pmc_metrics__select(m, s, &err);
		if (rc)
			print_error(cmd, s, &err, rc);
	}
	if (rc)
		return status_of(rc);
	return o->topdown ? topdown(m, o, cmd) : 0;
}

int metric_set__new(const struct metric_opts *o, const char *cmd, struct pmc_metrics **out)
{
	struct pmc_metrics_opts mo = {.sz = sizeof(mo), .backend = o->backend};
	struct pmc_metric_error err = {0};
	struct pmc_metrics *m;
	int rc = pmc_metrics__new(&mo, &err, &m);

	*out = NULL;
	if (rc) {
		fprintf(stderr, "%s: cannot load the shipped metric files: %s%s%s\n", cmd,
			err.where[0] ? err.where : "", err.where[0] ? ": " : "",
			err.parse.msg[0] ? err.parse.msg : pmc_strerror(rc));
		return rc == -PMC_E_NOBACKEND ? 2 : 1;
	}
	rc = build(m, o, cmd);
	if (rc) {
		pmc_metrics__delete(m);
		return rc;
	}
	*out = m;
	return 0;
}

/* The events one metric needs that the list lacks, walked into a group string. */
struct adding {
	struct pmc_evlist *evlist;
	char *group; /* "a,b,c" of the counters */
	size_t len, nr;
	char **tools; /* tool events and counters this backend refuses, added alone */
	size_t nr_tools;
	struct pmc_evlist *scratch; /* where each counter event is tried first */
	const char *cmd;
	struct metric_absent **absent; /* events that do not parse here, with the reason */
	size_t *nr_absent;
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

static int add_one(const struct pmc_metric_event *ev, void *arg)
{
	struct adding *a = arg;
	size_t len = strlen(ev->event);
	char *g;

	if (listed(a->evlist, ev->event) || in_group(a, ev->event))
		return 0;
	if (ev->tool || !countable(a, ev->event)) {
		char *t = strdup(ev->event);

		if (!t || metric_opts__add(&a->tools, &a->nr_tools, t)) {
			free(t);
			return -ENOMEM;
		}
		return 0;
	}
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
	struct metric_absent *v = realloc(*a->absent, (*a->nr_absent + 1) * sizeof(*v));

	if (!v)
		return 1;
	*a->absent = v;
	v += (*a->nr_absent)++;
	snprintf(v->event, sizeof(v->event), "%s", event);
	snprintf(v->why, sizeof(v->why), "'%s' is not an event here: %s", event,
		 perr->msg[0] ? perr->msg : "it does not parse");
	return 0;
}

static int parse_into(struct adding *a, const char *str)
{
	struct pmc_parse_error perr = {0};
	int rc = pmc_evlist__parse(a->evlist, str, &perr);

	if (rc == -ENOMEM)
		return 1;
	return rc ? note_absent(a, str, &perr) : 0;
}

/* The group as {...}:W; when it does not parse, each of its events alone. */
static int parse_group(struct adding *a)
{
	char *str = malloc(a->len + 8);
	int rc;

	if (!str)
		return 1;
	sprintf(str, "{%s}:W", a->group);
	rc = pmc_evlist__parse(a->evlist, str, NULL);
	free(str);
	if (rc != -PMC_E_PARSE && rc != -PMC_E_UNKNOWN_EVENT)
		return rc ? 1 : 0;
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
		return 1;
	if (a->nr > 1)
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
 * event here is a usage error, before anything is added or counted (as perf refuses a metric
 * whose event does not parse), where a file's metric would only be unavailable.
 */
static int check_definitions(struct pmc_metrics *m, struct pmc_evlist *scratch, const char *cmd)
{
	for (size_t i = 0; i < pmc_metrics__nr_selected(m); i++) {
		const struct pmc_metric *metric = pmc_metrics__selected(m, i);
		const struct pmc_metric_info *info = pmc_metric__info(metric);
		struct pmc_metric_error err = {0};
		int rc;

		if (info->file)
			continue;
		rc = pmc_metric__check_events(metric, scratch, &err);
		if (!rc)
			continue;
		snprintf(err.where, sizeof(err.where), "-M '%s = ...'", info->name);
		print_error(cmd, info->expr, &err, rc);
		return status_of(rc);
	}
	return 0;
}

int metric_set__add_events(struct pmc_metrics *m, struct pmc_evlist *evlist,
			   const struct pmc_evlist_opts *eo, const char *cmd,
			   struct metric_absent **absent, size_t *nr_absent)
{
	struct adding a = {.evlist = evlist, .cmd = cmd, .absent = absent, .nr_absent = nr_absent};
	int rc = pmc_evlist__new(eo, &a.scratch) ? 1 : 0;

	if (!rc && (rc = check_definitions(m, a.scratch, cmd))) {
		pmc_evlist__delete(a.scratch);
		return rc;
	}
	for (size_t i = 0; i < pmc_metrics__nr_selected(m) && !rc; i++)
		rc = add_metric(&a, pmc_metrics__selected(m, i));
	pmc_evlist__delete(a.scratch);
	if (rc)
		fprintf(stderr, "%s: cannot add the metrics' events: out of memory\n", cmd);
	return rc ? 1 : 0;
}
