// SPDX-License-Identifier: MIT
/*
 * The HTML report's data-address views: samples that carry a data address, counted by cache
 * line, by data symbol and by data source, with their latency (weight), whatever the sort keys.
 */
#include <errno.h>
#include <stdlib.h>
#include "report/report.h"

static const enum rkey kinds[] = {K_DCACHELINE, K_DSYM, K_DSRC};

static uint64_t dent_hash(enum rkey kind, size_t attr_idx, uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;

	h ^= ((uint64_t)kind << 56) ^ ((uint64_t)attr_idx << 40);
	return h * 0xff51afd7ed558ccdull;
}

static struct dent *dent_get(struct pmc_report *r, enum rkey kind, size_t attr_idx,
			     const struct rctx *c)
{
	uint64_t key = pmc__report_key(r, kind, c), h = dent_hash(kind, attr_idx, key);
	struct dent *head = pmc__addrmap_get(&r->dview, h), *d, **v;

	for (d = head; d; d = d->next)
		if (d->kind == kind && d->attr_idx == attr_idx && d->key == key)
			return d;
	v = realloc(r->dents, (r->nr_dents + 1) * sizeof(*v));
	if (!v)
		return NULL;
	r->dents = v;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	*d = (struct dent){head, kind, attr_idx, key, *c, 0, 0, 0};
	if (pmc__addrmap_put(&r->dview, h, d)) {
		free(d);
		return NULL;
	}
	r->dents[r->nr_dents++] = d;
	return d;
}

int pmc__report_dview_add(struct pmc_report *r, size_t attr_idx, const struct rctx *c,
			  uint64_t period)
{
	if (!c->has_daddr)
		return 0;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct dent *d = dent_get(r, kinds[i], attr_idx, c);
		if (!d)
			return -ENOMEM;
		d->samples++;
		d->period += period;
		d->weight += c->weight;
	}
	return 0;
}

void pmc__report_dview_free(struct pmc_report *r)
{
	for (size_t i = 0; i < r->nr_dents; i++)
		free(r->dents[i]);
	free(r->dents);
	r->dents = NULL;
	r->nr_dents = 0;
	pmc__addrmap_free(&r->dview);
}
