// SPDX-License-Identifier: MIT
/*
 * pmc merge's walk of one rank's file (pmc-stat/1 or pmc-regions/1) with the scanner of
 * scan.c: the provenance is kept whole (jansson parses that part, for the JSON output), and of
 * the rest only each event's, region's and metric's name and value are decoded (names back to
 * their bytes, docs/versioning.md "Strings"). A file is
 * read in one pass when its provenance and events come before its regions and metrics, as
 * pmc writes them; otherwise those parts are walked again once the rest is known.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/jsonstr.h"
#include "merge/merge.h"
#include "merge/scan.h"

/* A scanner's refusal: the document is not JSON (or not of the shape pmc writes). */
#define NOT_JSON (-1)

struct doc {
	struct pmc_merge *m;
	struct merge_file *f;
	struct jstr key, name;
	char *schema, *signal;
	json_t *prov;
	struct merge_events ev;
	bool has_events, checked;
	const char *regions, *metrics; /* where their arrays begin, when read after the rest */
	char *why;
	size_t why_len;
};

/* Whether key k is word (a literal): most keys of a file are none of those looked for. */
#define KEY_IS(k, word) ((k)->len == sizeof(word) - 1 && !memcmp((k)->s, word, sizeof(word) - 1))

/* Root members read, each at most once. */
enum { R_SCHEMA = 1, R_PROV = 2, R_EVENTS = 4, R_REGIONS = 8, R_METRICS = 16, R_SIGNAL = 32 };

/*
 * A "mean" or "value" that is not a number: refused with the file and the field, for a
 * value dropped unseen would change the statistics (a null is no value only where pmc writes
 * one: a metric it could not compute).
 */
static int bad_value(struct doc *d, const char *what, bool named, const char *field)
{
	snprintf(d->why, d->why_len, "%s: %s '%s': \"%s\" is not a number: refused", d->f->path,
		 what, named ? d->name.s : "(no name)", field);
	return -EINVAL;
}

/*
 * An entry {"name": ..., "mean" or "value": ...} of what ("event", "metric", ...): *named
 * when it has a string name (in d->name), *v its "mean" when it has one, else its "value",
 * NAN when it has neither (or null, where null_ok).
 */
static int entry(struct doc *d, struct jscan *s, bool *named, double *v, const char *what,
		 bool null_ok)
{
	bool first = true, has_mean = false, has_value = false;
	double mean = NAN, value = NAN;
	const char *bad = NULL;
	int k, err = 0;

	*named = false;
	if (pmc__jscan_enter(s, '{'))
		return NOT_JSON;
	while (!err && (k = pmc__jscan_key(s, &first, &d->key)) == 1) {
		int c = pmc__jscan_peek(s);
		bool *seen = KEY_IS(&d->key, "name")	? named
			     : KEY_IS(&d->key, "mean")	? &has_mean
			     : KEY_IS(&d->key, "value") ? &has_value
							: NULL;

		if (seen && *seen)
			return NOT_JSON; /* a member twice */
		if (seen == named && c == '"') {
			err = pmc__jscan_string(s, &d->name);
			pmc__json_unbytes(err ? NULL : d->name.s);
			*named = true;
		} else if (seen && seen != named && (c == '-' || (c >= '0' && c <= '9'))) {
			err = pmc__jscan_number(s, seen == &has_mean ? &mean : &value);
			*seen = true;
		} else {
			if (seen && seen != named && !(null_ok && c == 'n') && !bad)
				bad = seen == &has_mean ? "mean" : "value";
			err = pmc__jscan_skip(s);
			if (seen && seen != named)
				*seen = true; /* present, null: no value */
		}
	}
	*v = has_mean ? mean : has_value ? value : NAN;
	if (!err && !k && bad)
		return bad_value(d, what, *named, bad);
	return err ? err : k;
}

static int read_events(struct doc *d, struct jscan *s)
{
	struct merge_events *ev = &d->ev;
	bool first = true, named;
	double v;
	int k, err = 0;

	if (pmc__jscan_enter(s, '['))
		return NOT_JSON;
	while (!err && (k = pmc__jscan_next(s, &first)) == 1) {
		int c = pmc__jscan_peek(s);

		/* pmc-stat/1 lists objects with a name, pmc-regions/1 the names. */
		v = NAN;
		if (c == '"') {
			err = pmc__jscan_string(s, &d->name);
			pmc__json_unbytes(err ? NULL : d->name.s);
		} else if (c == '{') {
			err = entry(d, s, &named, &v, "event", false);
			if (!err && !named)
				err = -PMC_E_FORMAT;
		} else {
			err = -PMC_E_FORMAT;
		}
		if (!err && ev->nr == ev->cap) {
			size_t cap = ev->cap ? ev->cap * 2 : 32;
			char **n = realloc(ev->names, cap * sizeof(*n));
			double *w = n ? realloc(ev->values, cap * sizeof(*w)) : NULL;

			if (n)
				ev->names = n;
			if (w)
				ev->values = w, ev->cap = cap;
			else
				err = -ENOMEM;
		}
		if (!err && !(ev->names[ev->nr] = strdup(d->name.s)))
			err = -ENOMEM;
		if (!err)
			ev->values[ev->nr++] = v;
	}
	d->has_events = !err && !k;
	return err ? err : k;
}

/* A region's "events": the value of each of the file's events that it names. */
static int region_events(struct doc *d, struct jscan *s, double *row)
{
	const struct merge_names *names = &d->m->events;
	bool first = true, named;
	size_t i = 0;
	long z;
	double v;
	int k, err = 0;

	if (pmc__jscan_peek(s) != '[')
		return pmc__jscan_skip(s); /* not a list: no values */
	pmc__jscan_enter(s, '[');
	for (; !err && (k = pmc__jscan_next(s, &first)) == 1; i++) {
		if (pmc__jscan_peek(s) != '{') {
			err = pmc__jscan_skip(s);
			continue;
		}
		err = entry(d, s, &named, &v, "region's event", false);
		if (err || !named)
			continue;
		/* Most often in the order of the file's events: the i-th is tried first. */
		if (i < names->nr && !strcmp(d->name.s, names->names[i])) {
			row[i] = v;
			continue;
		}
		if ((z = pmc__merge_find(names, d->name.s)) >= 0)
			row[z] = v;
	}
	return err ? err : k;
}

static int region(struct doc *d, struct jscan *s)
{
	bool first = true, has_events = false;
	const char *events = NULL;
	double *row = NULL;
	int k, err = 0;

	if (pmc__jscan_peek(s) != '{')
		return -PMC_E_FORMAT;
	pmc__jscan_enter(s, '{');
	while (!err && (k = pmc__jscan_key(s, &first, &d->key)) == 1) {
		if (KEY_IS(&d->key, "name")) {
			if (row || pmc__jscan_peek(s) != '"')
				return row ? NOT_JSON : -PMC_E_FORMAT;
			err = pmc__jscan_string(s, &d->name);
			pmc__json_unbytes(err ? NULL : d->name.s);
			if (!err && !(row = pmc__merge_region_row(d->m, d->f, d->name.s, &err)))
				return err;
			if (!err && events) { /* its events came before its name */
				struct jscan again = {events, s->end, s->depth};

				err = region_events(d, &again, row);
			}
		} else if (KEY_IS(&d->key, "events")) {
			if (has_events)
				return NOT_JSON;
			has_events = true;
			if (row)
				err = region_events(d, s, row);
			else
				events = s->p, err = pmc__jscan_skip(s);
		} else {
			err = pmc__jscan_skip(s);
		}
	}
	if (!err && !k && !row)
		return -PMC_E_FORMAT; /* no name */
	return err ? err : k;
}

static int read_regions(struct doc *d, struct jscan *s)
{
	bool first = true;
	int k, err = 0;

	if (pmc__jscan_peek(s) != '[')
		return pmc__jscan_skip(s); /* not a list: no regions */
	pmc__jscan_enter(s, '[');
	while (!err && (k = pmc__jscan_next(s, &first)) == 1)
		err = region(d, s);
	return err ? err : k;
}

/* The metrics a file carries ("metrics": [{"name", "mean" or "value"}]), when it has any. */
static int read_metrics(struct doc *d, struct jscan *s)
{
	bool first = true, named;
	double v;
	int k, err = 0;

	if (pmc__jscan_peek(s) != '[')
		return pmc__jscan_skip(s);
	pmc__jscan_enter(s, '[');
	while (!err && (k = pmc__jscan_next(s, &first)) == 1) {
		if (pmc__jscan_peek(s) != '{')
			return -PMC_E_FORMAT;
		err = entry(d, s, &named, &v, "metric", true);
		if (!err && !named)
			err = -PMC_E_FORMAT;
		if (!err)
			err = pmc__merge_metric(d->m, d->f, d->name.s, v);
	}
	return err ? err : k;
}

/* Once schema, provenance and events are known: the file checked against the others. */
static int check(struct doc *d)
{
	if (d->checked)
		return 0;
	/* pmc stat's results, or a program's own regions (PMC_OUTPUT, libpmc-mpi) */
	if (!d->schema || (strcmp(d->schema, "pmc-stat/1") && strcmp(d->schema, "pmc-regions/1")) ||
	    !d->prov || !d->has_events)
		return -PMC_E_FORMAT;
	d->checked = true;
	return pmc__merge_check(d->m, d->f, d->prov, &d->ev, d->why, d->why_len);
}

/* The provenance object, parsed whole by jansson (its text, already checked, is small). */
static int read_prov(struct doc *d, struct jscan *s)
{
	const char *start;
	int err;

	pmc__jscan_peek(s);
	start = s->p;
	err = pmc__jscan_skip(s);
	if (err)
		return err;
	d->prov = json_loadb(start, (size_t)(s->p - start), JSON_REJECT_DUPLICATES, NULL);
	return json_is_object(d->prov) ? 0 : -PMC_E_FORMAT;
}

static int string_copy(struct jscan *s, struct jstr *tmp, char **out)
{
	int err;

	if (pmc__jscan_peek(s) != '"')
		return pmc__jscan_skip(s); /* not a string: as if absent */
	err = pmc__jscan_string(s, tmp);
	if (!err && !(*out = strdup(tmp->s)))
		err = -ENOMEM;
	return err;
}

/* A part read after the rest (regions or metrics before the events, in the file). */
static int again(struct doc *d, const struct jscan *s, const char *at,
		 int (*fn)(struct doc *, struct jscan *))
{
	struct jscan r = {at, s->end, 1};

	return at ? fn(d, &r) : 0;
}

static int walk(struct doc *d, struct jscan *s)
{
	static const char *const keys[] = {"schema",  "provenance", "events",
					   "regions", "metrics",    "signal"};
	bool first = true;
	unsigned seen = 0;
	int k, err = 0;

	if (pmc__jscan_peek(s) != '{')
		return pmc__jscan_skip(s) ? NOT_JSON : -PMC_E_FORMAT;
	pmc__jscan_enter(s, '{');
	while (!err && (k = pmc__jscan_key(s, &first, &d->key)) == 1) {
		unsigned bit = 0;

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(d->key.s, keys[i]))
				bit = 1u << i;
		if (seen & bit)
			return NOT_JSON; /* a member twice */
		seen |= bit;
		if (bit == R_SCHEMA)
			err = string_copy(s, &d->name, &d->schema);
		else if (bit == R_PROV)
			err = read_prov(d, s);
		else if (bit == R_EVENTS)
			err = pmc__jscan_peek(s) == '[' ? read_events(d, s) : -PMC_E_FORMAT;
		else if (bit == R_SIGNAL)
			err = string_copy(s, &d->name, &d->signal);
		else if (bit && d->schema && d->prov && d->has_events)
			err = check(d) ?: (bit == R_REGIONS ? read_regions : read_metrics)(d, s);
		else if (bit == R_REGIONS)
			d->regions = s->p, err = pmc__jscan_skip(s);
		else if (bit == R_METRICS)
			d->metrics = s->p, err = pmc__jscan_skip(s);
		else
			err = pmc__jscan_skip(s);
	}
	if (err || k)
		return err ? err : k;
	if (pmc__jscan_end(s))
		return NOT_JSON;
	err = check(d);
	if (!err)
		err = again(d, s, d->regions, read_regions);
	return err ? err : again(d, s, d->metrics, read_metrics);
}

int pmc__merge_read(struct pmc_merge *m, struct merge_file *f, const char *buf, size_t len,
		    char *why, size_t why_len, char *bad, size_t blen)
{
	struct doc d = {.m = m, .f = f, .why = why, .why_len = why_len};
	struct jscan s = {buf, buf + len, 0};
	int err = walk(&d, &s);

	if (err == NOT_JSON) {
		snprintf(bad, blen, ": not JSON (at byte %zu)", (size_t)(s.p - buf));
		err = -PMC_E_FORMAT;
	}
	if (!err) {
		const char *by = json_string_value(json_object_get(d.prov, "stopped_by"));

		/* The rank stopped before its command ended: a signal stopped pmc, or killed it. */
		f->stopped_early = json_is_true(json_object_get(d.prov, "interrupted")) || d.signal;
		snprintf(f->stopped_by, sizeof(f->stopped_by), "%s",
			 by	    ? by
			 : d.signal ? d.signal
				    : "");
	}
	for (size_t i = 0; i < d.ev.nr; i++)
		free(d.ev.names[i]);
	free(d.ev.names);
	free(d.ev.values);
	free(d.key.s);
	free(d.name.s);
	free(d.schema);
	free(d.signal);
	json_decref(d.prov);
	return err;
}
