/* SPDX-License-Identifier: MIT */
/* The calibration file of pmc calibrate (schemas "pmc-calibrate/1" to /3, calib.c), read when
 * the runner subtracts overhead (opts.subtract_overhead, regions.c) and written by
 * pmc calibrate. */
#ifndef PMC_LIB_RUN_CALIB_H
#define PMC_LIB_RUN_CALIB_H

#include <stdbool.h>
#include <jansson.h>

struct calib;

/*
 * Loads path (NULL: the default): only a regular file, of a schema version this pmc reads,
 * whose overheads are counts from 0 to 1e15. Returns 0, or -errno, -PMC_E_FORMAT or
 * -PMC_E_VERSION with why saying what is wrong (the entry and field, or the version found
 * and the ones read).
 */
int pmc__calib_load(const char *path, struct calib **out, char *why, size_t len);
void pmc__calib_free(struct calib *c);
/*
 * The events the run counts together (n names): lookups then prefer an entry calibrated with
 * exactly this set ("set", pmc calibrate --set), where each event's region costs are those it
 * has beside the others, to the entry calibrated alone. Returns 0 or -ENOMEM.
 */
int pmc__calib_use_set(struct calib *c, const char *const *names, size_t n);
const char *pmc__calib_path(const struct calib *c);
/* The file it was read from, and when it was measured ("unknown" when the file does not
 * say), for outputs. */
const char *pmc__calib_date(const struct calib *c);

/*
 * The calibrated median of event (as named with -e) on backend with privilege mask priv:
 * per region entry (an empty begin/end pair) or per run (an empty program under pmc stat).
 * named: the cost of the named markers, pmc_region_begin(name) (an entry's "named"), else of
 * the markers by id, pmc_region_begin_n(). Returns false when the file has no such entry, or
 * no such form (a file of a pmc that calibrated the id form only).
 */
bool pmc__calib_per_entry(const struct calib *c, const char *backend, const char *event,
			  unsigned priv, bool named, double *out);
/* The median of a process's first region entry (schema 2 on); false where not calibrated. */
bool pmc__calib_first_entry(const struct calib *c, const char *backend, const char *event,
			    unsigned priv, bool named, double *out);
bool pmc__calib_per_run(const struct calib *c, const char *backend, const char *event,
			unsigned priv, double *out);

/*
 * Merges entries, a JSON array of calibration entries (docs/accuracy.md, "`pmc calibrate`"; the
 * caller keeps its reference), into the calibration file at path (NULL: this machine's; "-":
 * stdout, nothing merged): earlier entries for other events, backends, levels or sets are
 * kept. The file gets this machine's description, empty_program (the program whose counts
 * were measured) and the schema the entries need ("pmc-calibrate/3" where one has a "set",
 * else /2); it is written whole or not at all (lib/core/jsonfile.c). Returns 0, -EINVAL when
 * entries is not an array, -ENOMEM, or the write's error (-ENOSPC, -EACCES, ...).
 */
int pmc__calib_save(const char *path, json_t *entries, const char *empty_program);

#endif /* PMC_LIB_RUN_CALIB_H */
