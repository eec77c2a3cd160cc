// SPDX-License-Identifier: MIT
/* pmc validate --mode=sampling's table (docs/accuracy.md); its CSV and JSON are libpmc's. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "common/cli.h"
#include "validate.h"

static void text(FILE *f, const struct validate_opts *o, const struct pmc_validate *val)
{
	fprintf(f,
		"# pmc validate --mode=sampling: k*S estimates against the count, %.0f%% "
		"intervals, %d run%s a period%s\n",
		pmc_validate__level(val) * 100, o->seeds, o->seeds > 1 ? "s" : "",
		o->backend && !strcmp(o->backend, "vpmu") ? " (seeds 1.., periods jittered 50%)"
							  : "");
	fprintf(f, "%-28s %-10s %-12s %-10s %-9s %-20s %-10s %s\n", "event", "kernel", "counted",
		"period", "samples", "bias (mean error)", "rms error", "coverage");
	for (size_t i = 0; i < pmc_validate__nr_rows(val); i++) {
		const struct pmc_validate_sampling *v = pmc_validate__sampling(val, i);

		for (int p = 0; p < PMC_VALIDATE_NR_PERIODS && pmc_validate_sampling__sampled(v);
		     p++) {
			const struct pmc_validate_period *q = &v->periods[p];
			char bias[40], cov[32], rms[24];

			if (!q->nr)
				continue;
			snprintf(bias, sizeof(bias), "%+.3f%% +- %.3f%%", q->sum.bias * 100,
				 q->sum.bias_ci * 100);
			snprintf(rms, sizeof(rms), "%.3f%%", q->sum.rms_rel_error * 100);
			snprintf(cov, sizeof(cov), "%zu/%zu (%.0f%%)", q->sum.covered, q->sum.n,
				 q->sum.coverage * 100);
			fprintf(f, "%-28s %-10s %-12.0f %-10llu %-9.1f %-20s %-10s %s\n",
				v->row->event, v->row->kernel, v->counted,
				(unsigned long long)q->period, q->mean_samples, bias, rms, cov);
		}
		if (!pmc_validate_sampling__sampled(v))
			fprintf(f, "%-28s %-10s %-12s %-10s %-9s %-20s %-10s %s\n", v->row->event,
				v->row->kernel, "-", "-", "-", "-", "-", "not sampled");
		if (v->have_skid)
			fprintf(f,
				"    skid (precise against --skid=%d, period %llu, seed 1): %llu "
				"pairs, %llu moved, %llu in another function, mean %.1f bytes\n",
				o->skid,
				(unsigned long long)v->periods[PMC_VALIDATE_NR_PERIODS / 2].period,
				(unsigned long long)v->skid.pairs,
				(unsigned long long)v->skid.moved,
				(unsigned long long)v->skid.other_symbol, v->skid.mean_bytes);
		if (*v->why)
			fprintf(f, "    %s\n", v->why);
	}
}

int validate_sampling_write(FILE *f, const struct validate_opts *o, const struct pmc_validate *v)
{
	if (o->fmt != VALIDATE_TEXT)
		return pmc_validate__write_sampling(v, f,
						    o->fmt == VALIDATE_CSV
							    ? PMC_VALIDATE_FORMAT_CSV
							    : PMC_VALIDATE_FORMAT_JSON);
	text(f, o, v);
	return ferror(f) ? -EIO : 0;
}
