// SPDX-License-Identifier: MIT
/* The event list: creation bound to a backend, access, closing and deletion, and the walk of
 * known names. */
#include <errno.h>
#include <stdlib.h>
#include <pmc/count.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "core/opts.h"
#include "event/pmu.h"

int pmc_evlist__new(const struct pmc_evlist_opts *opts, struct pmc_evlist **out)
{
	const struct pmc_backend_ops *backend;
	struct pmc_evlist_opts o;
	struct pmc_evlist *evlist;
	int err;

	*out = NULL;
	/* backend and priv are in every version of the struct. */
	err = PMC_OPTS_COPY(pmc_evlist_opts, &o, opts, priv);
	if (err)
		return err;
	if ((unsigned)o.use > PMC_USE_SAMPLE)
		return -EINVAL;
	backend = pmc__backend_find(o.backend ? o.backend : "perf");
	if (!backend)
		return -PMC_E_NOBACKEND;
	evlist = calloc(1, sizeof(*evlist));
	if (!evlist)
		return -ENOMEM;
	evlist->backend = backend;
	evlist->priv = o.priv ? o.priv : PMC_PRIV_USER;
	evlist->dry_run = o.dry_run;
	evlist->dry_run_arg = o.dry_run_arg;
	evlist->dry_run_attrs = o.dry_run_attrs;
	evlist->use = o.use;
	if (o.cputype)
		pmc__cputype_pmu(o.cputype, evlist->cputype, sizeof(evlist->cputype));
	*out = evlist;
	return 0;
}

/* The open counters go back to the list's backend, which opened them (pmc__counting_init()). */
void pmc_evlist__close(struct pmc_evlist *evlist)
{
	struct pmc_counting *c = evlist->counting;

	if (!c)
		return;
	evlist->counting = NULL;
	pmc__backend_close(evlist->backend, c);
}

void pmc_evlist__delete(struct pmc_evlist *evlist)
{
	if (!evlist)
		return;
	if (evlist->counting)
		pmc_evlist__close(evlist);
	for (size_t i = 0; i < evlist->nr; i++)
		pmc__evsel_delete(evlist->entries[i]);
	free(evlist->entries);
	free(evlist);
}

size_t pmc_evlist__nr(const struct pmc_evlist *evlist)
{
	return evlist->nr;
}

struct pmc_evsel *pmc_evlist__at(const struct pmc_evlist *evlist, size_t idx)
{
	return idx < evlist->nr ? evlist->entries[idx] : NULL;
}

const char *pmc_evlist__backend(const struct pmc_evlist *evlist)
{
	return pmc__backend_name(evlist->backend);
}

const char *pmc_evlist__default_event(const struct pmc_evlist *evlist)
{
	return pmc__backend_sample_default(evlist->backend);
}

int pmc_evlist__for_each_known(const struct pmc_evlist *evlist, pmc_event_fn fn, void *arg)
{
	int ret = pmc__event_for_each_generic(fn, arg);

	if (!ret)
		ret = pmc__event_for_each_form(fn, arg);
	if (!ret)
		ret = pmc__pmu_for_each(fn, arg);
	if (!ret)
		ret = pmc__tp_for_each(NULL, fn, arg);
	if (!ret && evlist && evlist->backend)
		ret = pmc__backend_for_each_known(evlist->backend, fn, arg);
	if (!ret)
		ret = pmc__preset_for_each(evlist, fn, arg);
	return ret;
}
