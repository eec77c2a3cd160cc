// SPDX-License-Identifier: MIT
/* Growing the u64 → pointer hash map used by the symbol caches and the report's tables. */
#include <errno.h>
#include <stdlib.h>
#include "symbol/addrmap.h"

static void insert(uint64_t *keys, void **vals, size_t cap, uint64_t key, void *val)
{
	size_t i = pmc__addrmap_hash(key) & (cap - 1);

	while (vals[i] && keys[i] != key)
		i = (i + 1) & (cap - 1);
	keys[i] = key;
	vals[i] = val;
}

static int grow(struct pmc__addrmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	uint64_t *keys = malloc(cap * sizeof(*keys));
	void **vals = calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->vals[i])
			insert(keys, vals, cap, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int pmc__addrmap_put(struct pmc__addrmap *m, uint64_t key, void *val)
{
	/* Keep the load under 1/2 so probes stay short. */
	if ((m->nr + 1) * 2 > m->cap && grow(m))
		return -ENOMEM;
	if (!pmc__addrmap_get(m, key))
		m->nr++;
	insert(m->keys, m->vals, m->cap, key, val);
	return 0;
}

void pmc__addrmap_free(struct pmc__addrmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->nr = 0;
}
