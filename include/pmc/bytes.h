/* SPDX-License-Identifier: MIT */
/*
 * Byte strings on a terminal. Names pmc shows (a command and its arguments, region names,
 * symbols, event strings) are bytes someone else chose; shown raw, an escape sequence among
 * them would drive the reader's terminal.
 */
#ifndef PMC_BYTES_H
#define PMC_BYTES_H

#include <stdio.h>
#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A new string (free() it) holding s with every control character (U+0000 to U+001F, DEL,
 * U+0080 to U+009F) and every byte that is not part of valid UTF-8 written as the four
 * characters \xHH (lower-case hex), as JSON output writes the bytes that are not UTF-8
 * (docs/versioning.md, "Strings"); other text, UTF-8 included, is kept. NULL is "". Returns
 * NULL only when out of memory.
 */
PMC_API char *pmc_printable(const char *s);

/* Writes pmc_printable(s) to f. Returns 0, -EIO or -ENOMEM. */
PMC_API int pmc_fput_printable(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif
#endif /* PMC_BYTES_H */
