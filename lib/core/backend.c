// SPDX-License-Identifier: MIT
/*
 * The backend seam: the registry of every backend's ops table (the one place that names
 * them) and the wrappers through which generic code calls a hook.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <stdio.h>
#include <pmc/caps.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "core/evsel.h"

extern const struct pmc_backend_ops pmc__perf_ops;
extern const struct pmc_backend_ops pmc__vpmu_ops;

static const struct pmc_backend_ops *const backends[] = {
	&pmc__perf_ops,
	&pmc__vpmu_ops,
};

const struct pmc_backend_ops *pmc__backend_at(size_t i)
{
	return i < sizeof(backends) / sizeof(backends[0]) ? backends[i] : NULL;
}

const struct pmc_backend_ops *pmc__backend_find(const char *name)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

const char *pmc__backend_name(const struct pmc_backend_ops *b)
{
	return b->name;
}

bool pmc__backend_multiplexes(const struct pmc_backend_ops *b)
{
	return b->multiplex;
}

bool pmc__backend_regions_reuse_counters(const struct pmc_backend_ops *b)
{
	return b->regions_reuse_counters;
}

bool pmc__backend_can_dry_run(const struct pmc_backend_ops *b)
{
	return b->dry_run;
}

bool pmc__backend_live(const struct pmc_backend_ops *b)
{
	return b->live;
}

int pmc__backend_check_filter(const struct pmc_backend_ops *b, struct pmc_evsel *evsel,
			      const char *filter, char *why, size_t len)
{
	if (b->check_filter)
		return b->check_filter(evsel, filter, why, len);
	if (why && len)
		snprintf(why, len, "backend %s takes no tracepoint filters", b->name);
	return -EOPNOTSUPP;
}

unsigned pmc__backend_issue_width(const struct pmc_backend_ops *b)
{
	return b->issue_width ? b->issue_width : 4;
}

bool pmc__backend_spawns_for_sampling(const struct pmc_backend_ops *b)
{
	return b->sample_spawns;
}

const char *pmc__backend_sample_default(const struct pmc_backend_ops *b)
{
	return b->sample_default ? b->sample_default() : "cycles";
}

bool pmc__backend_can_sample(const struct pmc_backend_ops *b)
{
	return b->sample_open != NULL;
}

int pmc__backend_resolve(const struct pmc_backend_ops *b, struct pmc_evsel *evsel,
			 struct pmc_parse_error *err)
{
	return b->resolve ? b->resolve(evsel, err) : -PMC_E_UNKNOWN_EVENT;
}

int pmc__backend_check(const struct pmc_backend_ops *b, struct pmc_evsel *evsel, char *why,
		       size_t len)
{
	return b->check ? b->check(evsel, why, len) : 0;
}

int pmc__backend_why_denied(const struct pmc_backend_ops *b, struct pmc_evlist *evlist,
			    const struct pmc_target *target, char *why, size_t len)
{
	return b->why_denied ? b->why_denied(evlist, target, why, len) : -ENOENT;
}

void pmc__backend_probe_caps(const struct pmc_backend_ops *b, const struct pmc_caps *machine,
			     struct pmc_backend_caps *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", b->name);
	out->usable = true;
	if (b->probe_caps)
		b->probe_caps(machine, out);
}

struct pmc_cap_check *pmc__caps_add_check(struct pmc_backend_caps *out, const char *key,
					  const char *name, bool ok)
{
	struct pmc_cap_check *c;

	if (out->nr_checks >= PMC_CAPS_MAX_CHECKS)
		return NULL;
	c = &out->checks[out->nr_checks++];
	memset(c, 0, sizeof(*c));
	snprintf(c->key, sizeof(c->key), "%s", key);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->ok = ok;
	return c;
}

enum pmc_slot_class pmc__backend_classify(const struct pmc_backend_ops *b,
					  const struct pmc_evsel *evsel)
{
	/* A tool event takes no counter of any backend: pmc measures it itself. */
	if (evsel->kind == PMC_EV_TOOL)
		return PMC_SLOT_NONE;
	return b->classify ? b->classify(evsel) : PMC_SLOT_NONE;
}

int pmc__backend_budget(const struct pmc_backend_ops *b, enum pmc_slot_class cls)
{
	return b->budget ? b->budget(cls) : INT_MAX;
}

bool pmc__backend_extra_reg(const struct pmc_backend_ops *b, const struct pmc_evsel *evsel,
			    enum pmc_xreg xreg, uint64_t *value, int *nr)
{
	if (xreg == PMC_XREG_LDLAT) {
		*value = evsel->ldlat;
		*nr = 1;
		return evsel->ldlat != 0;
	}
	return b->extra_reg && b->extra_reg(evsel, xreg, value, nr);
}

int pmc__backend_extended_type(const struct pmc_backend_ops *b, uint32_t pmu_type)
{
	return b && b->extended_type ? b->extended_type(pmu_type) : -EOPNOTSUPP;
}

int pmc__backend_for_each_known(const struct pmc_backend_ops *b, pmc_event_fn fn, void *arg)
{
	return b->for_each_known ? b->for_each_known(fn, arg) : 0;
}

const char *pmc__backend_preset_model(const struct pmc_backend_ops *b)
{
	return b->preset_model ? b->preset_model() : NULL;
}

const char *pmc__backend_cpu_model(const struct pmc_backend_ops *b)
{
	return b->cpu_model ? b->cpu_model() : pmc__backend_preset_model(b);
}

int pmc__backend_open(const struct pmc_backend_ops *b, struct pmc_evlist *evlist,
		      const struct pmc_target *target, int pass, struct pmc_counting **out)
{
	return b->open ? b->open(evlist, target, pass, out) : -EOPNOTSUPP;
}

int pmc__backend_start(const struct pmc_backend_ops *b, struct pmc_counting *c)
{
	return b->start ? b->start(c) : -EOPNOTSUPP;
}

int pmc__backend_stop(const struct pmc_backend_ops *b, struct pmc_counting *c)
{
	return b->stop ? b->stop(c) : -EOPNOTSUPP;
}

int pmc__backend_reset(const struct pmc_backend_ops *b, struct pmc_counting *c)
{
	return b->reset ? b->reset(c) : -EOPNOTSUPP;
}

int pmc__backend_set_enabled(const struct pmc_backend_ops *b, struct pmc_counting *c,
			     const struct pmc_evsel *only, bool on)
{
	return b->set_enabled ? b->set_enabled(c, only, on) : -EOPNOTSUPP;
}

int pmc__backend_reap(const struct pmc_backend_ops *b, struct pmc_counting *c)
{
	return b->reap ? b->reap(c) : 0;
}

int pmc__backend_read(const struct pmc_backend_ops *b, struct pmc_counting *c)
{
	return b->read ? b->read(c) : -EOPNOTSUPP;
}

int pmc__backend_read_group(const struct pmc_backend_ops *b, struct pmc_counting *c,
			    const struct pmc_evsel *leader, struct pmc_count *values, size_t nr)
{
	return b->read_group ? b->read_group(c, leader, values, nr) : -EOPNOTSUPP;
}

void pmc__backend_close(const struct pmc_backend_ops *b, struct pmc_counting *c)
{
	if (c && b->close)
		b->close(c);
}

int pmc__backend_sample_open(const struct pmc_backend_ops *b, struct pmc_evlist *evlist,
			     const struct pmc__sample_params *params, struct pmc_sampling **out)
{
	return b->sample_open ? b->sample_open(evlist, params, out) : -EOPNOTSUPP;
}

int pmc__backend_sample_enable(const struct pmc_backend_ops *b, struct pmc_sampling *s)
{
	return b->sample_enable ? b->sample_enable(s) : -EOPNOTSUPP;
}

int pmc__backend_sample_disable(const struct pmc_backend_ops *b, struct pmc_sampling *s)
{
	return b->sample_disable ? b->sample_disable(s) : 0;
}

int pmc__backend_sample_poll(const struct pmc_backend_ops *b, struct pmc_sampling *s,
			     int timeout_ms)
{
	return b->sample_poll ? b->sample_poll(s, timeout_ms) : -EOPNOTSUPP;
}

int pmc__backend_sample_drain(const struct pmc_backend_ops *b, struct pmc_sampling *s,
			      pmc__sample_sink_fn sink, void *arg)
{
	return b->sample_drain ? b->sample_drain(s, sink, arg) : -EOPNOTSUPP;
}

void pmc__backend_sample_close(const struct pmc_backend_ops *b, struct pmc_sampling *s)
{
	if (s && b->sample_close)
		b->sample_close(s);
}
