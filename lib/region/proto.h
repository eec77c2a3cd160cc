/* SPDX-License-Identifier: MIT */
/* The runner protocol's constants and its pass header (docs/regions.md, version 3). */
#ifndef PMC_LIB_REGION_PROTO_H
#define PMC_LIB_REGION_PROTO_H

#include <stddef.h>
#include <stdint.h>

/* "PMC-REGIONS <version> <body bytes>\n", then the body (docs/regions.md). */
#define PMC_REGION_MAGIC "PMC-REGIONS"
#define PMC_REGION_VERSION 1

/*
 * "PMC-PASS <version> <body bytes>\n", then "<key> <value>\n" lines: the runner writes it at
 * offset 0 of the results descriptor before each run, and the records follow it. Its
 * version is the runner protocol's; the records keep their own.
 */
#define PMC_PASS_MAGIC "PMC-PASS"
#define PMC_PASS_VERSION 3

/* What a pass header tells the command (docs/regions.md, "The runner protocol"). */
struct pmc__region_pass {
	char *events;  /* "events": the pass's events as an event string; always there */
	char *backend; /* "backend": the runner's backend when not the default, or NULL */
	unsigned priv; /* "priv": the default privilege mask (PMC_PRIV_*), 0 when absent */
	/* "arena <offset> <bytes>": where the arena lies in the file; 0, 0 when absent */
	uint64_t arena_off, arena_size;
};

/*
 * Reads the pass header at offset 0 of fd with pread(), so the offset the command's records
 * are appended at stays where the runner left it. Fills *out, its strings malloc'ed (free
 * with pmc__region_pass_free()). 0, -ENODATA for an empty descriptor, a negative code as
 * pmc__region_pass_line(), or -errno; on an error *out holds nothing.
 */
int pmc__region_pass_read(int fd, struct pmc__region_pass *out);
void pmc__region_pass_free(struct pmc__region_pass *p);
/*
 * The pass header at buf[0..len), whole: 0 with *out (as pmc__region_pass_read()) and *end
 * its length, or a negative code as pmc__region_pass_line() (-PMC_E_TRUNCATED when the body
 * runs past len).
 */
int pmc__region_pass_parse(const char *buf, size_t len, struct pmc__region_pass *out, size_t *end);

#endif /* PMC_LIB_REGION_PROTO_H */
