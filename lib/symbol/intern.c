// SPDX-License-Identifier: MIT
/* The symbol table's strings: each interned once, its pointer standing for it. */
#include <stdlib.h>
#include <string.h>
#include "symbol/symtab.h"

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* Strings are chained per hash so that equal hashes of different strings coexist. */
struct str_node {
	struct str_node *next;
	char s[];
};

const char *pmc__symtab_intern(struct pmc__symtab *st, const char *s)
{
	uint64_t h = str_hash(s);
	struct str_node *head = pmc__addrmap_get(&st->strings, h), *n;
	size_t len = strlen(s);

	for (n = head; n; n = n->next)
		if (!strcmp(n->s, s))
			return n->s;
	n = malloc(sizeof(*n) + len + 1);
	if (!n)
		return NULL;
	memcpy(n->s, s, len + 1);
	n->next = head;
	if (pmc__addrmap_put(&st->strings, h, n)) {
		free(n);
		return NULL;
	}
	return n->s;
}

void pmc__symtab_strings_free(struct pmc__symtab *st)
{
	for (size_t i = 0; i < st->strings.cap; i++) {
		struct str_node *n = st->strings.vals[i];
		while (n) {
			struct str_node *next = n->next;
			free(n);
			n = next;
		}
	}
	pmc__addrmap_free(&st->strings);
}
