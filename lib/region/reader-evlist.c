// SPDX-License-Identifier: MIT
/* The region reader over libpmc's counting API: a SELF, no-inherit event list per thread. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/count.h>
#include <pmc/error.h>
#include <pmc/event.h>
#include "core/compiler.h"
#include "core/log.h"
#include "region/reader.h"

struct evlist_reader {
	struct pmc__region_reader base;
	struct pmc_evlist *evlist;
	size_t nr_leaders;
	struct pmc_evsel **leaders; /* [nr_leaders] */
	size_t *first;		    /* [nr_leaders]: index in values of the leader */
	struct pmc_count *scratch;  /* [nr_events] */
};

static void evlist_close(struct pmc__region_reader *r)
{
	struct evlist_reader *er = container_of(r, struct evlist_reader, base);

	if (!r)
		return;
	pmc_evlist__delete(er->evlist); /* closes the counters too */
	free(er->leaders);
	free(er->first);
	free(er->scratch);
	free(r->names);
	free(er);
}

/*
 * Without braces, the events are read as one group: one read(2) per marker. A string
 * with its own groups is taken as written (one read per group).
 */
static int parse(struct evlist_reader *er, const struct pmc__region_config *cfg, bool group)
{
	struct pmc_evlist_opts o = {.sz = sizeof(o), .backend = cfg->backend, .priv = cfg->priv};
	struct pmc_parse_error perr;
	char *str = NULL;
	int err = pmc_evlist__new(&o, &er->evlist);

	if (err)
		return err;
	if (group && !strchr(cfg->events, '{') && asprintf(&str, "{%s}", cfg->events) < 0)
		return -ENOMEM;
	err = pmc_evlist__parse(er->evlist, str ? str : cfg->events, &perr);
	/* Out of descriptors (a tracepoint's id is read from tracefs): the thread's caller says
	 * that once per process and counts the threads (docs/regions.md). */
	if (err && err != -EMFILE)
		pr_err("regions: cannot parse '%s': %s\n", cfg->events, perr.msg);
	free(str);
	return err;
}

/*
 * Keeps the events of pass 0; the others cannot be counted with them. A group that does not
 * fit whole fails (-PMC_E_TOOMANY) so that the caller retries the events one by one.
 */
static int select_events(struct evlist_reader *er, const struct pmc__region_config *cfg, bool group)
{
	size_t nr = pmc_evlist__nr(er->evlist);

	er->base.names = calloc(nr ? nr : 1, sizeof(*er->base.names));
	er->leaders = calloc(nr ? nr : 1, sizeof(*er->leaders));
	er->first = calloc(nr ? nr : 1, sizeof(*er->first));
	er->scratch = calloc(nr ? nr : 1, sizeof(*er->scratch));
	if (!er->base.names || !er->leaders || !er->first || !er->scratch)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct pmc_evsel *ev = pmc_evlist__at(er->evlist, i);

		if (pmc_evsel__pass(ev) != 0 && group)
			return -PMC_E_TOOMANY;
		if (pmc_evsel__pass(ev) != 0) {
			pmc__log(
				cfg->quiet ? PMC_LOG_DEBUG : PMC_LOG_WARN,
				"libpmc: regions: '%s' is not counted (its counter is taken, or it "
				"needs another pass)\n",
				pmc_evsel__name(ev));
			continue;
		}
		if (pmc_evsel__leader(ev) == ev) {
			er->leaders[er->nr_leaders] = ev;
			er->first[er->nr_leaders++] = er->base.nr_events;
		}
		er->base.names[er->base.nr_events++] = pmc_evsel__name(ev);
	}
	return er->base.nr_events ? 0 : -PMC_E_UNSUPPORTED;
}

static int try_open(struct evlist_reader *er, const struct pmc__region_config *cfg, bool group)
{
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_SELF, .no_inherit = true};
	int nr_passes, err = parse(er, cfg, group);

	if (!err)
		err = pmc_evlist__plan(er->evlist, false, &nr_passes);
	if (!err)
		err = select_events(er, cfg, group);
	if (!err)
		err = pmc_evlist__open(er->evlist, &t, 0);
	if (!err)
		err = pmc_evlist__start(er->evlist);
	return err;
}

/* Whether the events fit in one pass, so that one group can hold them all. */
static bool fits_one_pass(const struct pmc__region_config *cfg)
{
	struct evlist_reader probe = {0};
	int nr_passes = 0;
	bool fits = !parse(&probe, cfg, false) &&
		    !pmc_evlist__plan(probe.evlist, false, &nr_passes) && nr_passes == 1;

	pmc_evlist__delete(probe.evlist);
	return fits;
}

static int evlist_open(const struct pmc__region_config *cfg, struct pmc__region_reader **out)
{
	struct evlist_reader *er = calloc(1, sizeof(*er));
	int err = -PMC_E_TOOMANY;

	if (!er)
		return -ENOMEM;
	er->base.ops = &pmc__region_reader_evlist;
	if (fits_one_pass(cfg))
		err = try_open(er, cfg, true);
	if (err && err != -ENOMEM && err != -PMC_E_PARSE && err != -PMC_E_UNKNOWN_EVENT) {
		/* Some events refuse to share a group: read them one group each. */
		evlist_close(&er->base);
		er = calloc(1, sizeof(*er));
		if (!er)
			return -ENOMEM;
		er->base.ops = &pmc__region_reader_evlist;
		err = try_open(er, cfg, false);
	}
	if (err) {
		evlist_close(&er->base);
		return err;
	}
	*out = &er->base;
	return 0;
}

/* The fast path: one pmc_evsel__read_group() per group, nothing else. */
static int evlist_read(struct pmc__region_reader *r, uint64_t *values)
{
	struct evlist_reader *er = container_of(r, struct evlist_reader, base);

	for (size_t g = 0; g < er->nr_leaders; g++) {
		int n = pmc_evsel__read_group(er->leaders[g], er->scratch, r->nr_events);

		if (n < 0)
			return n;
		for (int m = 0; m < n; m++)
			values[er->first[g] + (size_t)m] = er->scratch[m].value;
	}
	return 0;
}

const struct pmc__region_reader_ops pmc__region_reader_evlist = {
	.name = "evlist",
	.open = evlist_open,
	.read = evlist_read,
	.close = evlist_close,
};

int pmc__region_reader_open(const struct pmc__region_config *cfg, struct pmc__region_reader **out)
{
	return pmc__region_reader_evlist.open(cfg, out);
}
