/* SPDX-License-Identifier: MIT */
/* JSON strings from byte strings (names, arguments, symbols are bytes, not always UTF-8). */
#ifndef PMC_LIB_CORE_JSONSTR_H
#define PMC_LIB_CORE_JSONSTR_H

#include <jansson.h>

/*
 * A new JSON string holding s (NULL: JSON null). Valid UTF-8 is kept as it is; each byte
 * that is not part of valid UTF-8, and each backslash, becomes the four characters \xHH
 * (lower-case hex), so no string is dropped, the output stays valid UTF-8 and two strings
 * never encode alike (docs/versioning.md, "Strings"). Returns NULL only when out of memory.
 */
json_t *pmc__json_bytes(const char *s);

/*
 * Decodes, in place, a string pmc__json_bytes() wrote back to its bytes: each \xHH (lower-case
 * hex, not 00) becomes the byte HH; any other text is kept (a file written before backslashes
 * were escaped reads as it did). s may be NULL.
 */
void pmc__json_unbytes(char *s);

#endif /* PMC_LIB_CORE_JSONSTR_H */
