// SPDX-License-Identifier: MIT
/*
 * pmc report --format=callgrind: the call chains as callgrind's profile format (Valgrind's
 * docs/html/cl-format.html), read by KCachegrind and callgrind_annotate: every event of the
 * file is a cost column, each function's self cost is given per source line, and each call
 * from a line (cfn=, calls=) carries the cost of what ran below it. docs/report.md,
 * "callgrind", says how samples become costs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/bytes.h>
#include "core/grow.h"
#include "report/report.h"

/* A cost line of a function: self cost at a line, or the cost of a call made from it. */
struct cg_cost {
	int line;
	const char *file;	       /* the line's file (an inlined function's may differ) */
	const struct pmc__sym *callee; /* NULL: self cost */
	const char *callee_file;
	uint64_t calls;
	uint64_t *cost; /* [nr_attrs] */
};

struct cg_fn {
	const struct pmc__sym *sym;
	const char *file; /* the first line's file: the function's fl= */
	struct cg_cost *costs;
	size_t nr, alloc;
};

struct cg {
	struct pmc_report *r;
	struct pmc__addrmap fn_idx; /* struct pmc__sym * → index + 1 */
	struct cg_fn *fns;
	size_t nr_fns, alloc_fns;
	/* name compression (cl-format.html): an id per object, file and function name */
	struct pmc__addrmap ob_ids, fl_ids, fn_ids;
	size_t next_ob, next_fl, next_fn;
};

static struct cg_fn *get_fn(struct cg *g, const struct rframe *f)
{
	uintptr_t idx = (uintptr_t)pmc__addrmap_get(&g->fn_idx, (uintptr_t)f->res->sym);
	struct cg_fn *fn;

	if (idx)
		return &g->fns[idx - 1];
	if (PMC_ENSURE(g->fns, g->alloc_fns, g->nr_fns + 1))
		return NULL;
	if (pmc__addrmap_put(&g->fn_idx, (uintptr_t)f->res->sym, (void *)(g->nr_fns + 1)))
		return NULL;
	fn = &g->fns[g->nr_fns++];
	*fn = (struct cg_fn){.sym = f->res->sym, .file = f->res->srcfile};
	return fn;
}

/* The cost entry of fn at (line, file) for callee (NULL: self), made on first use. */
static struct cg_cost *get_cost(struct cg *g, struct cg_fn *fn, const struct pmc__symres *at,
				const struct rframe *callee)
{
	const struct pmc__sym *cs = callee ? callee->res->sym : NULL;
	struct cg_cost *c;

	for (size_t i = fn->nr; i-- > 0;) {
		c = &fn->costs[i];
		if (c->line == at->line && c->file == at->srcfile && c->callee == cs)
			return c;
	}
	if (PMC_ENSURE(fn->costs, fn->alloc, fn->nr + 1))
		return NULL;
	c = &fn->costs[fn->nr];
	*c = (struct cg_cost){.line = at->line, .file = at->srcfile, .callee = cs};
	c->callee_file = callee ? callee->res->srcfile : NULL;
	c->cost = calloc(g->r->nr_attrs + 1, sizeof(uint64_t));
	if (!c->cost)
		return NULL;
	fn->nr++;
	return c;
}

static int add_cost(struct cg *g, const struct rframe *f, const struct rframe *callee,
		    const struct rstack *s)
{
	struct cg_fn *fn = get_fn(g, f);
	struct cg_cost *c = fn ? get_cost(g, fn, f->res, callee) : NULL;

	if (!c)
		return -ENOMEM;
	for (size_t a = 0; a < g->r->nr_attrs; a++) {
		c->cost[a] += s->period[a];
		c->calls += s->samples[a];
	}
	return 0;
}

/* Self cost at the leaf's line; at each caller's line, a call to the frame below it. */
static int build(struct cg *g)
{
	for (size_t i = 0; i < g->r->nr_stacks; i++) {
		const struct rstack *s = g->r->stack_list[i];
		if (add_cost(g, &s->frames[0], NULL, s))
			return -ENOMEM;
		for (size_t f = 1; f < s->nr; f++)
			if (add_cost(g, &s->frames[f], &s->frames[f - 1], s))
				return -ENOMEM;
	}
	return 0;
}

/*
 * Writes "KEY=(id)" or, the first time, "KEY=(id) name": always compressed, so that a name
 * that itself starts with "(1)" cannot be taken for an id. Names are made printable (no
 * line breaks or control bytes).
 */
static int put_name(FILE *out, const char *key, struct pmc__addrmap *ids, size_t *next,
		    const void *ptr, const char *name)
{
	uintptr_t id = (uintptr_t)pmc__addrmap_get(ids, (uintptr_t)ptr);
	char *p;

	if (id) {
		fprintf(out, "%s=(%zu)\n", key, (size_t)id);
		return 0;
	}
	id = ++*next;
	p = pmc_printable(name);
	if (!p || pmc__addrmap_put(ids, (uintptr_t)ptr, (void *)id)) {
		free(p);
		return -ENOMEM;
	}
	fprintf(out, "%s=(%zu) %s\n", key, (size_t)id, p);
	free(p);
	return 0;
}

static const char *file_name(const char *f)
{
	return f ? f : "???";
}

static void put_costs(const struct cg *g, FILE *out, int line, const uint64_t *cost)
{
	fprintf(out, "%d", line);
	for (size_t a = 0; a < g->r->nr_attrs; a++)
		fprintf(out, " %" PRIu64, cost[a]);
	fputc('\n', out);
}

static int write_fn(struct cg *g, const struct cg_fn *fn, FILE *out)
{
	const struct pmc__sym *sym = fn->sym;
	const char *ffile = file_name(fn->file);
	int err = put_name(out, "ob", &g->ob_ids, &g->next_ob, sym->dso, sym->dso->path);

	err = err ?: put_name(out, "fl", &g->fl_ids, &g->next_fl, ffile, ffile);
	err = err ?: put_name(out, "fn", &g->fn_ids, &g->next_fn, sym, sym->name);
	for (size_t i = 0; i < fn->nr && !err; i++) {
		const struct cg_cost *c = &fn->costs[i];
		const char *file = file_name(c->file);
		/* fi= names the file of the lines that follow when it is not the function's. */
		if (file != ffile)
			err = put_name(out, "fi", &g->fl_ids, &g->next_fl, file, file);
		if (!err && c->callee) {
			const char *cfile = file_name(c->callee_file);
			if (c->callee->dso != sym->dso)
				err = put_name(out, "cob", &g->ob_ids, &g->next_ob, c->callee->dso,
					       c->callee->dso->path);
			err = err ?: put_name(out, "cfi", &g->fl_ids, &g->next_fl, cfile, cfile);
			err = err
				      ?: put_name(out, "cfn", &g->fn_ids, &g->next_fn, c->callee,
						  c->callee->name);
			fprintf(out, "calls=%" PRIu64 " 0\n", c->calls);
		}
		put_costs(g, out, c->line, c->cost);
		if (!err && file != ffile)
			err = put_name(out, "fe", &g->fl_ids, &g->next_fl, ffile, ffile);
	}
	fputc('\n', out);
	return err;
}

/* An event's name as a cost column's: "E<index>_" and its letters and digits, '_' for others. */
static void put_event_id(FILE *out, size_t a, const char *name)
{
	fprintf(out, "E%zu_", a);
	for (const char *c = name; *c; c++)
		fputc((*c >= '0' && *c <= '9') || (*c >= 'A' && *c <= 'Z') ||
				      (*c >= 'a' && *c <= 'z')
			      ? *c
			      : '_',
		      out);
}

/* The cost columns, each with its event's whole name as its long name ("event:" lines). */
static void put_event_ids(const struct pmc_report *r, FILE *out)
{
	for (size_t a = 0; a < r->nr_attrs; a++) {
		char *p = pmc_printable(r->names[a]);
		fprintf(out, "event: ");
		put_event_id(out, a, r->names[a]);
		fprintf(out, " : %s\n", p ? p : "?");
		free(p);
	}
	fprintf(out, "events:");
	for (size_t a = 0; a < r->nr_attrs; a++) {
		fputc(' ', out);
		put_event_id(out, a, r->names[a]);
	}
	fputc('\n', out);
}

static void cg_free(struct cg *g)
{
	for (size_t i = 0; i < g->nr_fns; i++) {
		for (size_t j = 0; j < g->fns[i].nr; j++)
			free(g->fns[i].costs[j].cost);
		free(g->fns[i].costs);
	}
	free(g->fns);
	pmc__addrmap_free(&g->fn_idx);
	pmc__addrmap_free(&g->ob_ids);
	pmc__addrmap_free(&g->fl_ids);
	pmc__addrmap_free(&g->fn_ids);
}

int pmc__report_write_callgrind(struct pmc_report *r, FILE *out)
{
	struct cg g = {.r = r};
	int err = build(&g);
	char *cmd = pmc_printable(r->path ? r->path : "");

	if (!err && cmd) {
		fprintf(out, "# callgrind format\nversion: 1\ncreator: pmc report\n");
		fprintf(out, "cmd: %s\npositions: line\n", cmd);
		put_event_ids(r, out);
		fprintf(out, "summary:");
		for (size_t a = 0; a < r->nr_attrs; a++)
			fprintf(out, " %" PRIu64, r->total_period[a]);
		fprintf(out, "\n\n");
		for (size_t i = 0; i < g.nr_fns && !err; i++)
			err = write_fn(&g, &g.fns[i], out);
	}
	free(cmd);
	cg_free(&g);
	return err ? err : cmd ? 0 : -ENOMEM;
}
