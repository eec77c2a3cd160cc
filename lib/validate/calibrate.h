/* SPDX-License-Identifier: MIT */
/* Calibration's parts (include/pmc/calibrate.h): its object, the runs, the in-process measures. */
#ifndef PMC_LIB_VALIDATE_CALIBRATE_H
#define PMC_LIB_VALIDATE_CALIBRATE_H

#include <pmc/pmc.h>
#include <pmc/calibrate.h>

struct pmc_calibrate {
	struct pmc_calibrate_opts o;
	char *empty_default[2];
	char entries_arg[16];
	char *regions_argv[4];
	struct pmc_evlist *l;
	bool in_process; /* the backend counts this process (not vpmu) */
	struct pmc_calibrate_entry *entries;
	size_t nr_entries;
	struct pmc_calibrate_results res;
};

/* Hands m to the caller's message callback, if any. */
static inline void pmc__calibrate_say(const struct pmc_calibrate *c,
				      const struct pmc_calibrate_msg *m)
{
	if (c->o.message)
		c->o.message(m, c->o.message_arg);
}

/* Sorts v[0..n) and summarises it into *d (n == 0: all zero). */
void pmc__calibrate_dist(double *v, size_t n, struct pmc_calibrate_dist *d);

/*
 * The empty program under the runner: each event's summary in e[i] (runs == 0: the event was
 * not counted, said once). Returns 0 or an error already said.
 */
int pmc__calibrate_empty(const struct pmc_calibrate *c, struct pmc_calibrate_empty *e);

/*
 * The empty regions of the regions program under the runner, counting events (one, or a
 * comma list counted together), in both marker forms: id[i] and named[i] for each of the
 * list's events. Returns 0, -ENOENT (said) when one was not counted, or an error said.
 */
int pmc__calibrate_regions(const struct pmc_calibrate *c, const char *events,
			   struct pmc_calibrate_form *id, struct pmc_calibrate_form *named,
			   size_t nr);

/*
 * In a child of this process (pmc_fork()): an empty region pair's counts and ns, a group
 * read's and a start/stop's ns, for event. Returns 0 or an error (said when the child
 * reported one).
 */
int pmc__calibrate_self(const struct pmc_calibrate *c, struct pmc_calibrate_entry *e);

#endif /* PMC_LIB_VALIDATE_CALIBRATE_H */
