// SPDX-License-Identifier: MIT
/* Writing a report as JSON (jansson): events, entries with their keys, callers, reconstruction. */
#include <jansson.h>
#include <string.h>
#include "core/jsonstr.h"
#include "report/report.h"

/*
 * {"lo": ..., "hi": ..., "level": 0.95} under "interval", the interval of an estimated count,
 * where the event has one (exact: lo = hi = the samples); else "no_estimate", the reason.
 */
static void interval_json(json_t *o, const struct pmc_estimate_check *c, uint64_t samples,
			  uint64_t period)
{
	double lo, hi;

	if (!pmc__report_entry_interval(c, samples, period, &lo, &hi)) {
		json_object_set_new(o, "no_estimate", json_string(c->reason));
		return;
	}
	json_object_set_new(
		o, "interval",
		json_pack("{s:f, s:f, s:f}", "lo", lo, "hi", hi, "level", c->est.level));
}

static json_t *entry_json(struct pmc_report *r, struct hent *e, const struct pmc_estimate_check *ck)
{
	double t = (double)(r->total_period[e->attr_idx] ? r->total_period[e->attr_idx] : 1);
	json_t *o = json_object(), *keys = json_object(), *callers = json_array();
	char buf[1024];

	for (size_t k = 0; k < r->nr_keys; k++) {
		struct pmc_report one = *r;
		one.keys[0] = r->keys[k];
		one.nr_keys = 1;
		pmc__report_key_text(&one, e, buf, sizeof(buf));
		json_object_set_new(keys, pmc__report_key_name(r->keys[k]), pmc__json_bytes(buf));
	}
	for (size_t i = 0; i < e->nr_callers; i++) {
		json_t *c = json_object();
		json_object_set_new(c, "symbol", pmc__json_bytes(e->callers[i].sym->name));
		json_object_set_new(c, "period", json_integer((json_int_t)e->callers[i].period));
		json_array_append_new(callers, c);
	}
	json_object_set_new(o, "overhead", json_real(100.0 * (double)e->period / t));
	if (r->opts.children)
		json_object_set_new(o, "children", json_real(100.0 * (double)e->children / t));
	json_object_set_new(o, "samples", json_integer((json_int_t)e->samples));
	json_object_set_new(o, "period", json_integer((json_int_t)e->period));
	interval_json(o, ck, e->samples, e->period);
	json_object_set_new(o, "reconstructed", json_integer((json_int_t)e->nr_reconstructed));
	json_object_set_new(o, "keys", keys);
	json_object_set_new(o, "callers", callers);
	return o;
}

static const char *const estimate_kind[] = {
	[PMC_ESTIMATE_INTERVAL] = "interval",
	[PMC_ESTIMATE_EXACT] = "exact",
};

static json_t *event_json(struct pmc_report *r, size_t ai)
{
	json_t *ev = json_object(), *ents = json_array();
	struct pmc_estimate_check c;
	bool has = false;

	pmc__report_check(r, ai, &c);
	has = c.status == PMC_ESTIMATE_INTERVAL || c.status == PMC_ESTIMATE_EXACT;
	json_object_set_new(ev, "name", pmc__json_bytes(r->names[ai]));
	json_object_set_new(ev, "samples", json_integer((json_int_t)r->total_samples[ai]));
	json_object_set_new(ev, "period", json_integer((json_int_t)r->total_period[ai]));
	json_object_set_new(ev, "estimate", json_string(has ? estimate_kind[c.status] : "none"));
	if (has)
		json_object_set_new(ev, "estimated_count",
				    json_integer((json_int_t)r->total_period[ai]));
	interval_json(ev, &c, r->total_samples[ai], r->total_period[ai]);
	json_object_set_new(ev, "precise_ip", json_integer(r->attrs[ai].precise_ip));
	for (size_t i = 0; i < r->nr_ents; i++)
		if (r->ents[i]->attr_idx == ai && pmc__report_visible(r, r->ents[i]))
			json_array_append_new(ents, entry_json(r, r->ents[i], &c));
	json_object_set_new(ev, "entries", ents);
	return ev;
}

int pmc__report_write_json(struct pmc_report *r, FILE *out)
{
	json_t *root = json_object(), *events = json_array(), *sort = json_array();
	int ret;

	/*
	 * docs/versioning.md: version 1 said "format": "pmc-report", "version": 1; 2 gave every
	 * event an estimated_count and interval, 3 only where the report can estimate it.
	 */
	json_object_set_new(root, "schema", json_string("pmc-report/3"));
	json_object_set_new(root, "file", pmc__json_bytes(r->path ? r->path : ""));
	json_object_set_new(root, "samples", json_integer((json_int_t)r->nr_samples));
	json_object_set_new(root, "lost", json_integer((json_int_t)r->nr_lost));
	json_object_set_new(root, "reconstructed_addresses",
			    json_integer((json_int_t)r->nr_reconstructed));
	for (size_t k = 0; k < r->nr_keys; k++)
		json_array_append_new(sort, json_string(pmc__report_key_name(r->keys[k])));
	json_object_set_new(root, "sort", sort);
	for (size_t ai = 0; ai < r->nr_attrs; ai++)
		json_array_append_new(events, event_json(r, ai));
	json_object_set_new(root, "events", events);
	ret = json_dumpf(root, out, JSON_INDENT(2));
	fputc('\n', out);
	json_decref(root);
	return ret ? -1 : 0;
}
