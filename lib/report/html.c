// SPDX-License-Identifier: MIT
/*
 * The report as one self-contained HTML page (docs/report.md, "HTML"): the data the page's
 * script draws (data/html/report.js) as a JSON model, in lib/core/html.c's frame. Every
 * name goes in as a JSON string (pmc__json_bytes): the page escapes it and shows it as text.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/html.h"
#include "core/jsonstr.h"
#include "report/report.h"

#define TOP_ENTRIES 200 /* rows of each event's top table */
#define TOP_CALLS 16	/* callers listed per row */

/* The index of name in the page's string table, adding it on first use. */
static json_int_t name_idx(struct pmc__addrmap *idx, json_t *names, const char *name)
{
	uintptr_t v = (uintptr_t)pmc__addrmap_get(idx, (uintptr_t)name);

	if (v)
		return (json_int_t)v - 1;
	v = json_array_size(names) + 1;
	if (json_array_append_new(names, pmc__json_bytes(name)) ||
	    pmc__addrmap_put(idx, (uintptr_t)name, (void *)v))
		return -1;
	return (json_int_t)v - 1;
}

/* Each stack of event ai as [period, name index of the comm, root, ..., leaf]. */
static json_t *stacks_json(struct pmc_report *r, size_t ai, struct pmc__addrmap *idx, json_t *names)
{
	json_t *stacks = json_array();

	for (size_t i = 0; i < r->nr_stacks; i++) {
		const struct rstack *st = r->stack_list[i];
		json_t *s;

		if (!st->period[ai])
			continue;
		s = json_array();
		json_array_append_new(s, json_integer((json_int_t)st->period[ai]));
		json_array_append_new(s, json_integer(name_idx(idx, names, st->comm)));
		for (size_t k = st->nr; k-- > 0;) /* frames are leaf first */
			json_array_append_new(
				s, json_integer(name_idx(idx, names,
							 pmc__report_frame_func(&st->frames[k]))));
		json_array_append_new(stacks, s);
	}
	return stacks;
}

static json_t *row_json(struct pmc_report *r, struct hent *e)
{
	json_t *callers = json_array();

	for (size_t i = 0; i < e->nr_callers && i < TOP_CALLS; i++)
		json_array_append_new(callers,
				      json_pack("[o, I]", pmc__json_bytes(e->callers[i].sym->name),
						(json_int_t)e->callers[i].period));
	return json_pack("{s:o, s:o, s:I, s:I, s:I, s:o}", "key",
			 pmc__json_bytes(pmc__report_entry_text(r, e)), "function",
			 pmc__json_bytes(e->rep.frame.res->sym->name), "samples",
			 (json_int_t)e->samples, "period", (json_int_t)e->period, "children",
			 (json_int_t)e->children, "callers", callers);
}

static json_t *top_json(struct pmc_report *r, size_t ai)
{
	json_t *rows = json_array();
	size_t n = 0;

	for (size_t i = 0; i < r->nr_ents && n < TOP_ENTRIES; i++)
		if (r->ents[i]->attr_idx == ai && pmc__report_visible(r, r->ents[i])) {
			json_array_append_new(rows, row_json(r, r->ents[i]));
			n++;
		}
	return rows;
}

/* Event ai's rows of one data view (kind), as [text, samples, period, weight sum]. */
static json_t *dview_json(struct pmc_report *r, size_t ai, enum rkey kind)
{
	json_t *rows = json_array();
	char buf[1024];

	for (size_t i = 0; i < r->nr_dents; i++) {
		const struct dent *d = r->dents[i];
		if (d->attr_idx != ai || d->kind != kind)
			continue;
		pmc__report_one_text(kind, &d->rep, buf, sizeof(buf));
		json_array_append_new(rows, json_pack("[o, I, I, I]", pmc__json_bytes(buf),
						      (json_int_t)d->samples, (json_int_t)d->period,
						      (json_int_t)d->weight));
	}
	return rows;
}

static json_t *event_json(struct pmc_report *r, size_t ai, struct pmc__addrmap *idx, json_t *names)
{
	json_t *ev = json_pack("{s:o, s:I, s:I, s:b}", "name", pmc__json_bytes(r->names[ai]),
			       "samples", (json_int_t)r->total_samples[ai], "period",
			       (json_int_t)r->total_period[ai], "imprecise",
			       pmc__report_imprecise(&r->attrs[ai]));
	struct pmc_estimate_check c;

	if (!ev)
		return NULL;
	/* The page says the estimate, or why there is none (docs/report.md, "Estimates"). */
	pmc__report_check(r, ai, &c);
	if (c.status == PMC_ESTIMATE_INTERVAL)
		json_object_set_new(ev, "interval",
				    json_pack("[f, f]", floor(c.est.lo), ceil(c.est.hi)));
	else if (c.status == PMC_ESTIMATE_EXACT)
		json_object_set_new(ev, "exact", json_true());
	else
		json_object_set_new(ev, "no_estimate", json_string(c.reason));
	json_object_set_new(ev, "stacks", stacks_json(r, ai, idx, names));
	json_object_set_new(ev, "top", top_json(r, ai));
	json_object_set_new(ev, "cachelines", dview_json(r, ai, K_DCACHELINE));
	json_object_set_new(ev, "dsyms", dview_json(r, ai, K_DSYM));
	json_object_set_new(ev, "dsrcs", dview_json(r, ai, K_DSRC));
	return ev;
}

int pmc__report_write_html(struct pmc_report *r, FILE *out)
{
	json_t *root = json_object(), *events = json_array(), *names = json_array();
	struct pmc__addrmap idx = {0};
	int ret;

	for (size_t ai = 0; ai < r->nr_attrs; ai++)
		json_array_append_new(events, event_json(r, ai, &idx, names));
	json_object_set_new(root, "schema", json_string("pmc-report-html/1"));
	json_object_set_new(root, "file", pmc__json_bytes(r->path ? r->path : ""));
	json_object_set_new(root, "samples", json_integer((json_int_t)r->nr_samples));
	json_object_set_new(root, "lost", json_integer((json_int_t)r->nr_lost));
	json_object_set_new(root, "reconstructed", json_integer((json_int_t)r->nr_reconstructed));
	json_object_set_new(root, "children", json_boolean(r->opts.children));
	json_object_set_new(root, "names", names);
	json_object_set_new(root, "events", events);
	json_object_set_new(root, "source", pmc__report_source_json(r));
	pmc__addrmap_free(&idx);
	/* The script names the file in the title: the path is bytes, shown as text there. */
	ret = pmc__html_write(out, PMC__HTML_REPORT, "pmc report", root);
	json_decref(root);
	return ret;
}
