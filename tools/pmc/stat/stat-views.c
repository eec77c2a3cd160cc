// SPDX-License-Identifier: MIT
/*
 * What pmc stat's outputs merge into one line, as its options say, and libpmc's views of the
 * results merged so (pmc_stat_views__new(): each event's value, unit, share and comment).
 */
#include "stat.h"

unsigned stat_merge_by(const struct stat_opts *o)
{
	return (o->no_merge ? 0 : PMC_RUN_MERGE_UNITS) |
	       (o->hybrid_merge ? PMC_RUN_MERGE_HYBRID : 0);
}

int stat_views__new(const struct stat_run *run, struct pmc_stat_view **out)
{
	return pmc_stat_views__new(run->res, stat_merge_by(run->opts), run->opts->level, out);
}
