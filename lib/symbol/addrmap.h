/* SPDX-License-Identifier: MIT */
/* An open-addressing hash map from a u64 to a non-NULL pointer (the symbol caches' index). */
#ifndef PMC_LIB_SYMBOL_ADDRMAP_H
#define PMC_LIB_SYMBOL_ADDRMAP_H

#include <stddef.h>
#include <stdint.h>

struct pmc__addrmap {
	uint64_t *keys;
	void **vals;	/* NULL marks an empty slot */
	size_t cap, nr; /* cap is a power of 2 */
};

static inline size_t pmc__addrmap_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

/* The value for key, or NULL. */
static inline void *pmc__addrmap_get(const struct pmc__addrmap *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = pmc__addrmap_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (!m->vals[i])
			return NULL;
		if (m->keys[i] == key)
			return m->vals[i];
	}
}

/* Sets key to val (non-NULL). Returns 0 or -ENOMEM. */
int pmc__addrmap_put(struct pmc__addrmap *m, uint64_t key, void *val);
void pmc__addrmap_free(struct pmc__addrmap *m);

#endif /* PMC_LIB_SYMBOL_ADDRMAP_H */
