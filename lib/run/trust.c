// SPDX-License-Identifier: MIT
/*
 * The runner's verdicts: each event's class looked up in the trust file (include/pmc/validate.h,
 * read by lib/trust), and a validated bias to subtract.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/pmc.h>
#include <pmc/validate.h>
#include "run/runner.h"

/*
 * The runner's side (runner.h): each event's verdict from opts.trust, once a run's values are
 * summarised. A missing default file says nothing; a missing named one, an unreadable one or
 * one from another machine is noted and ignored.
 */
void pmc__run_trust(struct pmc_run *run)
{
	const char *path = run->opts.trust;
	struct pmc_run_results *res = &run->res;
	char why[320];
	double bias;
	int err;

	pmc__run_trust_free(run);
	if (!path)
		return;
	err = pmc_trust__load(*path ? path : NULL, &run->trust, why, sizeof(why));
	if (err == -ENOENT && !*path)
		return;
	/* the machine is probed only when there is a file to check it against: pmc_caps() reads
	 * /proc/cpuinfo and asks every backend, 0.3 ms after each pmc stat otherwise */
	if (!err && pmc_trust__stale(run->trust, pmc_caps()->cpu_model, pmc_caps()->kernel, why,
				     sizeof(why)))
		err = -ESTALE;
	if (err) {
		snprintf(run->trust_note, sizeof(run->trust_note),
			 "the trust file %s is not used: %s; run 'pmc validate' here",
			 *path	      ? path
			 : run->trust ? pmc_trust__path(run->trust)
				      : "(this machine's)",
			 why);
		res->trust_note = run->trust_note;
		pmc_trust__delete(run->trust);
		run->trust = NULL;
		return;
	}
	res->trust = calloc(res->nr_events ? res->nr_events : 1, sizeof(*res->trust));
	run->trust_bias = calloc(res->nr_events ? res->nr_events : 1, sizeof(*run->trust_bias));
	for (size_t i = 0; res->trust && run->trust_bias && i < res->nr_events; i++) {
		enum pmc_validate_class cls;
		char mark[64];

		/* the levels it counted at, however they were asked for (-e x:u, --user, none) */
		err = pmc_trust__lookup(run->trust, pmc_evlist__backend(run->evlist),
					pmc_evsel__name(res->events[i].evsel),
					pmc_evsel__priv(res->events[i].evsel), &cls, &bias, mark,
					sizeof(mark));
		res->trust[i] = strdup(mark);
		run->trust_bias[i] = !err && cls == PMC_VALIDATE_BIAS ? bias : NAN;
	}
	res->trust_file = pmc_trust__path(run->trust);
}

bool pmc__run_trust_bias(const struct pmc_run *run, size_t idx, double *bias)
{
	if (!run->trust_bias || isnan(run->trust_bias[idx]))
		return false;
	*bias = run->trust_bias[idx];
	return true;
}

void pmc__run_trust_free(struct pmc_run *run)
{
	struct pmc_run_results *res = &run->res;

	for (size_t i = 0; res->trust && i < res->nr_events; i++)
		free(res->trust[i]);
	free(res->trust);
	free(run->trust_bias);
	run->trust_bias = NULL;
	res->trust = NULL;
	res->trust_file = res->trust_note = NULL;
	pmc_trust__delete(run->trust);
	run->trust = NULL;
}
