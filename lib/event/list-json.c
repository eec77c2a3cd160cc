// SPDX-License-Identifier: MIT
/* pmc list's JSON, schema pmc-list/1: the events a list knows, each with whether it counts. */
#include <errno.h>
#include <jansson.h>
#include <pmc/event.h>

static json_t *event_json(const struct pmc_event_listed *e)
{
	const struct pmc_event_info *in = &e->info;
	json_t *j = json_pack("{s:s, s:s, s:b}", "name", in->name, "kind",
			      pmc_event_kind__name(in->kind), "supported", e->supported);

	if (in->pmu)
		json_object_set_new(j, "pmu", json_string(in->pmu));
	if (in->desc)
		json_object_set_new(j, "description", json_string(in->desc));
	if (in->alias_of)
		json_object_set_new(j, "alias_of", json_string(in->alias_of));
	if (in->maps_to)
		json_object_set_new(j, "maps_to", json_string(in->maps_to));
	if (in->example)
		json_object_set_new(j, "example", json_string(in->example));
	if (!e->supported)
		json_object_set_new(j, "reason", json_string(e->why ? e->why : ""));
	return j;
}

int pmc_event_list__write_json(const struct pmc_event_listed *events, size_t nr,
			       const char *backend, FILE *f)
{
	json_t *arr = json_array(), *root;
	int err;

	for (size_t i = 0; i < nr; i++)
		json_array_append_new(arr, event_json(&events[i]));
	root = json_pack("{s:s, s:s, s:o}", "schema", "pmc-list/1", "backend",
			 backend ? backend : "perf", "events", arr);
	err = root ? json_dumpf(root, f, JSON_INDENT(2)) : -1;
	fputc('\n', f);
	json_decref(root);
	return !root ? -ENOMEM : err ? -EIO : 0;
}
