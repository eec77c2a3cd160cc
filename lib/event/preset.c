// SPDX-License-Identifier: MIT
/*
 * PAPI preset names (PAPI_TOT_INS): each stands for one event, chosen per backend from the
 * preset table (tables.c, generated from data/presets/papi.tsv; docs/events.md, "PAPI
 * presets"), which build.c makes under the name the user wrote.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "event/parse.h"

const struct pmc_preset *pmc__preset_find(const char *name, size_t len)
{
	for (size_t i = 0; i < pmc__nr_presets; i++)
		if (strlen(pmc__presets[i].name) == len && !memcmp(pmc__presets[i].name, name, len))
			return &pmc__presets[i];
	return NULL;
}

/* The event ps stands for on evlist's backend: the backend's model's column if it has an
 * event there, else the generic column; NULL when neither has one. */
static const char *target(const struct pmc_evlist *evlist, const struct pmc_preset *ps)
{
	const char *model = evlist ? pmc__backend_preset_model(evlist->backend) : NULL;

	if (model && !strcmp(model, "corei7") && ps->corei7)
		return ps->corei7;
	return ps->generic;
}

/*
 * Why ps stands for no event on evlist's backend, and what to do, as "'NAME': why" (pmc list
 * shows what follows the prefix).
 */
static void why_none(const struct pmc_evlist *evlist, const struct pmc_preset *ps, char *why,
		     size_t len)
{
	const char *backend = pmc__backend_name(evlist->backend);
	const char *model = pmc__backend_preset_model(evlist->backend);
	const char *natives = ps->papi ? strchr(ps->papi, ',') : NULL;
	int kind_len = natives ? (int)(natives - ps->papi) : 0;

	if (natives && strncmp(ps->papi, "NOT_DERIVED", kind_len))
		snprintf(why, len,
			 "'%s': derived, not one event (PAPI 7.0 on Nehalem: %.*s of %s); count "
			 "those events instead",
			 ps->name, kind_len, ps->papi, natives + 1);
	else if (natives && model)
		snprintf(why, len,
			 "'%s': no event on backend %s: the %s model lacks PAPI 7.0's Nehalem "
			 "event %s, and no generic event means the same",
			 ps->name, backend, model, natives + 1);
	else if (natives)
		snprintf(why, len,
			 "'%s': no event on backend %s: no generic event means the same (PAPI 7.0 "
			 "on Nehalem: %s; name the CPU's own event instead)",
			 ps->name, backend, natives + 1);
	else
		snprintf(why, len, "'%s': no event on backend %s", ps->name, backend);
}

const char *pmc__preset_target(const struct pmc_evlist *evlist, const struct pmc_preset *ps,
			       char *why, size_t why_len)
{
	const char *event = target(evlist, ps);

	if (!event)
		why_none(evlist, ps, why, why_len);
	return event;
}

int pmc__preset_for_each(const struct pmc_evlist *evlist, pmc_event_fn fn, void *arg)
{
	int ret = 0;

	for (size_t i = 0; i < pmc__nr_presets && !ret; i++) {
		const struct pmc_preset *ps = &pmc__presets[i];
		struct pmc_event_info info = {
			.name = ps->name,
			.kind = PMC_EV_PRESET,
			.pmu = "papi",
			.desc = ps->desc,
			.maps_to = target(evlist, ps),
		};

		ret = fn(&info, arg);
	}
	return ret;
}
