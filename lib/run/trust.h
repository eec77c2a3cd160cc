/* SPDX-License-Identifier: MIT */
/*
 * The trust file of pmc validate (schema "pmc-trust/1", docs/accuracy.md "The trust file"),
 * read by the runner to mark each count with its verdict on this machine.
 */
#ifndef PMC_LIB_RUN_TRUST_H
#define PMC_LIB_RUN_TRUST_H

#include <stdbool.h>
#include <stddef.h>

struct trust;

/*
 * Loads path (NULL: this machine's default): only a regular file, of a schema version this pmc
 * reads, whose entries have a backend, kernel, event and known class, and finite numbers.
 * Returns 0, or -errno, -PMC_E_FORMAT or -PMC_E_VERSION with why saying what is wrong.
 */
int pmc__trust_load(const char *path, struct trust **out, char *why, size_t len);
void pmc__trust_free(struct trust *t);
const char *pmc__trust_path(const struct trust *t);

/*
 * Whether it was made on another machine: another CPU model or kernel than cpu_model and
 * kernel (pmc_caps()'s); why then names which, with what the file holds.
 */
bool pmc__trust_stale(const struct trust *t, const char *cpu_model, const char *kernel, char *why,
		      size_t len);

/*
 * The key an event's verdicts are filed under beside the levels it counts at: name without
 * u, k and h in its last group of modifier letters ("cycles:u" -> "cycles", "x:ukp" -> "x:p",
 * "cpu/event=0x3c/u" -> "cpu/event=0x3c/"), since the levels are keyed by "priv". buf gets
 * name cut to len - 1 bytes where it is that long.
 */
void pmc__trust_event_key(const char *name, char *buf, size_t len);

/*
 * The verdict on event counted by backend at the levels priv (pmc_evsel__priv(): the levels
 * it counted at, however they were asked for), over every kernel that validated the same
 * event (pmc__trust_event_key()) at the same levels: "exact",
 * "bias +4 per run", "factor 1.02", "random", or "not validated here" (no kernel did).
 * *bias: the per-run bias when the verdict is one (else 0).
 */
void pmc__trust_mark(const struct trust *t, const char *backend, const char *event, unsigned priv,
		     char *buf, size_t len, double *bias);

#endif /* PMC_LIB_RUN_TRUST_H */
