/* SPDX-License-Identifier: MIT */
/*
 * The trust file of validation (schema "pmc-trust/1", docs/accuracy.md "The trust file"): its
 * reader (trust.c, behind pmc_trust__load() and pmc_trust__lookup() of include/pmc/validate.h)
 * and its writer (write.c). Below the runner, which marks each count with its verdict, and
 * below lib/validate, which writes the verdicts.
 */
#ifndef PMC_LIB_TRUST_TRUST_H
#define PMC_LIB_TRUST_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <pmc/validate.h>

/* The file's kind for the versioned JSON files' reader (core/jsonfile.h). */
const struct pmc__jsonfile_kind *pmc__trust_kind(void);

/*
 * The key an event's verdicts are filed under beside the levels it counts at: name without
 * u, k and h in its last group of modifier letters ("cycles:u" -> "cycles", "x:ukp" -> "x:p",
 * "cpu/event=0x3c/u" -> "cpu/event=0x3c/"), since the levels are keyed by "priv". buf gets
 * name cut to len - 1 bytes where it is that long.
 */
void pmc__trust_event_key(const char *name, char *buf, size_t len);

/* One verdict to write: the class with its factor, overhead and bias (NAN: none). */
struct pmc__trust_entry {
	const char *kernel, *event;
	unsigned priv; /* the levels the event counted at */
	enum pmc_validate_class cls;
	double factor, overhead, bias;
};

/*
 * Merges entries (n, of backend) into the trust file at path (NULL: this machine's): earlier
 * entries of this machine under other keys (backend, kernel, event, priv) are kept; a file
 * made on another CPU or kernel is replaced whole. Written whole or not at all. Returns 0,
 * -ENOMEM, or the write's error.
 */
int pmc__trust_save(const char *path, const char *backend, const struct pmc__trust_entry *entries,
		    size_t n);

#endif /* PMC_LIB_TRUST_TRUST_H */
