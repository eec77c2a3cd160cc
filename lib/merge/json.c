// SPDX-License-Identifier: MIT
/*
 * The merged statistics as JSON, schema "pmc-merge/1" (docs/mpi.md), written as a stream in
 * jansson's layout (JSON_INDENT(2), reals to 17 digits): the document keeps every rank's
 * value of every series, a million values for 1,024 ranks of 1,000 series, which as a tree of
 * jansson objects cost more than reading the files. Names and each rank's provenance are
 * still written by jansson.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/jsonstr.h"
#include "merge/merge.h"

#define MAX_DEPTH 16

struct jw {
	FILE *f;
	int depth;
	bool first[MAX_DEPTH + 1];
	int err;
};

static void indent(struct jw *w)
{
	static const char nl[] =
		"\n                                  "; /* at least 2 * MAX_DEPTH */

	fwrite(nl, 1, 1 + 2 * (size_t)w->depth, w->f);
}

/* Before a value in the container being written: its separator and indentation. */
static void item(struct jw *w)
{
	if (!w->depth)
		return;
	if (!w->first[w->depth])
		fputc(',', w->f);
	w->first[w->depth] = false;
	indent(w);
}

static void key(struct jw *w, const char *k)
{
	item(w);
	fprintf(w->f, "\"%s\": ", k); /* keys are this file's own words */
}

static void open_(struct jw *w, char c)
{
	fputc(c, w->f);
	w->depth++;
	w->first[w->depth] = true;
}

static void close_(struct jw *w, char c)
{
	bool empty = w->first[w->depth];

	w->depth--;
	if (!empty)
		indent(w);
	fputc(c, w->f);
}

/* A real as jansson writes it: %.17g with ".0" where it would read as an integer, and an
 * exponent without '+' or leading zeros; null where it has no value (a quotient by 0). */
static void real(struct jw *w, double v)
{
	char b[64], *e, *d;

	if (!isfinite(v)) {
		fputs("null", w->f);
		return;
	}
	snprintf(b, sizeof(b) - 2, "%.17g", v);
	for (d = b; *d; d++)
		if (*d == ',')
			*d = '.'; /* a locale's decimal comma */
	if (!strpbrk(b, ".e"))
		strcat(b, ".0");
	if ((e = strchr(b, 'e'))) {
		char *s = e + 1, *t = s;

		if (*s == '-')
			s++, t++;
		else if (*s == '+')
			t++;
		while (*t == '0' && t[1])
			t++;
		memmove(s, t, strlen(t) + 1);
	}
	fputs(b, w->f);
}

/* A jansson value, re-indented to where it is written. */
static void value(struct jw *w, json_t *j)
{
	char *s = j ? json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY)
		    : NULL;

	if (!s) {
		w->err = -ENOMEM;
		fputs("null", w->f);
	}
	for (const char *p = s; p && *p; p++) {
		fputc(*p, w->f);
		if (*p == '\n')
			for (int i = 0; i < w->depth; i++)
				fputs("  ", w->f);
	}
	free(s);
}

static void name(struct jw *w, const char *n)
{
	json_t *j = pmc__json_bytes(n);

	value(w, j);
	json_decref(j);
}

static void stat_json(struct jw *w, const char *n, const struct series *s, size_t nr_files)
{
	const struct merge_stat *st = &s->st;
	static const char *const names[] = {"sum",    "min", "max",	  "mean",
					    "stddev", "cv",  "imbalance", "load_balance"};
	const double vals[] = {st->sum,	   st->min, st->max,	   st->mean,
			       st->stddev, st->cv,  st->imbalance, st->load_balance};

	item(w);
	open_(w, '{');
	key(w, "name");
	name(w, n);
	key(w, "n");
	fprintf(w->f, "%zu", st->n);
	for (size_t i = 0; st->n && i < sizeof(names) / sizeof(names[0]); i++) {
		key(w, names[i]);
		real(w, vals[i]);
		if (i == 1 || i == 2) {
			key(w, i == 1 ? "min_rank" : "max_rank");
			fprintf(w->f, "%d", i == 1 ? st->min_rank : st->max_rank);
		}
	}
	key(w, "percentiles");
	open_(w, '{');
	for (int k = 0; st->n && k < MERGE_NR_PCT; k++) {
		char pk[8];

		snprintf(pk, sizeof(pk), "p%d", (int)pmc__merge_pct[k]);
		key(w, pk);
		real(w, st->pct[k]);
	}
	close_(w, '}');
	key(w, "ranks");
	open_(w, '[');
	for (size_t i = 0; i < nr_files; i++) {
		if (isnan(s->values[i]))
			continue;
		item(w);
		open_(w, '{');
		key(w, "rank");
		fprintf(w->f, "%d", s->ranks[i]);
		key(w, "value");
		real(w, s->values[i]);
		close_(w, '}');
	}
	close_(w, ']');
	close_(w, '}');
}

struct json_out {
	struct jw w;
	int part;      /* the array open: 0 events, 1 metrics, 2 regions; -1 none yet */
	size_t region; /* the region open, SIZE_MAX none */
};

/* Moves on to array part ("events", "metrics", "regions"), closing what is open. */
static void to_part(struct json_out *o, int part)
{
	while (o->part < part) {
		if (o->region != SIZE_MAX) {
			close_(&o->w, ']');
			close_(&o->w, '}');
			o->region = SIZE_MAX;
		}
		if (o->part >= 0)
			close_(&o->w, ']');
		o->part++;
		if (o->part > 2)
			break;
		key(&o->w, o->part == 0 ? "events" : o->part == 1 ? "metrics" : "regions");
		open_(&o->w, '[');
	}
}

/* Called for each series in order: events, then metrics, then each region's events. */
static void add_series(const struct pmc_merge *m, char kind, size_t r, size_t idx,
		       const struct series *s, void *arg)
{
	struct json_out *o = arg;

	to_part(o, kind == 'e' ? 0 : kind == 'm' ? 1 : 2);
	if (kind == 'r' && o->region != r) {
		if (o->region != SIZE_MAX) {
			close_(&o->w, ']');
			close_(&o->w, '}');
		}
		o->region = r;
		item(&o->w);
		open_(&o->w, '{');
		key(&o->w, "name");
		name(&o->w, m->regions.names[r]);
		key(&o->w, "events");
		open_(&o->w, '[');
	}
	stat_json(&o->w, kind == 'm' ? m->metrics.names[idx] : m->events.names[idx], s,
		  m->nr_files);
}

/* The missing ranks one by one, the first PMC_MERGE_MAX_LISTED of them, and their number. */
struct missing {
	struct jw *w;
	long listed, nr;
};

static void add_missing(int first, int last, void *arg)
{
	struct missing *ms = arg;

	for (int r = first; r <= last && ms->listed < PMC_MERGE_MAX_LISTED; r++, ms->listed++) {
		item(ms->w);
		fprintf(ms->w->f, "%d", r);
	}
	ms->nr += (long)last - first + 1;
}

static void str_or_null(struct jw *w, const char *k, const char *v)
{
	json_t *j = v ? json_string(v) : json_null();

	key(w, k);
	value(w, j);
	json_decref(j);
}

static void ranks_json(struct jw *w, const struct pmc_merge *m, bool stopped)
{
	open_(w, '[');
	for (size_t i = 0; i < m->nr_files; i++) {
		const struct merge_file *f = &m->files[i];

		if (stopped && !f->stopped_early)
			continue;
		item(w);
		open_(w, '{');
		key(w, "rank");
		fprintf(w->f, "%d", f->rank);
		if (stopped) {
			key(w, "stopped_by");
			name(w, f->stopped_by);
		} else {
			key(w, "file");
			name(w, f->path);
			key(w, "stopped_early");
			fputs(f->stopped_early ? "true" : "false", w->f);
			key(w, "provenance");
			value(w, f->provenance);
		}
		close_(w, '}');
	}
	close_(w, ']');
}

int pmc__merge_write_json(struct pmc_merge *m, FILE *f)
{
	struct json_out o = {.w = {.f = f}, .part = -1, .region = SIZE_MAX};
	struct jw *w = &o.w;
	struct missing ms = {.w = w};
	const json_t *per_host;
	json_t *none = json_array();
	int err;

	open_(w, '{');
	str_or_null(w, "schema", "pmc-merge/1");
	str_or_null(w, "launcher", m->launcher);
	key(w, "size");
	fprintf(f, "%d", m->size);
	key(w, "nr_ranks");
	fprintf(f, "%zu", m->nr_files);
	str_or_null(w, "pmc_version", m->version);
	str_or_null(w, "backend", m->backend);
	key(w, "missing_ranks");
	open_(w, '[');
	pmc__merge_for_missing(m, add_missing, &ms);
	close_(w, ']');
	key(w, "nr_missing");
	fprintf(f, "%ld", ms.nr);
	key(w, "stopped_early");
	ranks_json(w, m, true);
	key(w, "ranks");
	ranks_json(w, m, false);
	/* counted by each host's local rank 0 only (per-host.c) */
	per_host = pmc__merge_per_host(m);
	key(w, "per_host_events");
	value(w, per_host ? (json_t *)per_host : none);
	json_decref(none);
	err = pmc__merge_for_series(m, add_series, &o);
	to_part(&o, 3);
	close_(w, '}');
	fputc('\n', f);
	if (err || w->err)
		return err ? err : w->err;
	return ferror(f) ? -EIO : 0;
}
