// SPDX-License-Identifier: MIT
/*
 * The fields that lead perf stat's -x and -j lines of a unit or an interval, shared by the
 * events' lines (perf-out.c) and the metrics' (perf-metrics.c).
 */
#include <stdio.h>
#include "core/field.h"
#include "metric/metric.h"
#include "run/perf-out.h"
#include "run/runner.h"

bool pmc__perf_aggregated(const struct pmc_run *run)
{
	return run->opts.aggr == PMC_RUN_AGGR_CORE || run->opts.aggr == PMC_RUN_AGGR_SOCKET ||
	       run->opts.aggr == PMC_RUN_AGGR_DIE;
}

void pmc__perf_lead(FILE *f, const struct pmc_run *run, const struct pmc__perf_line *l,
		    const char *sep)
{
	if (l->t_s >= 0)
		fprintf(f, "%.9f%s", l->t_s, sep);
	if (l->unit) {
		pmc__csv_field_sep(f, l->unit->label, sep);
		fputs(sep, f);
		if (pmc__perf_aggregated(run))
			fprintf(f, "%d%s", l->unit->nr_cpus, sep);
	}
}

const char *pmc__perf_unit_key(const struct pmc_run *run, const struct pmc_run_unit *u, char *val,
			       size_t len)
{
	switch (run->opts.aggr) {
	case PMC_RUN_AGGR_CPU:
		snprintf(val, len, "%d", u->cpu);
		return "cpu";
	case PMC_RUN_AGGR_CORE:
	case PMC_RUN_AGGR_SOCKET:
	case PMC_RUN_AGGR_DIE:
		snprintf(val, len, "%s", u->label);
		return run->opts.aggr == PMC_RUN_AGGR_CORE  ? "core"
		       : run->opts.aggr == PMC_RUN_AGGR_DIE ? "die"
							    : "socket";
	default:
		snprintf(val, len, "%s", u->label);
		return "thread";
	}
}
