// SPDX-License-Identifier: MIT
/*
 * PAPI preset names (PAPI_TOT_INS): each stands for one event, chosen per backend from the
 * preset table (tables.c, generated from data/presets/papi.tsv; docs/events.md, "PAPI
 * presets"), and is parsed as that event under the name the user wrote.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "event/parse.h"

static const struct pmc_preset *find(const char *name, size_t len)
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

/* Parses the target event alone, then finishes it in p as if the user had written it. */
static int parse_target(struct pmc_parser *p, int off, int len, const char *event)
{
	struct pmc_parse_error err = {0};
	struct pmc_parser sub = {.str = event, .evlist = p->evlist, .err = &err};
	struct pmc_evsel *evsel;
	int ret = pmc__parse_event(&sub);

	if (!ret && (sub.nr != 1 || event[sub.pos]))
		ret = -PMC_E_PARSE;
	if (ret) {
		for (size_t i = 0; i < sub.nr; i++)
			pmc__evsel_delete(sub.out[i]);
		free(sub.out);
		return ret == -ENOMEM
			       ? ret
			       : pmc__parse_fail(p, ret, off,
						 "'%.*s' stands for '%s' here, which does not "
						 "parse: %s",
						 len, p->str + off, event, err.msg);
	}
	evsel = sub.out[0];
	free(sub.out);
	free(evsel->name);
	evsel->name = NULL; /* named as the user wrote it, modifiers included */
	evsel->offset = off;
	p->pos = off + len;
	return pmc__parse_finish_event(p, evsel);
}

int pmc__preset_parse(struct pmc_parser *p, int off, int len)
{
	const struct pmc_preset *ps = find(p->str + off, len);
	const char *event;
	char why[sizeof(p->err->msg)];

	if (!ps)
		return 1;
	event = target(p->evlist, ps);
	if (event)
		return parse_target(p, off, len, event);
	why_none(p->evlist, ps, why, sizeof(why));
	return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, off, "%s", why);
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
