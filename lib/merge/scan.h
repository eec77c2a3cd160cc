/* SPDX-License-Identifier: MIT */
/*
 * A JSON scanner that checks a document as it walks it and decodes only what is asked for
 * (scan.c): pmc merge's reader of rank files.
 */
#ifndef PMC_LIB_MERGE_SCAN_H
#define PMC_LIB_MERGE_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* jansson's own limit of nesting. */
#define JSCAN_MAX_DEPTH 2048

/* A decoded string: UTF-8, NUL-terminated (a name with a NUL in it cannot be decoded). */
struct jstr {
	char *s;
	size_t len, cap;
};

struct jscan {
	const char *p, *end;
	int depth;
};

/*
 * Each returns 0 (a step done), -1 for a document that is not JSON, or -ENOMEM. Containers:
 * pmc__jscan_enter(s, '{'), then with a bool first = true, while pmc__jscan_key() returns 1
 * read or skip the member's value; 0 when the object is closed. Arrays likewise with '[' and
 * pmc__jscan_next().
 */
int pmc__jscan_peek(struct jscan *s); /* the next byte after white space, or -1 at the end */
int pmc__jscan_enter(struct jscan *s, char open);
int pmc__jscan_key(struct jscan *s, bool *first, struct jstr *key); /* key NULL: not kept */
int pmc__jscan_next(struct jscan *s, bool *first);
int pmc__jscan_string(struct jscan *s, struct jstr *out); /* out NULL: checked, not kept */
int pmc__jscan_number(struct jscan *s, double *v);
int pmc__jscan_skip(struct jscan *s); /* any value, checked */
int pmc__jscan_end(struct jscan *s);  /* 0 when only white space is left */

#endif /* PMC_LIB_MERGE_SCAN_H */
