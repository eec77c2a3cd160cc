// SPDX-License-Identifier: MIT
/*
 * The metric set of -M, --metrics-file and --topdown (stat-metric.h), made and its events
 * added to pmc stat's list by libpmc (pmc_metrics__add_events()), with the messages of what it
 * refuses (docs/metrics.md, "In pmc stat").
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

int metric_set__add_events(struct pmc_metrics *m, struct pmc_evlist *evlist,
			   const struct pmc_evlist_opts *eo, const char *cmd)
{
	struct pmc_metric_error err = {0};
	int rc = pmc_metrics__add_events(m, evlist, eo, &err);

	if (!rc)
		return 0;
	if (rc == -ENOMEM || rc == -EINVAL) {
		fprintf(stderr, "%s: cannot add the metrics' events: out of memory\n", cmd);
		return 1;
	}
	print_error(cmd, NULL, &err, rc);
	return status_of(rc);
}
