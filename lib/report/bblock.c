// SPDX-License-Identifier: MIT
/*
 * Basic-block execution counts and loop trip counts from branch stacks (docs/branches.md,
 * after the Core i7 guide's "LBRs and Basic Block Execution Counts"). A stack's entries, in
 * the order they ran, are e[0..n-1]; the code from e[j].to to e[j+1].from ran straight
 * through, once: a block. Each sample of period P stands for P occurrences of the sampled
 * event; when that event counts taken branches, P blocks ran since the previous sample, of
 * which the stack shows n-1: each block of the stack gets P/(n-1) executions.
 */
#include <errno.h>
#include <stdlib.h>
#include "core/grow.h"
#include "report/bblock.h"

static uint64_t pair_hash(const void *a, const void *b)
{
	return pmc__addrmap_hash((uintptr_t)a * 31 + (uintptr_t)b);
}

/* Appends p to *list (grown by doubling). */
static int push(void ***list, size_t *nr, size_t *alloc, void *p)
{
	if (PMC_ENSURE(*list, *alloc, *nr + 1))
		return -ENOMEM;
	(*list)[(*nr)++] = p;
	return 0;
}

static int add_block(struct pmc_report *r, const struct rframe *s, const struct rframe *e, double w)
{
	uint64_t h = pair_hash(s->res, e->res);
	struct bblock *head = pmc__addrmap_get(&r->blocks, h), *b;

	for (b = head; b; b = b->next)
		if (b->start == s->res && b->end == e->res)
			break;
	if (!b) {
		b = calloc(1, sizeof(*b));
		if (!b)
			return -ENOMEM;
		*b = (struct bblock){head, s->res, e->res, s->dso, 0, 0};
		if (pmc__addrmap_put(&r->blocks, h, b) ||
		    push((void ***)&r->block_list, &r->nr_blocks, &r->alloc_blocks, b)) {
			free(b);
			return -ENOMEM;
		}
	}
	b->est += w;
	b->seen++;
	return 0;
}

/* The code from the target s to the source e ran straight through (one object, in order). */
static bool straight(const struct rframe *s, const struct rframe *e)
{
	return s->dso == e->dso && !s->kernel == !e->kernel && s->res->addr <= e->res->addr;
}

/* The loop of back edge from -> to, made when first seen; NULL without memory. */
static struct bloop *loop_of(struct pmc_report *r, const struct rframe *from,
			     const struct rframe *to)
{
	uint64_t h = pair_hash(from->res, to->res);
	struct bloop *head = pmc__addrmap_get(&r->loops, h), *l;

	for (l = head; l; l = l->next)
		if (l->from == from->res && l->to == to->res)
			return l;
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	*l = (struct bloop){head, from->res, to->res, from->dso, 0, 0, UINT64_MAX, 0, 0, 0};
	if (pmc__addrmap_put(&r->loops, h, l) ||
	    push((void ***)&r->loop_list, &r->nr_loops, &r->alloc_loops, l)) {
		free(l);
		return NULL;
	}
	return l;
}

static int record_trip(struct pmc_report *r, const struct rframe *from, const struct rframe *to,
		       uint64_t trips)
{
	struct bloop *l = loop_of(r, from, to);

	if (!l)
		return -ENOMEM;
	l->instances++;
	l->trips += trips;
	l->min = trips < l->min ? trips : l->min;
	l->max = trips > l->max ? trips : l->max;
	return 0;
}

/*
 * Whether a and b are in one function: one symbol, or both outside every symbol of one object
 * (stripped code, where each address is its own unnamed symbol).
 */
static bool same_func(const struct rframe *a, const struct rframe *b)
{
	return a->res->sym == b->res->sym ||
	       (a->dso == b->dso && a->res->sym->unnamed && b->res->sym->unnamed);
}

/* A jump by its recorded kind (PERF_BR_*; 0 when the stack saved none): no call or return. */
static bool jump_kind(uint8_t kind)
{
	return kind == PERF_BR_UNKNOWN || kind == PERF_BR_COND || kind == PERF_BR_UNCOND ||
	       kind == PERF_BR_IND;
}

/*
 * A jump back to an earlier place of its own function (not its start: a recursive call).
 * Outside every symbol a function's extent is unknown: a backward branch there is taken for a
 * loop's only when its kind says it is a jump, or within STRIPPED_LOOP_MAX bytes (a call back
 * to a PLT stub is further).
 */
#define STRIPPED_LOOP_MAX 4096
static bool back_edge(const struct rframe *from, const struct rframe *to, uint8_t kind)
{
	if (!jump_kind(kind) || from->dso != to->dso || !same_func(from, to) ||
	    to->res->addr >= from->res->addr)
		return false;
	if (to->res->sym->unnamed)
		return kind || from->res->addr - to->res->addr <= STRIPPED_LOOP_MAX;
	return to->res->addr != to->res->sym->start;
}

/* Whether f lies in the loop [T, F] of the back edge F -> T. */
static bool in_loop(const struct rframe *f, const struct rframe *T, const struct rframe *F)
{
	return f->dso == T->dso && f->res->addr >= T->res->addr && f->res->addr <= F->res->addr;
}

/*
 * The whole instances of the loop closed by back edge k in one stack (docs/branches.md,
 * "Trip counts"): an instance starts where the run enters the loop (falls into its first
 * instruction, or jumps in from elsewhere in the function), counts the back edge's takes,
 * and ends where the run leaves it (falls past the back edge, jumps out within the
 * function, or enters it anew); its trip count is the takes, plus one when it was entered at
 * its top. Instances cut by either end of the stack are not counted.
 */
static int trips_of(struct pmc_report *r, const struct rframe *from, const struct rframe *to,
		    const uint8_t *kind, size_t n, size_t k)
{
	const struct rframe *F = &from[k], *T = &to[k];
	uint64_t takes = 0, top = 0;
	bool in = false;
	int ret = loop_of(r, F, T) ? 0 : -ENOMEM; /* listed, whole instances or not */

	for (size_t j = 0; j < n && !ret; j++) {
		bool edge = from[j].res == F->res && to[j].res == T->res;
		bool f_in = in_loop(&from[j], T, F), t_in = in_loop(&to[j], T, F);

		if (edge) {
			takes += in;
		} else if (in && f_in && !t_in && jump_kind(kind[j]) && same_func(&to[j], T)) {
			ret = record_trip(r, F, T, takes + top); /* jumped out */
			in = false;
		} else if (!f_in && t_in && jump_kind(kind[j]) && same_func(&from[j], T)) {
			if (in)
				ret = record_trip(r, F, T, takes + top);
			in = true; /* jumped in */
			takes = 0;
			top = to[j].res == T->res;
		}
		if (ret || j + 1 == n || !straight(&to[j], &from[j + 1]) || to[j].dso != T->dso)
			continue;
		if (to[j].res->addr < T->res->addr && from[j + 1].res->addr >= T->res->addr) {
			if (in)
				ret = record_trip(r, F, T, takes + top);
			in = true; /* fell in at the top */
			takes = 0;
			top = 1;
		}
		if (!ret && in && to[j].res->addr <= F->res->addr &&
		    from[j + 1].res->addr > F->res->addr) {
			ret = record_trip(r, F, T, takes + top); /* fell out past the back edge */
			in = false;
		}
	}
	return ret;
}

int pmc__report_bblock_add(struct pmc_report *r, const struct rframe *from, const struct rframe *to,
			   const uint8_t *kind, size_t n, uint64_t period)
{
	size_t m = 0;
	int ret = 0;

	for (size_t j = 0; j + 1 < n; j++)
		m += straight(&to[j], &from[j + 1]);
	for (size_t j = 0; j + 1 < n && !ret; j++)
		if (straight(&to[j], &from[j + 1]))
			ret = add_block(r, &to[j], &from[j + 1], (double)period / (double)m);
	for (size_t k = 0; k < n && !ret; k++) {
		size_t i = 0;

		if (!back_edge(&from[k], &to[k], kind[k]))
			continue;
		while (i < k && (from[i].res != from[k].res || to[i].res != to[k].res))
			i++;
		if (i == k) /* each back edge once per stack */
			ret = trips_of(r, from, to, kind, n, k);
	}
	return ret;
}

void pmc__report_bblock_free(struct pmc_report *r)
{
	for (size_t i = 0; i < r->nr_blocks; i++)
		free(r->block_list[i]);
	for (size_t i = 0; i < r->nr_loops; i++)
		free(r->loop_list[i]);
	free(r->block_list);
	free(r->loop_list);
	pmc__addrmap_free(&r->blocks);
	pmc__addrmap_free(&r->loops);
}
