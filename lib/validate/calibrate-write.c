// SPDX-License-Identifier: MIT
/*
 * Calibration's entries as the calibration file spells them (docs/accuracy.md, "`pmc
 * calibrate`"), handed to its writer beside its reader (lib/run/calib.c).
 */
#include <errno.h>
#include <jansson.h>
#include "run/calib.h"
#include "validate/calibrate.h"

/* {n, min, median, p90, p99, max, histogram{edges, counts}}; null when not measured. */
static json_t *dist(const struct pmc_calibrate_dist *d)
{
	json_t *edges = json_array(), *counts = json_array();

	if (!d->n) {
		json_decref(edges);
		json_decref(counts);
		return json_null();
	}
	for (int b = 0; b < PMC_CALIBRATE_BINS; b++) {
		json_array_append_new(edges, json_real(d->edges[b]));
		json_array_append_new(counts, json_integer((json_int_t)d->counts[b]));
	}
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:{s:o, s:o}}", "n", (json_int_t)d->n,
			 "min", d->min, "median", d->median, "p90", d->p90, "p99", d->p99, "max",
			 d->max, "histogram", "edges", edges, "counts", counts);
}

static json_t *counts(const struct pmc_calibrate_dist *d)
{
	return json_pack("{s:o}", "counts", dist(d));
}

static json_t *empty_program(const struct pmc_calibrate_empty *e)
{
	json_t *values = json_array();

	for (int i = 0; i < e->runs; i++)
		json_array_append_new(values, json_real(e->values[i]));
	return json_pack("{s:o, s:i, s:f, s:f, s:f, s:f, s:f}", "values", values, "runs", e->runs,
			 "mean", e->mean, "ci", e->ci, "ci_pct", e->ci_pct, "median", e->median,
			 "stddev", e->stddev);
}

/* In the order pmc calibrate has always written an entry's keys, for each kind of entry. */
static json_t *entry(const struct pmc_calibrate_entry *e)
{
	json_t *j = json_object(), *set = json_array();

	if (e->timed) {
		json_object_set_new(j, "read", json_pack("{s:o}", "ns", dist(&e->read_ns)));
		json_object_set_new(j, "start_stop",
				    json_pack("{s:o}", "ns", dist(&e->start_stop_ns)));
		json_object_set_new(j, "region_pair",
				    json_pack("{s:o, s:o}", "counts", dist(&e->pair_counts), "ns",
					      dist(&e->pair_ns)));
	} else if (!e->set) {
		json_object_set_new(j, "region_pair", counts(&e->pair_counts));
	}
	json_object_set_new(j, "first_entry", counts(&e->id.first_entry));
	if (e->set)
		json_object_set_new(j, "region_pair", counts(&e->pair_counts));
	json_object_set_new(j, "named",
			    json_pack("{s:o, s:o}", "first_entry", counts(&e->named.first_entry),
				      "region_pair", counts(&e->named.region_pair)));
	for (size_t i = 0; e->set && i < e->nr_set; i++)
		json_array_append_new(set, json_string(e->set[i]));
	if (e->set)
		json_object_set(j, "set", set);
	json_decref(set);
	json_object_set_new(j, "backend", json_string(e->backend));
	json_object_set_new(j, "event", json_string(e->event));
	json_object_set_new(j, "priv", json_integer(e->priv));
	json_object_set_new(j, "empty_program", empty_program(&e->empty_program));
	return j;
}

int pmc_calibrate__save(const struct pmc_calibrate *c, const char *path)
{
	json_t *all = json_array();
	int err = all ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < c->res.nr_entries; i++)
		err = json_array_append_new(all, entry(&c->res.entries[i])) ? -ENOMEM : 0;
	err = err ? err : pmc__calib_save(path, all, c->res.empty_program);
	json_decref(all);
	return err;
}
