// SPDX-License-Identifier: MIT
/* Writing the branch-stack analyses (opts.branch_analysis): blocks or loops as text, CSV, JSON. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <pmc/bytes.h>
#include "core/field.h"
#include "core/log.h"
#include "core/jsonstr.h"
#include "report/bblock.h"

static int cmp_block(const void *a, const void *b)
{
	const struct bblock *x = *(struct bblock *const *)a, *y = *(struct bblock *const *)b;

	if (x->est != y->est)
		return x->est > y->est ? -1 : 1;
	return x->start->addr < y->start->addr ? -1 : x->start->addr > y->start->addr;
}

/* Hottest loops first: by the passes the blocks give, then by whole instances seen. */
static int cmp_loop(const void *a, const void *b)
{
	const struct bloop *x = *(struct bloop *const *)a, *y = *(struct bloop *const *)b;

	if (x->passes != y->passes)
		return x->passes > y->passes ? -1 : 1;
	if (x->instances != y->instances)
		return x->instances > y->instances ? -1 : 1;
	return x->to->addr < y->to->addr ? -1 : x->to->addr > y->to->addr;
}

/*
 * The guide's ratio (docs/branches.md, "Trip counts"): the estimated runs of the blocks
 * through a loop's top, and of those that came from the code before it (entries at the top).
 */
static int cmp_top(const void *a, const void *b)
{
	const struct bloop *x = *(struct bloop *const *)a, *y = *(struct bloop *const *)b;

	if (x->dso != y->dso)
		return (uintptr_t)x->dso < (uintptr_t)y->dso ? -1 : 1;
	return x->to->addr < y->to->addr ? -1 : x->to->addr > y->to->addr;
}

/* Each block adds to the loops whose top it holds: loops by (object, top), a binary search. */
static void loop_ratios(struct pmc_report *r)
{
	struct bloop **v = r->loop_list;
	size_t n = r->nr_loops;

	for (size_t i = 0; i < n; i++)
		v[i]->passes = v[i]->entries = 0;
	if (n)
		qsort(v, n, sizeof(*v), cmp_top);
	for (size_t j = 0; j < r->nr_blocks; j++) {
		const struct bblock *k = r->block_list[j];
		size_t lo = 0, hi = n;

		while (lo < hi) { /* the first loop at or after (k->dso, k->start) */
			size_t mid = lo + (hi - lo) / 2;
			bool before = (uintptr_t)v[mid]->dso < (uintptr_t)k->dso ||
				      (v[mid]->dso == k->dso && v[mid]->to->addr < k->start->addr);

			if (before)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < n && v[lo]->dso == k->dso && v[lo]->to->addr <= k->end->addr; lo++) {
			v[lo]->passes += k->est;
			if (k->start->addr < v[lo]->to->addr)
				v[lo]->entries += k->est;
		}
	}
}

/* The mean trips of the whole instances (0 without). */
static double mean(const struct bloop *l)
{
	return l->instances ? (double)l->trips / (double)l->instances : 0;
}

/* Passes per entry by the blocks; negative where none entered at the top. */
static double ratio(const struct bloop *l)
{
	return l->entries > 0 ? l->passes / l->entries : -1;
}

/* "f+0x1a", as addr_from and addr_to show it. */
static void where(const struct pmc__symres *res, char *buf, size_t len)
{
	pmc__report_addr_text(res, buf, len);
}

static size_t shown(const struct pmc_report *r, size_t nr)
{
	return r->opts.max_entries && r->opts.max_entries < nr ? r->opts.max_entries : nr;
}

static void text_blocks(struct pmc_report *r, FILE *out)
{
	char a[512], b[512];

	fprintf(out,
		"# basic blocks from %" PRIu64 " branch stacks: each stack of a sample of period "
		"P adds P/(entries-1) to every block it shows; executions when the sampled event "
		"counts taken branches (docs/branches.md)\n#\n# %14s %10s %6s  %s\n",
		r->nr_stacks_used, "Est. count", "In stacks", "Bytes",
		"Block: first instruction .. taken branch (object)");
	for (size_t i = 0; i < shown(r, r->nr_blocks); i++) {
		const struct bblock *k = r->block_list[i];

		where(k->start, a, sizeof(a));
		where(k->end, b, sizeof(b));
		fprintf(out, "%16.1f %10" PRIu64 " %6" PRIu64 "  ", k->est, k->seen,
			k->end->addr - k->start->addr);
		pmc_fput_printable(out, a);
		fputs(" .. ", out);
		pmc_fput_printable(out, b);
		fputs(" (", out);
		pmc_fput_printable(out, k->dso->short_name);
		fputs(")\n", out);
	}
}

static void text_loops(struct pmc_report *r, FILE *out)
{
	char a[512], b[512];

	fprintf(out,
		"# loop trip counts from %" PRIu64 " branch stacks: the loop instances seen whole "
		"within one stack, and by blocks the passes through the top per entry from before "
		"it (docs/branches.md)\n#\n# %10s %6s %6s %10s %10s  %s\n",
		r->nr_stacks_used, "Trips", "Min", "Max", "Instances", "By blocks",
		"Loop: top <- back edge (object)");
	for (size_t i = 0; i < shown(r, r->nr_loops); i++) {
		const struct bloop *l = r->loop_list[i];

		where(l->to, a, sizeof(a));
		where(l->from, b, sizeof(b));
		if (l->instances)
			fprintf(out, "%12.2f %6" PRIu64 " %6" PRIu64 " %10" PRIu64, mean(l), l->min,
				l->max, l->instances);
		else
			fprintf(out, "%12s %6s %6s %10d", "-", "-", "-", 0);
		if (ratio(l) >= 0)
			fprintf(out, " %10.2f  ", ratio(l));
		else
			fprintf(out, " %10s  ", "-");
		pmc_fput_printable(out, a);
		fputs(" <- ", out);
		pmc_fput_printable(out, b);
		fputs(" (", out);
		pmc_fput_printable(out, l->dso->short_name);
		fputs(")\n", out);
	}
}

static void csv_blocks(struct pmc_report *r, FILE *out)
{
	char a[512];

	fputs("start,end,dso,estimated_count,in_stacks,bytes\n", out);
	for (size_t i = 0; i < shown(r, r->nr_blocks); i++) {
		const struct bblock *k = r->block_list[i];

		where(k->start, a, sizeof(a));
		pmc__csv_field(out, a);
		fputc(',', out);
		where(k->end, a, sizeof(a));
		pmc__csv_field(out, a);
		fputc(',', out);
		pmc__csv_field(out, k->dso->short_name);
		fprintf(out, ",%.1f,%" PRIu64 ",%" PRIu64 "\n", k->est, k->seen,
			k->end->addr - k->start->addr);
	}
}

static void csv_loops(struct pmc_report *r, FILE *out)
{
	char a[512];

	fputs("top,back_edge,dso,instances,mean_trips,min_trips,max_trips,by_blocks\n", out);
	for (size_t i = 0; i < shown(r, r->nr_loops); i++) {
		const struct bloop *l = r->loop_list[i];

		where(l->to, a, sizeof(a));
		pmc__csv_field(out, a);
		fputc(',', out);
		where(l->from, a, sizeof(a));
		pmc__csv_field(out, a);
		fputc(',', out);
		pmc__csv_field(out, l->dso->short_name);
		fprintf(out, ",%" PRIu64, l->instances);
		if (l->instances)
			fprintf(out, ",%.4f,%" PRIu64 ",%" PRIu64, mean(l), l->min, l->max);
		else
			fputs(",,,", out);
		if (ratio(l) >= 0)
			fprintf(out, ",%.4f\n", ratio(l));
		else
			fputs(",\n", out);
	}
}

static json_t *json_where(const struct pmc__symres *res)
{
	char a[512];

	where(res, a, sizeof(a));
	return pmc__json_bytes(a);
}

static int write_json(struct pmc_report *r, bool blocks, FILE *out)
{
	json_t *root = json_object(), *v = json_array();
	int ret;

	json_object_set_new(root, "schema", json_string("pmc-branch-analysis/1"));
	json_object_set_new(root, "file", pmc__json_bytes(r->path ? r->path : ""));
	json_object_set_new(root, "stacks", json_integer((json_int_t)r->nr_stacks_used));
	for (size_t i = 0; i < shown(r, blocks ? r->nr_blocks : r->nr_loops); i++) {
		json_t *o = json_object();

		if (blocks) {
			const struct bblock *k = r->block_list[i];

			json_object_set_new(o, "start", json_where(k->start));
			json_object_set_new(o, "end", json_where(k->end));
			json_object_set_new(o, "dso", pmc__json_bytes(k->dso->short_name));
			json_object_set_new(o, "estimated_count", json_real(k->est));
			json_object_set_new(o, "in_stacks", json_integer((json_int_t)k->seen));
		} else {
			const struct bloop *l = r->loop_list[i];

			json_object_set_new(o, "top", json_where(l->to));
			json_object_set_new(o, "back_edge", json_where(l->from));
			json_object_set_new(o, "dso", pmc__json_bytes(l->dso->short_name));
			json_object_set_new(o, "instances", json_integer((json_int_t)l->instances));
			json_object_set_new(o, "mean_trips",
					    l->instances ? json_real(mean(l)) : json_null());
			json_object_set_new(o, "min_trips",
					    l->instances ? json_integer((json_int_t)l->min)
							 : json_null());
			json_object_set_new(o, "max_trips",
					    l->instances ? json_integer((json_int_t)l->max)
							 : json_null());
			json_object_set_new(o, "by_blocks",
					    ratio(l) >= 0 ? json_real(ratio(l)) : json_null());
		}
		json_array_append_new(v, o);
	}
	json_object_set_new(root, blocks ? "blocks" : "loops", v);
	ret = json_dumpf(root, out, JSON_INDENT(2));
	fputc('\n', out);
	json_decref(root);
	return ret ? -ENOMEM : 0;
}

int pmc__report_write_branch_analysis(struct pmc_report *r, enum pmc_report_format fmt, FILE *out)
{
	bool blocks = r->opts.branch_analysis == PMC_BRANCH_ANALYSIS_BLOCKS;

	if (r->nr_blocks)
		qsort(r->block_list, r->nr_blocks, sizeof(*r->block_list), cmp_block);
	loop_ratios(r);
	if (r->nr_loops)
		qsort(r->loop_list, r->nr_loops, sizeof(*r->loop_list), cmp_loop);
	if (r->nr_stacks_filtered)
		pr_warn("%" PRIu64 " branch stacks of events that filter branch kinds "
			"were left out of the analysis (it needs every taken branch)\n",
			r->nr_stacks_filtered);
	switch (fmt) {
	case PMC_REPORT_TEXT:
		fputs("# pmc report of ", out);
		pmc_fput_printable(out, r->path);
		fputc('\n', out);
		(blocks ? text_blocks : text_loops)(r, out);
		return 0;
	case PMC_REPORT_CSV:
		(blocks ? csv_blocks : csv_loops)(r, out);
		return 0;
	case PMC_REPORT_JSON:
		return write_json(r, blocks, out);
	default:
		return -EINVAL;
	}
}
