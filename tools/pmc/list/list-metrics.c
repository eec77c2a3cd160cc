// SPDX-License-Identifier: MIT
/*
 * pmc list metrics [WORD]: the metric groups and metrics of the backend's shipped files, each
 * metric with its description, formula, unit and threshold (docs/metrics.md, "pmc list
 * metrics"); WORD keeps those whose name, groups or description contain it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <jansson.h>
#include "common/cli.h"
#include "common/stat-metric.h"
#include "list.h"

static bool contains(const char *s, const char *word)
{
	return s && strcasestr(s, word);
}

static bool shown(const struct pmc_metric_info *info, const char *word)
{
	return !word || contains(info->name, word) || contains(info->groups, word) ||
	       contains(info->brief, word) || contains(info->desc, word);
}

static int by_name(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/* Adds group t to g[0..*n) unless there (any case). Returns 0, or -1 (no memory). */
static int add_group(char ***g, size_t *n, const char *t)
{
	char **grown;

	for (size_t k = 0; k < *n; k++)
		if (!strcasecmp((*g)[k], t))
			return 0;
	grown = realloc(*g, (*n + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	*g = grown;
	grown[*n] = strdup(t);
	if (!grown[*n])
		return -1;
	(*n)++;
	return 0;
}

/* The groups of the metrics shown, sorted, each once ("a;b" lists split); NULL: no memory. */
static char **groups_of(const struct pmc_metrics *m, const char *word, size_t *nr)
{
	char **g = calloc(1, sizeof(*g));
	int rc = g ? 0 : -1;

	*nr = 0;
	for (size_t i = 0; !rc && i < pmc_metrics__nr(m); i++) {
		const struct pmc_metric_info *info = pmc_metric__info(pmc_metrics__at(m, i));
		char *copy = shown(info, word) ? strdup(info->groups) : NULL, *save = NULL;

		for (char *t = copy ? strtok_r(copy, ";", &save) : NULL; t && !rc;
		     t = strtok_r(NULL, ";", &save))
			rc = add_group(&g, nr, t);
		free(copy);
	}
	if (rc && g) {
		for (size_t k = 0; k < *nr; k++)
			free(g[k]);
		free(g);
		return NULL;
	}
	qsort(g, *nr, sizeof(*g), by_name);
	return g;
}

static bool in_group(const struct pmc_metric_info *info, const char *group)
{
	size_t len = strlen(group);

	for (const char *s = info->groups; *s; s += strcspn(s, ";") + (s[strcspn(s, ";")] != 0))
		if (strcspn(s, ";") == len && !strncasecmp(s, group, len))
			return true;
	return false;
}

static void print_text(const struct pmc_metrics *m, const char *word, char **groups, size_t nr)
{
	size_t shown_nr = 0;

	printf("Metric groups:\n");
	for (size_t k = 0; k < nr; k++) {
		printf("  %s:", groups[k]);
		for (size_t i = 0; i < pmc_metrics__nr(m); i++) {
			const struct pmc_metric_info *info =
				pmc_metric__info(pmc_metrics__at(m, i));

			if (shown(info, word) && in_group(info, groups[k]))
				printf(" %s", info->name);
		}
		printf("\n");
	}
	printf("\nMetrics:\n");
	for (size_t i = 0; i < pmc_metrics__nr(m); i++) {
		const struct pmc_metric_info *info = pmc_metric__info(pmc_metrics__at(m, i));

		if (!shown(info, word))
			continue;
		shown_nr++;
		printf("  %s%s%s%s\n", info->name, *info->groups ? "  [" : "", info->groups,
		       *info->groups ? "]" : "");
		if (info->brief)
			printf("      %s\n", info->brief);
		printf("      = %s", info->expr);
		if (info->scale != 1)
			printf("  (unit: %g%s)", info->scale, info->unit);
		else if (*info->unit)
			printf("  (unit: %s)", info->unit);
		if (info->threshold)
			printf("  (threshold: %s)", info->threshold);
		printf("\n");
	}
	printf("\n%zu metrics in %zu groups\n", shown_nr, nr);
}

static json_t *metric_info_json(const struct pmc_metric_info *info)
{
	json_t *j = json_object(), *groups = json_array();
	char *copy = strdup(info->groups), *save = NULL;

	for (char *t = copy ? strtok_r(copy, ";", &save) : NULL; t; t = strtok_r(NULL, ";", &save))
		json_array_append_new(groups, json_string(t));
	free(copy);
	json_object_set_new(j, "name", json_string(info->name));
	json_object_set_new(j, "groups", groups);
	json_object_set_new(j, "brief", info->brief ? json_string(info->brief) : json_null());
	json_object_set_new(j, "description", info->desc ? json_string(info->desc) : json_null());
	json_object_set_new(j, "formula", json_string(info->expr));
	json_object_set_new(j, "scale", json_real(info->scale));
	json_object_set_new(j, "unit", json_string(info->unit));
	json_object_set_new(j, "threshold",
			    info->threshold ? json_string(info->threshold) : json_null());
	json_object_set_new(j, "file", info->file ? json_string(info->file) : json_null());
	return j;
}

static int print_json(const struct pmc_metrics *m, const char *word, char **groups, size_t nr)
{
	json_t *root = json_object(), *g = json_array(), *metrics = json_array();
	int err;

	for (size_t k = 0; k < nr; k++) {
		json_t *names = json_array();

		for (size_t i = 0; i < pmc_metrics__nr(m); i++) {
			const struct pmc_metric_info *info =
				pmc_metric__info(pmc_metrics__at(m, i));

			if (shown(info, word) && in_group(info, groups[k]))
				json_array_append_new(names, json_string(info->name));
		}
		json_array_append_new(g,
				      json_pack("{s:s, s:o}", "name", groups[k], "metrics", names));
	}
	for (size_t i = 0; i < pmc_metrics__nr(m); i++) {
		const struct pmc_metric_info *info = pmc_metric__info(pmc_metrics__at(m, i));

		if (shown(info, word))
			json_array_append_new(metrics, metric_info_json(info));
	}
	json_object_set_new(root, "schema", json_string("pmc-list-metrics/1"));
	json_object_set_new(root, "groups", g);
	json_object_set_new(root, "metrics", metrics);
	err = json_dumpf(root, stdout, JSON_INDENT(2));
	printf("\n");
	json_decref(root);
	return err ? 1 : 0;
}

int list_metrics(const char *backend, const char *word, bool json)
{
	struct metric_opts o = {.backend = backend};
	struct pmc_metrics *m;
	size_t nr;
	char **groups;
	int rc = metric_set__new(&o, "pmc list", &m);

	if (rc)
		return rc;
	groups = groups_of(m, word, &nr);
	if (!groups) {
		fprintf(stderr, "pmc list: out of memory\n");
		pmc_metrics__delete(m);
		return 1;
	}
	if (json)
		rc = print_json(m, word, groups, nr);
	else
		print_text(m, word, groups, nr);
	for (size_t k = 0; k < nr; k++)
		free(groups[k]);
	free(groups);
	pmc_metrics__delete(m);
	return rc || fflush(stdout) || ferror(stdout) ? 1 : 0;
}
