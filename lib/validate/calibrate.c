// SPDX-License-Identifier: MIT
/*
 * Calibration (include/pmc/calibrate.h): the options, the order of the measurements and the
 * entries they make. The runs are calibrate-runs.c's, the in-process measures
 * calibrate-self.c's, the file calibrate-write.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "validate/calibrate.h"

static void free_entries(struct pmc_calibrate *c)
{
	for (size_t i = 0; i < c->nr_entries; i++)
		free(c->entries[i].empty_program.values);
	if (c->nr_entries)
		free(c->entries[0].set);
	free(c->entries);
	c->entries = NULL;
	c->nr_entries = 0;
	c->res.entries = NULL;
	c->res.nr_entries = 0;
}

void pmc_calibrate__delete(struct pmc_calibrate *c)
{
	if (!c)
		return;
	free_entries(c);
	pmc_evlist__delete(c->l);
	free(c);
}

static int parse(struct pmc_calibrate *c)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo), .backend = c->o.backend, .priv = c->o.priv};
	int err = pmc_evlist__new(&eo, &c->l);

	for (size_t i = 0; i < c->o.nr_events && !err; i++)
		err = pmc_evlist__parse(c->l, c->o.events[i], NULL);
	return err;
}

int pmc_calibrate__new(const struct pmc_calibrate_opts *opts, struct pmc_calibrate **out)
{
	struct pmc_calibrate *c;
	int err;

	*out = NULL;
	if (!opts || !opts->nr_events || !opts->events || !opts->regions_program)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	memcpy(&c->o, opts, opts->sz < sizeof(c->o) ? opts->sz : sizeof(c->o));
	c->o.sz = sizeof(c->o);
	c->o.samples = c->o.samples ? c->o.samples : 2000;
	c->o.warmup = c->o.warmup ? c->o.warmup : 200;
	c->o.runs = c->o.runs ? c->o.runs : 20;
	c->o.priv = c->o.priv ? c->o.priv : PMC_PRIV_USER;
	c->empty_default[0] = "true";
	c->o.empty_argv = c->o.empty_argv ? c->o.empty_argv : c->empty_default;
	snprintf(c->entries_arg, sizeof(c->entries_arg), "%u",
		 c->o.region_entries ? c->o.region_entries : 100);
	c->regions_argv[0] = (char *)c->o.regions_program;
	c->regions_argv[1] = c->entries_arg;
	c->res = (struct pmc_calibrate_results){
		.samples = c->o.samples, .runs = c->o.runs, .empty_program = c->o.empty_argv[0]};
	err = parse(c);
	/* A backend that counts live counts this process; vpmu counts only under Valgrind. */
	c->in_process = !err && pmc_evlist__counts_live(c->l);
	if (err) {
		pmc_calibrate__delete(c);
		return err;
	}
	*out = c;
	return 0;
}

const struct pmc_calibrate_results *pmc_calibrate__results(const struct pmc_calibrate *c)
{
	return &c->res;
}

/*
 * One event's region measurements: in pmc-calibrate-regions under the runner (the first
 * entry; every entry where it is not measured in this process), then in a child of this
 * process where the backend counts it (with times).
 */
static int measure_event(const struct pmc_calibrate *c, struct pmc_calibrate_entry *e)
{
	int err = pmc__calibrate_regions(c, e->event, &e->id, &e->named, 1);

	if (!err && c->in_process)
		err = pmc__calibrate_self(c, e);
	if (!err && !e->timed)
		e->pair_counts = e->id.region_pair;
	return err;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The set: the n events the empty program counted (e[0..n), their names set), measured
 * together in pmc-calibrate-regions (counts only); each entry's set is their names sorted.
 */
static int measure_set(const struct pmc_calibrate *c, struct pmc_calibrate_entry *e, size_t n)
{
	struct pmc_calibrate_form id[64], named[64];
	const char **set = calloc(n, sizeof(*set));
	size_t len = 0;
	char *list;
	int err;

	for (size_t i = 0; i < n; i++)
		len += strlen(e[i].event) + 1;
	list = calloc(1, len);
	if (!list || !set) {
		free(list);
		free(set);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		strcat(strcat(list, i ? "," : ""), e[i].event);
		set[i] = e[i].event;
	}
	qsort(set, n, sizeof(*set), by_name);
	err = pmc__calibrate_regions(c, list, id, named, n);
	for (size_t i = 0; i < n; i++) {
		e[i].id = id[i];
		e[i].named = named[i];
		e[i].pair_counts = id[i].region_pair;
		e[i].set = set;
		e[i].nr_set = n;
	}
	free(list);
	return err;
}

/* The entries of the events the empty program counted (the others were said while it ran). */
static size_t counted(struct pmc_calibrate *c, struct pmc_calibrate_empty *empty,
		      struct pmc_calibrate_entry *e)
{
	size_t n = 0;

	for (size_t i = 0; i < pmc_evlist__nr(c->l); i++) {
		if (!empty[i].runs)
			continue;
		e[n].event = pmc_evsel__name(pmc_evlist__at(c->l, i));
		e[n].backend = pmc_evlist__backend(c->l);
		e[n].priv = c->o.priv;
		e[n++].empty_program = empty[i];
	}
	return n;
}

int pmc_calibrate__measure(struct pmc_calibrate *c)
{
	size_t nr = pmc_evlist__nr(c->l), n;
	struct pmc_calibrate_empty *empty = calloc(nr, sizeof(*empty));
	struct pmc_calibrate_msg m = {.kind = PMC_CALIBRATE_MSG_SET_SIZE};
	int err = empty ? 0 : -ENOMEM;

	free_entries(c);
	c->entries = calloc(nr, sizeof(*c->entries));
	err = err ? err : c->entries ? pmc__calibrate_empty(c, empty) : -ENOMEM;
	if (err) {
		for (size_t i = 0; i < nr; i++)
			free(empty[i].values);
		free(empty);
		return err;
	}
	c->nr_entries = n = counted(c, empty, c->entries);
	free(empty);
	if (c->o.set && (n < 2 || n > 64)) {
		pmc__calibrate_say(c, &m);
		err = -EINVAL;
	} else if (c->o.set) {
		err = measure_set(c, c->entries, n);
	}
	for (size_t i = 0; !c->o.set && !err && i < n; i++)
		err = measure_event(c, &c->entries[i]);
	if (err) {
		free_entries(c);
		return err;
	}
	c->res.entries = c->entries;
	c->res.nr_entries = n;
	return 0;
}
