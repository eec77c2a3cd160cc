// SPDX-License-Identifier: MIT
/*
 * Calibration's runs under the runner, as pmc stat runs a command: the counts an empty
 * program adds (the thesis's Table D.1), and the empty regions of pmc-calibrate-regions in
 * both marker forms.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "validate/calibrate.h"

/*
 * argv under the library's runner: a warm-up run, then c->o.runs repetitions of each pass.
 * Events that cannot be counted here are said (quiet: not). Returns 0 with *out to delete,
 * or an error said.
 */
static int run_command(const struct pmc_calibrate *c, struct pmc_evlist *l, char *const *argv,
		       bool quiet, struct pmc_run **out)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = (char **)argv};
	struct pmc_run_opts ro = {.sz = sizeof(ro),
				  .repeat = c->o.runs,
				  .priv = c->o.priv,
				  .backend = c->o.backend,
				  .who = "pmc calibrate"};
	struct pmc_calibrate_msg m = {.kind = PMC_CALIBRATE_MSG_PLAN};
	const struct pmc_run_results *res;
	int err = pmc_run__new(l, &t, &ro, out);

	if (err) {
		m.err = err;
		pmc__calibrate_say(c, &m);
		return err;
	}
	res = pmc_run__results(*out);
	m.kind = PMC_CALIBRATE_MSG_SKIP;
	for (size_t i = 0; !quiet && i < res->nr_events; i++)
		if (!res->events[i].supported) {
			m.event = pmc_evsel__name(res->events[i].evsel);
			m.why = res->events[i].why;
			pmc__calibrate_say(c, &m);
		}
	err = pmc_run__execute(*out);
	if (!err && res->have_status && !(WIFEXITED(res->status) && !WEXITSTATUS(res->status)))
		err = -PMC_E_EXEC;
	if (err) {
		m = (struct pmc_calibrate_msg){
			.kind = PMC_CALIBRATE_MSG_RUN, .program = argv[0], .err = err};
		pmc__calibrate_say(c, &m);
		pmc_run__delete(*out);
		*out = NULL;
	}
	return err;
}

static int summary(const struct pmc_run_event *r, struct pmc_calibrate_empty *e)
{
	e->values = malloc((size_t)r->nr * sizeof(double));
	if (!e->values)
		return -ENOMEM;
	memcpy(e->values, r->values, (size_t)r->nr * sizeof(double));
	e->runs = r->nr;
	e->mean = r->sum.mean;
	e->ci = r->sum.ci;
	e->ci_pct = r->sum.ci_pct;
	e->median = r->sum.median;
	e->stddev = r->sum.stddev;
	return 0;
}

int pmc__calibrate_empty(const struct pmc_calibrate *c, struct pmc_calibrate_empty *e)
{
	const struct pmc_run_results *res;
	struct pmc_run *run;
	int err = run_command(c, c->l, c->o.empty_argv, false, &run);

	if (err)
		return err;
	res = pmc_run__results(run);
	for (size_t i = 0; !err && i < res->nr_events; i++)
		if (res->events[i].nr)
			err = summary(&res->events[i], &e[i]);
	pmc_run__delete(run);
	return err;
}

/* The distribution over runs of region name's count per entry of event idx; false if none. */
static bool per_entry(struct pmc_run *run, const char *name, size_t idx,
		      struct pmc_calibrate_dist *d)
{
	const struct pmc_run_results *res = pmc_run__results(run);
	const struct pmc_run_cell *cell = NULL;
	double v[4096];
	size_t n = 0;

	for (size_t r = 0; r < res->nr_regions && !cell; r++)
		if (!strcmp(res->regions[r].name, name))
			cell = pmc_run__cell(run, r, -1, idx);
	for (int i = 0; cell && i < cell->nr && n < sizeof(v) / sizeof(*v); i++)
		if (cell->entered[i] > 0)
			v[n++] = cell->values[i] / cell->entered[i];
	pmc__calibrate_dist(v, n, d);
	return n > 0;
}

/* One marker form (named: the named markers) for each of events' nr events. */
static int regions_form(const struct pmc_calibrate *c, const char *events, bool named,
			struct pmc_calibrate_form *f, size_t nr)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo), .backend = c->o.backend, .priv = c->o.priv};
	char *argv[4] = {c->regions_argv[0], c->regions_argv[1], named ? (char *)"named" : NULL,
			 NULL};
	struct pmc_evlist *l = NULL;
	struct pmc_run *run = NULL;
	int err = pmc_evlist__new(&eo, &l);

	if (!err)
		err = pmc_evlist__parse(l, events, NULL);
	if (!err && pmc_evlist__nr(l) != nr)
		err = -EINVAL;
	if (!err)
		err = run_command(c, l, argv, true, &run);
	for (size_t i = 0; !err && i < nr; i++) {
		if (!per_entry(run, "first", i, &f[i].first_entry) ||
		    !per_entry(run, "next", i, &f[i].region_pair)) {
			struct pmc_calibrate_msg m = {
				.kind = PMC_CALIBRATE_MSG_NO_REGION,
				.event = pmc_evsel__name(pmc_evlist__at(l, i))};

			pmc__calibrate_say(c, &m);
			err = -ENOENT;
		}
	}
	pmc_run__delete(run);
	pmc_evlist__delete(l);
	return err;
}

int pmc__calibrate_regions(const struct pmc_calibrate *c, const char *events,
			   struct pmc_calibrate_form *id, struct pmc_calibrate_form *named,
			   size_t nr)
{
	int err = regions_form(c, events, false, id, nr);

	return err ? err : regions_form(c, events, true, named, nr);
}
