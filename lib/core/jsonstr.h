/* SPDX-License-Identifier: MIT */
/* JSON strings from byte strings (names, arguments, symbols are bytes, not always UTF-8). */
#ifndef PMC_LIB_CORE_JSONSTR_H
#define PMC_LIB_CORE_JSONSTR_H

#include <jansson.h>

/*
 * A new JSON string holding s (NULL: JSON null). Valid UTF-8 is kept as it is; each byte
 * that is not part of valid UTF-8 becomes the four characters \xHH (lower-case hex), so no
 * string is dropped and the output stays valid UTF-8 (docs/versioning.md, "Strings").
 * Returns NULL only when out of memory.
 */
json_t *pmc__json_bytes(const char *s);

#endif /* PMC_LIB_CORE_JSONSTR_H */
