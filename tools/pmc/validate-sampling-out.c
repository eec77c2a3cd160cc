// SPDX-License-Identifier: MIT
/* pmc validate --mode=sampling's output: the table, CSV and JSON of docs/accuracy.md. */
#include <math.h>
#include <string.h>
#include "cli.h"
#include "validate.h"

static bool sampled(const struct vsampling *s)
{
	return !*s->why || s->periods[VALIDATE_NR_PERIODS - 1].nr > 0;
}

static void text(FILE *f, const struct validate_opts *o, const struct pmc_validate *val,
		 const struct vsampling *s)
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
		const struct vsampling *v = &s[i];

		for (int p = 0; p < VALIDATE_NR_PERIODS && sampled(v); p++) {
			const struct vperiod *q = &v->periods[p];
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
		if (!sampled(v))
			fprintf(f, "%-28s %-10s %-12s %-10s %-9s %-20s %-10s %s\n", v->row->event,
				v->row->kernel, "-", "-", "-", "-", "-", "not sampled");
		if (v->have_skid)
			fprintf(f,
				"    skid (precise against --skid=%d, period %llu, seed 1): %llu "
				"pairs, %llu moved, %llu in another function, mean %.1f bytes\n",
				o->skid,
				(unsigned long long)v->periods[VALIDATE_NR_PERIODS / 2].period,
				(unsigned long long)v->skid.pairs,
				(unsigned long long)v->skid.moved,
				(unsigned long long)v->skid.other_symbol, v->skid.mean_bytes);
		if (*v->why)
			fprintf(f, "    %s\n", v->why);
	}
}

static void csv(FILE *f, const struct pmc_validate *val, const struct vsampling *s)
{
	fputs("event,kernel,size,counted,period,runs,mean_samples,bias,bias_ci,rms_rel_error,"
	      "covered,coverage,skid_pairs,skid_moved,skid_other_symbol,skid_mean_bytes,why\n",
	      f);
	for (size_t i = 0; i < pmc_validate__nr_rows(val); i++) {
		const struct vsampling *v = &s[i];

		for (int p = 0; p < VALIDATE_NR_PERIODS; p++) {
			const struct vperiod *q = &v->periods[p];
			bool k = v->have_skid;

			if (!q->nr && (p || sampled(v)))
				continue;
			validate_csv_field(f, v->row->event, false);
			validate_csv_field(f, v->row->kernel, false);
			validate_csv_num(f, (double)v->size);
			validate_csv_num(f, q->nr ? v->counted : NAN);
			validate_csv_num(f, q->nr ? (double)q->period : NAN);
			validate_csv_num(f, q->nr);
			validate_csv_num(f, q->nr ? q->mean_samples : NAN);
			validate_csv_num(f, q->nr ? q->sum.bias : NAN);
			validate_csv_num(f, q->nr ? q->sum.bias_ci : NAN);
			validate_csv_num(f, q->nr ? q->sum.rms_rel_error : NAN);
			validate_csv_num(f, q->nr ? (double)q->sum.covered : NAN);
			validate_csv_num(f, q->nr ? q->sum.coverage : NAN);
			validate_csv_num(f, k ? (double)v->skid.pairs : NAN);
			validate_csv_num(f, k ? (double)v->skid.moved : NAN);
			validate_csv_num(f, k ? (double)v->skid.other_symbol : NAN);
			validate_csv_num(f, k ? v->skid.mean_bytes : NAN);
			validate_csv_field(f, v->why, true);
		}
	}
}

static json_t *json_period(const struct vperiod *q)
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

static json_t *json_row(const struct validate_opts *o, const struct vsampling *v)
{
	json_t *periods = json_array();
	json_t *j = json_pack("{s:s, s:s, s:I, s:o, s:o}", "event", v->row->event, "kernel",
			      v->row->kernel, "size", (json_int_t)v->size, "counted",
			      validate_json_num(sampled(v) ? v->counted : NAN), "periods", periods);

	for (int p = 0; p < VALIDATE_NR_PERIODS; p++)
		if (v->periods[p].nr)
			json_array_append_new(periods, json_period(&v->periods[p]));
	if (j && v->have_skid)
		json_object_set_new(
			j, "skid",
			json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:f}", "skid_instructions",
				  o->skid, "period",
				  (json_int_t)v->periods[VALIDATE_NR_PERIODS / 2].period, "pairs",
				  (json_int_t)v->skid.pairs, "unpaired",
				  (json_int_t)v->skid.unpaired, "moved", (json_int_t)v->skid.moved,
				  "other_symbol", (json_int_t)v->skid.other_symbol, "mean_bytes",
				  v->skid.mean_bytes));
	if (j && *v->why)
		json_object_set_new(j, "why", json_string(v->why));
	return j;
}

int validate_sampling_write(FILE *f, const struct validate_opts *o, const struct pmc_validate *v,
			    const struct vsampling *s)
{
	const char *prov = pmc_validate__provenance(v);
	json_t *root, *rows, *provenance;

	if (o->fmt == VALIDATE_TEXT) {
		text(f, o, v, s);
		return 0;
	}
	if (o->fmt == VALIDATE_CSV) {
		csv(f, v, s);
		return 0;
	}
	provenance = prov ? json_loads(prov, 0, NULL) : NULL;
	rows = json_array();
	for (size_t i = 0; i < pmc_validate__nr_rows(v); i++)
		json_array_append_new(rows, json_row(o, &s[i]));
	root = json_pack("{s:s, s:s, s:O, s:f, s:i, s:i, s:o}", "schema", "pmc-validate/1", "mode",
			 "sampling", "provenance", provenance ? provenance : json_null(),
			 "confidence", pmc_validate__level(v), "seeds", o->seeds, "period_jitter",
			 o->backend && !strcmp(o->backend, "vpmu") ? VALIDATE_JITTER : 0,
			 "sampling", rows);
	json_decref(provenance);
	return validate_json_dump(f, root);
}
