// SPDX-License-Identifier: MIT
/*
 * Source-line heat for the HTML report: the hottest functions' source lines with the samples
 * at each, and the text of those lines read from the source file the debug information names.
 * The text is capped (srctext.h's caps, SRC_MAX_LINES): a page never embeds a whole large
 * file, and a file that is not a regular file is not read (docs/security.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/jsonstr.h"
#include "report/report.h"
#include "report/srctext.h"

#define SRC_FUNCS 5	  /* functions shown */
#define SRC_MAX_LINES 400 /* lines of text embedded per function */
#define SRC_CONTEXT 3	  /* lines shown around the sampled ones */

struct hot_fn {
	const struct pmc__sym *sym;
	const char *dso;
	uint64_t samples;
};

static int by_samples(const void *a, const void *b)
{
	const struct hot_fn *x = a, *y = b;

	return x->samples > y->samples ? -1 : x->samples < y->samples;
}

/* The SRC_FUNCS symbols with the most samples (of every event) at their instructions. */
static size_t hottest(struct pmc_report *r, struct hot_fn *top)
{
	struct pmc__addrmap at = {0}; /* symbol → its index in all, plus one */
	struct hot_fn *all = calloc(r->ip_hist.nr + 1, sizeof(*all));
	size_t n = 0;

	for (size_t i = 0; all && i < r->ip_hist.cap; i++) {
		const struct ip_count *ic = r->ip_hist.vals[i];
		uintptr_t j;
		if (!ic)
			continue;
		j = (uintptr_t)pmc__addrmap_get(&at, (uintptr_t)ic->res->sym);
		if (!j) {
			all[n] = (struct hot_fn){ic->res->sym, ic->dso->short_name, 0};
			j = ++n;
			if (pmc__addrmap_put(&at, (uintptr_t)ic->res->sym, (void *)j))
				break;
		}
		all[j - 1].samples += ic->samples;
	}
	if (n)
		qsort(all, n, sizeof(*all), by_samples);
	n = n < SRC_FUNCS ? n : SRC_FUNCS;
	if (n)
		memcpy(top, all, n * sizeof(*top));
	free(all);
	pmc__addrmap_free(&at);
	return n;
}

/* The function's most sampled source file, and its lines' samples as [line, samples]. */
static json_t *line_counts(struct pmc_report *r, const struct pmc__sym *sym, const char **file,
			   int *lo, int *hi)
{
	json_t *counts = json_object(), *out = json_array();
	const char *key;
	json_t *v;
	char buf[32];

	*file = NULL;
	for (size_t i = 0; i < r->ip_hist.cap; i++) {
		const struct ip_count *ic = r->ip_hist.vals[i];
		if (!ic || ic->res->sym != sym || !ic->res->srcfile || ic->res->line <= 0)
			continue;
		if (!*file)
			*file = ic->res->srcfile;
		if (strcmp(*file, ic->res->srcfile))
			continue;
		snprintf(buf, sizeof(buf), "%d", ic->res->line);
		v = json_object_get(counts, buf);
		json_object_set_new(counts, buf,
				    json_integer(json_integer_value(v) + (json_int_t)ic->samples));
	}
	*lo = *hi = 0;
	json_object_foreach(counts, key, v)
	{
		int line = atoi(key);
		*lo = !*lo || line < *lo ? line : *lo;
		*hi = line > *hi ? line : *hi;
		json_array_append_new(out, json_pack("[i, O]", line, v));
	}
	json_decref(counts);
	return out;
}

/* Lines first..last of path (at most SRC_MAX_LINES), or a reason they cannot be shown. */
static json_t *read_lines(const char *path, int first, int last, const char **why)
{
	struct pmc__srctext *t;
	json_t *text;
	int err = pmc__srctext_load(path, &t);

	if (err) {
		*why = pmc__srctext_why(err);
		return NULL;
	}
	text = json_array();
	for (int no = first; no <= last && pmc__srctext_line(t, no); no++)
		json_array_append_new(text, pmc__json_bytes(pmc__srctext_line(t, no)));
	pmc__srctext_free(t);
	return text;
}

static json_t *fn_json(struct pmc_report *r, const struct hot_fn *fn)
{
	const char *file, *why = NULL;
	int lo, hi, first, last;
	json_t *counts = line_counts(r, fn->sym, &file, &lo, &hi), *j, *text = NULL;

	j = json_pack("{s:o, s:o, s:I}", "function", pmc__json_bytes(fn->sym->name), "dso",
		      pmc__json_bytes(fn->dso), "samples", (json_int_t)fn->samples);
	if (!file) {
		json_decref(counts);
		json_object_set_new(j, "note", json_string("no line information"));
		return j;
	}
	first = lo > SRC_CONTEXT ? lo - SRC_CONTEXT : 1;
	last = hi + SRC_CONTEXT;
	if (last - first + 1 > SRC_MAX_LINES)
		last = first + SRC_MAX_LINES - 1;
	text = read_lines(file, first, last, &why);
	json_object_set_new(j, "file", pmc__json_bytes(file));
	json_object_set_new(j, "first", json_integer(first));
	json_object_set_new(j, "counts", counts);
	json_object_set_new(j, "text", text ? text : json_null());
	if (why)
		json_object_set_new(j, "note", json_string(why));
	return j;
}

json_t *pmc__report_source_json(struct pmc_report *r)
{
	struct hot_fn top[SRC_FUNCS];
	size_t n = hottest(r, top);
	json_t *fns = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(fns, fn_json(r, &top[i]));
	return fns;
}
