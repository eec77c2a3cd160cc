/* SPDX-License-Identifier: MIT */
/* JIT symbols: the /tmp/perf-PID.map files that JIT compilers write for perf (perfmap.c). */
#ifndef PMC_LIB_SYMBOL_PERFMAP_H
#define PMC_LIB_SYMBOL_PERFMAP_H

#include <stddef.h>
#include <stdint.h>
#include "symbol/symbol.h"

/* Files larger than this are refused (a JIT's map of a long run is a few MiB). */
#define PMC_PERFMAP_MAX_BYTES ((size_t)256 << 20)

struct pmc__perfmap;

/*
 * Parses a map's text: lines "START SIZE NAME" (START and SIZE in hex, with or without
 * 0x; NAME the rest of the line, spaces included); a line that is not so is skipped.
 * Names are interned in st. 0, or -ENOMEM.
 */
int pmc__perfmap_parse(struct pmc__symtab *st, const char *text, size_t len,
		       struct pmc__perfmap **out);
/*
 * Reads path as a file another user may have planted (docs/security.md): a symbolic link,
 * a FIFO or device, a file owned by neither this user nor root, or one over
 * PMC_PERFMAP_MAX_BYTES is refused without reading it (-ELOOP, -PMC_E_NOTREG, -EPERM,
 * -EFBIG); a missing file is -ENOENT.
 */
int pmc__perfmap_load(struct pmc__symtab *st, const char *path, struct pmc__perfmap **out);
/* The entry holding addr (the last one listed, where entries overlap): 0, or -ENOENT. */
int pmc__perfmap_find(const struct pmc__perfmap *pm, uint64_t addr, const char **name,
		      uint64_t *start, uint64_t *size);
void pmc__perfmap_free(struct pmc__perfmap *pm);

#endif /* PMC_LIB_SYMBOL_PERFMAP_H */
