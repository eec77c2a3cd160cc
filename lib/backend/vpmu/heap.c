// SPDX-License-Identifier: MIT
/*
 * Heap blocks under vpmuheap (docs/vpmu.md, "Heap blocks"): the allocation sites the stream
 * names (VPMU_REC_SITE), and which blocks the file already describes. A sample whose data
 * address is in a live block makes the converter write a data mapping over the block, named
 * "[heap] alloc@SITE", before the sample, once for each block (a block that replaces another
 * at the same address is described anew); readers then name the sample's data address by the
 * mapping, and the samples of one site aggregate under one name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend/vpmu/sample.h"

#define SITE_PREFIX "[heap] alloc@"
#define MAX_SITES (1u << 24) /* a site id past this is a malformed stream */

struct heap_block {
	uint64_t addr, size;
	uint32_t site;
	bool used;
};

struct vpmu_heap {
	char **site;		/* [id]: "[heap] alloc@NAME", or NULL */
	uint32_t nr_site;	/* entries of site[] */
	struct heap_block *tab; /* open addressing by address, a power of two long */
	size_t cap, nr;
	char unknown[64];
};

static struct vpmu_heap *heap_get(struct vpmu_conv *cv)
{
	if (!cv->heap)
		cv->heap = calloc(1, sizeof(*cv->heap));
	return cv->heap;
}

int pmc__vpmu_heap_site(struct vpmu_conv *cv, const struct vpmu_rec_site *r, size_t size)
{
	struct vpmu_heap *h = heap_get(cv);
	size_t max = size - sizeof(*r);
	char *name;

	if (!h)
		return -ENOMEM;
	if (r->id >= MAX_SITES)
		return -ENOMEM; /* as a table that large would be; id + 1 cannot wrap below */
	if (r->id >= h->nr_site) {
		uint32_t n = r->id + 1 > 2 * h->nr_site ? r->id + 1 : 2 * h->nr_site;
		char **s;

		n = n > MAX_SITES ? MAX_SITES : n;
		s = realloc(h->site, n * sizeof(*s));

		if (!s)
			return -ENOMEM;
		memset(s + h->nr_site, 0, (n - h->nr_site) * sizeof(*s));
		h->site = s;
		h->nr_site = n;
	}
	if (asprintf(&name, SITE_PREFIX "%.*s", (int)strnlen(r->name, max), r->name) < 0)
		return -ENOMEM;
	free(h->site[r->id]);
	h->site[r->id] = name;
	return 0;
}

static uint64_t hash(uint64_t a)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdull;
	return a ^ (a >> 33);
}

static int grow(struct vpmu_heap *h)
{
	size_t cap = h->cap ? 2 * h->cap : 64;
	struct heap_block *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++) {
		size_t j = hash(h->tab[i].addr) & (cap - 1);

		if (!h->tab[i].used)
			continue;
		while (t[j].used)
			j = (j + 1) & (cap - 1);
		t[j] = h->tab[i];
	}
	free(h->tab);
	h->tab = t;
	h->cap = cap;
	return 0;
}

/*
 * The name of the mapping to write for r's block, or NULL when the file describes that block
 * already; *err is set on failure.
 */
const char *pmc__vpmu_heap_block_name(struct vpmu_conv *cv, const struct vpmu_rec_sample *r,
				      int *err)
{
	struct vpmu_heap *h = heap_get(cv);
	struct heap_block *b;
	size_t j;

	*err = 0;
	if (!h || ((h->nr + 1) * 2 > h->cap && grow(h))) {
		*err = -ENOMEM;
		return NULL;
	}
	j = hash(r->block_addr) & (h->cap - 1);
	while (h->tab[j].used && h->tab[j].addr != r->block_addr)
		j = (j + 1) & (h->cap - 1);
	b = &h->tab[j];
	if (b->used && b->size == r->block_size && b->site == r->block_site)
		return NULL;
	h->nr += !b->used;
	*b = (struct heap_block){r->block_addr, r->block_size, r->block_site, true};
	if (r->block_site < h->nr_site && h->site[r->block_site])
		return h->site[r->block_site];
	snprintf(h->unknown, sizeof(h->unknown), SITE_PREFIX "site%u", r->block_site);
	return h->unknown;
}

void pmc__vpmu_heap_free(struct vpmu_conv *cv)
{
	struct vpmu_heap *h = cv->heap;

	if (!h)
		return;
	for (uint32_t i = 0; i < h->nr_site; i++)
		free(h->site[i]);
	free(h->site);
	free(h->tab);
	free(h);
	cv->heap = NULL;
}
