// SPDX-License-Identifier: MIT
/* Sampling mode's machine formats: CSV and JSON ("pmc-validate/1", "mode": "sampling"). */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "validate/validate.h"

static void csv(FILE *f, const struct pmc_validate *val)
{
	fputs("event,kernel,size,counted,period,runs,mean_samples,bias,bias_ci,rms_rel_error,"
	      "covered,coverage,skid_pairs,skid_moved,skid_other_symbol,skid_mean_bytes,why\n",
	      f);
	for (size_t i = 0; i < val->nr_rows; i++) {
		const struct pmc_validate_sampling *v = &val->sampling[i];

		for (int p = 0; p < PMC_VALIDATE_NR_PERIODS; p++) {
			const struct pmc_validate_period *q = &v->periods[p];
			bool k = v->have_skid;

			if (!q->nr && (p || pmc_validate_sampling__sampled(v)))
				continue;
			pmc__validate_csv_field(f, v->row->event, false);
			pmc__validate_csv_field(f, v->row->kernel, false);
			pmc__validate_csv_num(f, (double)v->size);
			pmc__validate_csv_num(f, q->nr ? v->counted : NAN);
			pmc__validate_csv_num(f, q->nr ? (double)q->period : NAN);
			pmc__validate_csv_num(f, q->nr);
			pmc__validate_csv_num(f, q->nr ? q->mean_samples : NAN);
			pmc__validate_csv_num(f, q->nr ? q->sum.bias : NAN);
			pmc__validate_csv_num(f, q->nr ? q->sum.bias_ci : NAN);
			pmc__validate_csv_num(f, q->nr ? q->sum.rms_rel_error : NAN);
			pmc__validate_csv_num(f, q->nr ? (double)q->sum.covered : NAN);
			pmc__validate_csv_num(f, q->nr ? q->sum.coverage : NAN);
			pmc__validate_csv_num(f, k ? (double)v->skid.pairs : NAN);
			pmc__validate_csv_num(f, k ? (double)v->skid.moved : NAN);
			pmc__validate_csv_num(f, k ? (double)v->skid.other_symbol : NAN);
			pmc__validate_csv_num(f, k ? v->skid.mean_bytes : NAN);
			pmc__validate_csv_field(f, v->why, true);
		}
	}
}

static json_t *json_period(const struct pmc_validate_period *q)
{
	json_t *runs = json_array();

	for (int k = 0; k < q->nr; k++)
		json_array_append_new(
			runs, json_pack("{s:i, s:I, s:I, s:f, s:f, s:f, s:b}", "seed", k + 1,
					"samples", (json_int_t)q->est[k].samples, "estimate",
					(json_int_t)q->est[k].estimate, "lo", q->est[k].lo, "hi",
					q->est[k].hi, "rel_error", q->checks[k].rel_error,
					"covered", q->checks[k].covered));
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:I, s:f, s:o}", "period",
			 (json_int_t)q->period, "mean_samples", q->mean_samples, "bias",
			 q->sum.bias, "bias_ci", q->sum.bias_ci, "rms_rel_error",
			 q->sum.rms_rel_error, "covered", (json_int_t)q->sum.covered, "coverage",
			 q->sum.coverage, "runs", runs);
}

static json_t *json_row(const struct pmc_validate_sampling *v)
{
	json_t *periods = json_array();
	json_t *j = json_pack(
		"{s:s, s:s, s:I, s:o, s:o}", "event", v->row->event, "kernel", v->row->kernel,
		"size", (json_int_t)v->size, "counted",
		pmc__validate_json_num(pmc_validate_sampling__sampled(v) ? v->counted : NAN),
		"periods", periods);

	for (int p = 0; p < PMC_VALIDATE_NR_PERIODS; p++)
		if (v->periods[p].nr)
			json_array_append_new(periods, json_period(&v->periods[p]));
	if (j && v->have_skid)
		json_object_set_new(
			j, "skid",
			json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:f}", "skid_instructions",
				  v->skid_instructions, "period",
				  (json_int_t)v->periods[PMC_VALIDATE_NR_PERIODS / 2].period,
				  "pairs", (json_int_t)v->skid.pairs, "unpaired",
				  (json_int_t)v->skid.unpaired, "moved", (json_int_t)v->skid.moved,
				  "other_symbol", (json_int_t)v->skid.other_symbol, "mean_bytes",
				  v->skid.mean_bytes));
	if (j && *v->why)
		json_object_set_new(j, "why", json_string(v->why));
	return j;
}

int pmc_validate__write_sampling(const struct pmc_validate *v, FILE *f,
				 enum pmc_validate_format fmt)
{
	json_t *rows;

	if (!v->sampling)
		return -EINVAL;
	if (fmt == PMC_VALIDATE_FORMAT_CSV) {
		csv(f, v);
		return ferror(f) ? -EIO : 0;
	}
	rows = json_array();
	for (size_t i = 0; i < v->nr_rows; i++)
		json_array_append_new(rows, json_row(&v->sampling[i]));
	return pmc__validate_json_write(
		f,
		json_pack("{s:s, s:s, s:O, s:f, s:i, s:i, s:o}", "schema", "pmc-validate/1", "mode",
			  "sampling", "provenance", v->provenance ? v->provenance : json_null(),
			  "confidence", v->opts.level, "seeds", v->seeds, "period_jitter",
			  v->opts.backend && !strcmp(v->opts.backend, "vpmu") ? PMC_VALIDATE_JITTER
									      : 0,
			  "sampling", rows));
}
