// SPDX-License-Identifier: MIT
/* The merged statistics as JSON, schema "pmc-merge/1" (docs/mpi.md). */
#include <errno.h>
#include <math.h>
#include "core/jsonstr.h"
#include "merge/merge.h"

/* A number, or null where it has no value (a quotient by 0). */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *stat_json(const char *name, const struct series *s, size_t nr_files)
{
	const struct merge_stat *st = &s->st;
	json_t *j = json_pack("{s:o, s:I}", "name", pmc__json_bytes(name), "n", (json_int_t)st->n);
	json_t *pct = json_object(), *ranks = json_array();

	for (size_t i = 0; i < nr_files; i++)
		if (!isnan(s->values[i]))
			json_array_append_new(ranks, json_pack("{s:i, s:f}", "rank", s->ranks[i],
							       "value", s->values[i]));
	for (int k = 0; st->n && k < MERGE_NR_PCT; k++) {
		char key[8];

		snprintf(key, sizeof(key), "p%d", (int)pmc__merge_pct[k]);
		json_object_set_new(pct, key, num(st->pct[k]));
	}
	if (!j)
		return NULL;
	if (st->n) {
		json_object_set_new(j, "sum", num(st->sum));
		json_object_set_new(j, "min", num(st->min));
		json_object_set_new(j, "min_rank", json_integer(st->min_rank));
		json_object_set_new(j, "max", num(st->max));
		json_object_set_new(j, "max_rank", json_integer(st->max_rank));
		json_object_set_new(j, "mean", num(st->mean));
		json_object_set_new(j, "stddev", num(st->stddev));
		json_object_set_new(j, "cv", num(st->cv));
		json_object_set_new(j, "imbalance", num(st->imbalance));
		json_object_set_new(j, "load_balance", num(st->load_balance));
	}
	json_object_set_new(j, "percentiles", pct);
	json_object_set_new(j, "ranks", ranks);
	return j;
}

struct json_out {
	json_t *events, *metrics, *regions, *region; /* region: the last one's "events" */
};

static void add_series(const struct pmc_merge *m, char kind, size_t r, size_t idx,
		       const struct series *s, void *arg)
{
	struct json_out *o = arg;

	if (kind == 'm') {
		json_array_append_new(o->metrics, stat_json(m->metrics.names[idx], s, m->nr_files));
		return;
	}
	if (kind == 'r' && idx == 0) {
		o->region = json_array();
		json_array_append_new(o->regions, json_pack("{s:o, s:o}", "name",
							    pmc__json_bytes(m->regions.names[r]),
							    "events", o->region));
	}
	json_array_append_new(kind == 'e' ? o->events : o->region,
			      stat_json(m->events.names[idx], s, m->nr_files));
}

static void add_missing(int rank, void *arg)
{
	json_array_append_new(arg, json_integer(rank));
}

static json_t *ranks_json(const struct pmc_merge *m, json_t *stopped)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < m->nr_files; i++) {
		const struct merge_file *f = &m->files[i];

		json_array_append_new(arr,
				      json_pack("{s:i, s:o, s:b, s:O}", "rank", f->rank, "file",
						pmc__json_bytes(f->path), "stopped_early",
						f->stopped_early, "provenance", f->provenance));
		if (f->stopped_early)
			json_array_append_new(stopped, json_pack("{s:i, s:s}", "rank", f->rank,
								 "stopped_by", f->stopped_by));
	}
	return arr;
}

int pmc__merge_write_json(struct pmc_merge *m, FILE *f)
{
	struct json_out o = {json_array(), json_array(), json_array(), NULL};
	json_t *missing = json_array(), *stopped = json_array(), *root;
	int err = pmc__merge_for_series(m, add_series, &o);

	pmc__merge_for_missing(m, add_missing, missing);
	root = json_pack("{s:s, s:s?, s:i, s:I, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "schema",
			 "pmc-merge/1", "launcher", m->launcher, "size", m->size, "nr_ranks",
			 (json_int_t)m->nr_files, "pmc_version", m->version, "backend", m->backend,
			 "missing_ranks", missing, "stopped_early", stopped, "ranks",
			 ranks_json(m, stopped), "events", o.events, "metrics", o.metrics,
			 "regions", o.regions);
	if (!root || err) {
		json_decref(root);
		return err ? err : -ENOMEM;
	}
	err = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	fputc('\n', f);
	json_decref(root);
	return err ? -EIO : 0;
}
