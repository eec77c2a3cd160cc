// SPDX-License-Identifier: MIT
/* The report's histogram: entries by sort-key tuple, self and children periods, callers, stacks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "report/report.h"

static uint64_t tuple_hash(const uint64_t *key, size_t n, size_t attr_idx)
{
	uint64_t h = 0x9e3779b97f4a7c15ull * (attr_idx + 1);

	for (size_t i = 0; i < n; i++) {
		h ^= key[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdull;
	}
	return h;
}

static struct hent *find_or_add(struct pmc_report *r, size_t attr_idx, const struct rctx *c)
{
	uint64_t key[MAX_KEYS] = {0}, h;
	struct hent *head, *e;

	for (size_t i = 0; i < r->nr_keys; i++)
		key[i] = pmc__report_key(r, r->keys[i], c);
	h = tuple_hash(key, r->nr_keys, attr_idx);
	head = pmc__addrmap_get(&r->hmap, h);
	for (e = head; e; e = e->next)
		if (e->attr_idx == attr_idx && !memcmp(e->key, key, sizeof(key)))
			return e;
	if (PMC_ENSURE(r->ents, r->alloc_ents, r->nr_ents + 1))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	memcpy(e->key, key, sizeof(key));
	e->attr_idx = attr_idx;
	e->rep = *c;
	e->next = head;
	if (pmc__addrmap_put(&r->hmap, h, e)) {
		free(e);
		return NULL;
	}
	r->ents[r->nr_ents++] = e;
	r->sorted = false;
	return e;
}

static int add_caller(struct hent *e, const struct pmc__sym *sym, uint64_t period)
{
	struct caller *v;

	for (size_t i = 0; i < e->nr_callers; i++)
		if (e->callers[i].sym == sym) {
			e->callers[i].period += period;
			return 0;
		}
	if (e->nr_callers >= 64)
		return 0; /* a long tail of callers is not worth listing */
	v = realloc(e->callers, (e->nr_callers + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	e->callers = v;
	v[e->nr_callers++] = (struct caller){sym, period};
	return 0;
}

static int add_children(struct pmc_report *r, size_t attr_idx, struct rframe *frames, size_t n,
			const struct rctx *base, uint64_t period)
{
	struct hent *seen[MAX_FRAMES];
	size_t nr_seen = 0;
	struct rctx c = *base;

	for (size_t i = 0; i < n && i < MAX_FRAMES; i++) {
		struct hent *e;
		size_t j;
		c.frame = frames[i];
		e = find_or_add(r, attr_idx, &c);
		if (!e)
			return -ENOMEM;
		/* Recursion: a function counts once per sample however often it is on the stack. */
		for (j = 0; j < nr_seen && seen[j] != e; j++)
			;
		if (j < nr_seen)
			continue;
		seen[nr_seen++] = e;
		e->children += period;
	}
	return 0;
}

static int count_ip(struct pmc_report *r, const struct rframe *f)
{
	struct ip_count *ic = pmc__addrmap_get(&r->ip_hist, (uintptr_t)f->res);

	if (!ic) {
		ic = calloc(1, sizeof(*ic));
		if (!ic || pmc__addrmap_put(&r->ip_hist, (uintptr_t)f->res, ic)) {
			free(ic);
			return -ENOMEM;
		}
		ic->res = f->res;
		ic->dso = f->dso;
	}
	ic->samples++;
	return 0;
}

static int keep_sample(struct pmc_report *r, size_t attr_idx, uint64_t ip, const struct rframe *f)
{
	if (PMC_ENSURE(r->seq, r->alloc_seq, r->nr_seq + 1))
		return -ENOMEM;
	r->seq[r->nr_seq++] = (struct rsample){ip, f->res ? f->res->sym : NULL, attr_idx};
	return 0;
}

int pmc__report_add(struct pmc_report *r, size_t attr_idx, const struct pmc__sample *s,
		    struct rframe *frames, size_t nr_frames, const struct rctx *base)
{
	uint64_t period = s->period ? s->period : 1;
	struct rctx c = *base;
	struct hent *e;

	r->total_period[attr_idx] += period;
	r->total_samples[attr_idx]++;
	if (pmc__report_settle_add(r, attr_idx, s->tid, period))
		return -ENOMEM;
	c.frame = frames[0];
	e = find_or_add(r, attr_idx, &c);
	if (!e)
		return -ENOMEM;
	e->samples++;
	e->period += period;
	if (r->opts.keep_samples && keep_sample(r, attr_idx, s->ip, &frames[0]))
		return -ENOMEM;
	if (count_ip(r, &frames[0]))
		return -ENOMEM;
	e->nr_reconstructed += c.reconstructed;
	if (r->opts.html && pmc__report_dview_add(r, attr_idx, &c, period))
		return -ENOMEM;
	if (nr_frames > 1 && !r->opts.no_callers && add_caller(e, frames[1].res->sym, period))
		return -ENOMEM;
	if ((r->opts.folded || r->opts.html) &&
	    pmc__report_add_stack(r, attr_idx, base, frames, nr_frames, period))
		return -ENOMEM;
	/* Children cost a lookup per frame; they are only computed when asked for. */
	if (nr_frames <= 1 || !r->opts.children) {
		e->children += period;
		return 0;
	}
	return add_children(r, attr_idx, frames, nr_frames, base, period);
}

static const struct pmc_report *sort_r;

static int cmp_ent(const void *a, const void *b)
{
	const struct hent *x = *(struct hent *const *)a, *y = *(struct hent *const *)b;
	uint64_t vx = sort_r->opts.children ? x->children : x->period;
	uint64_t vy = sort_r->opts.children ? y->children : y->period;

	if (x->attr_idx != y->attr_idx)
		return x->attr_idx < y->attr_idx ? -1 : 1;
	if (vx != vy)
		return vx > vy ? -1 : 1;
	return x->samples > y->samples ? -1 : x->samples < y->samples;
}

void pmc__report_sort(struct pmc_report *r)
{
	if (r->sorted)
		return;
	sort_r = r;
	if (r->nr_ents)
		qsort(r->ents, r->nr_ents, sizeof(*r->ents), cmp_ent);
	r->sorted = true;
}

bool pmc__report_visible(const struct pmc_report *r, const struct hent *e)
{
	uint64_t total = r->total_period[e->attr_idx];
	uint64_t v = r->opts.children ? e->children : e->period;

	if (!v)
		return false;
	return !total || 100.0 * (double)v / (double)total >= r->opts.min_percent;
}

/* Branch mode: one LBR entry, counting 1 (perf's pseudo period: percentages of branches). */
int pmc__report_add_branch(struct pmc_report *r, size_t attr_idx, const struct rctx *c)
{
	struct hent *e = find_or_add(r, attr_idx, c);

	if (!e)
		return -ENOMEM;
	e->samples++;
	e->period++;
	e->children++;
	r->total_period[attr_idx]++;
	return 0;
}
