// SPDX-License-Identifier: MIT
/* Validation's machine formats: CSV and JSON ("pmc-validate/1", docs/accuracy.md "Output"). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/field.h"
#include "validate/validate.h"

static bool counted(const struct pmc_validate_row *r)
{
	return r->cls != PMC_VALIDATE_UNSUPPORTED && r->nr > 0 && r->big_x >= 0;
}

void pmc__validate_csv_field(FILE *f, const char *s, bool last)
{
	pmc__csv_field_sep(f, s, ",");
	fputc(last ? '\n' : ',', f);
}

void pmc__validate_csv_num(FILE *f, double v)
{
	if (isnan(v))
		fputc(',', f);
	else
		fprintf(f, "%.17g,", v);
}

static void csv_row(FILE *f, const struct pmc_validate_row *r)
{
	bool c = counted(r);

	pmc__validate_csv_field(f, r->event, false);
	pmc__validate_csv_field(f, r->kernel, false);
	pmc__validate_csv_num(f, r->per_size);
	pmc__validate_csv_num(f, r->startup);
	pmc__validate_csv_num(f, c && !isnan(r->per_size) ? r->big_x : NAN);
	pmc__validate_csv_num(f, c ? r->big_mean : NAN);
	pmc__validate_csv_num(f, c ? r->big_ci : NAN);
	pmc__validate_csv_num(f, c ? r->factor : NAN);
	pmc__validate_csv_num(f, c ? r->factor_ci : NAN);
	pmc__validate_csv_num(f, c ? r->overhead : NAN);
	pmc__validate_csv_num(f, c ? r->overhead_ci : NAN);
	pmc__validate_csv_num(f, c ? r->resid_sd : NAN);
	pmc__validate_csv_field(f, pmc_validate_class_name(r->cls), false);
	pmc__validate_csv_num(f, r->cls == PMC_VALIDATE_BIAS ? r->bias : NAN);
	pmc__validate_csv_field(f, r->why, false);
	pmc__validate_csv_num(f, c ? r->pf_r : NAN);
	fprintf(f, c && !isnan(r->irq_r) ? "%.17g\n" : "\n", r->irq_r);
}

json_t *pmc__validate_json_num(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *json_row(const struct pmc_validate_row *r)
{
	json_t *pts = json_array(), *j;
	bool c = counted(r);

	/* a row with no prediction keeps the size where the prediction would be */
	for (int i = 0; i < r->nr; i++) {
		json_t *pt = json_pack("{s:f, s:f}", isnan(r->per_size) ? "size" : "predicted",
				       r->x[i], "reported", r->y[i]);

		if (pt && r->pf)
			json_object_set_new(pt, "page_faults", json_real(r->pf[i]));
		if (pt && r->irq)
			json_object_set_new(pt, "interrupts", json_real(r->irq[i]));
		json_array_append_new(pts, pt);
	}
	j = json_pack("{s:s, s:s, s:o, s:o, s:o, s:s}", "event", r->event, "kernel", r->kernel,
		      "per_size", pmc__validate_json_num(r->per_size), "startup",
		      pmc__validate_json_num(r->startup), "points", pts, "class",
		      pmc_validate_class_name(r->cls));
	if (j && c) {
		json_object_set_new(j, "factor", pmc__validate_json_num(r->factor));
		json_object_set_new(j, "factor_ci", pmc__validate_json_num(r->factor_ci));
		json_object_set_new(j, "overhead", pmc__validate_json_num(r->overhead));
		json_object_set_new(j, "overhead_ci", pmc__validate_json_num(r->overhead_ci));
		json_object_set_new(j, "residual_sd", pmc__validate_json_num(r->resid_sd));
		json_object_set_new(j, "reported_mean", json_real(r->big_mean));
		json_object_set_new(j, "reported_ci", json_real(r->big_ci));
		json_object_set_new(j, "predicted",
				    isnan(r->per_size) ? json_null() : json_real(r->big_x));
		json_object_set_new(j, "page_faults_r", pmc__validate_json_num(r->pf_r));
		json_object_set_new(j, "interrupts_r", pmc__validate_json_num(r->irq_r));
	}
	if (j && r->quantity && strcmp(r->quantity, r->event)) /* the event counts a quantity */
		json_object_set_new(j, "quantity", json_string(r->quantity));
	if (j && r->cls == PMC_VALIDATE_BIAS)
		json_object_set_new(j, "bias", json_real(r->bias));
	if (j && *r->why)
		json_object_set_new(j, r->cls >= PMC_VALIDATE_UNKNOWN ? "why" : "note",
				    json_string(r->why));
	return j;
}

int pmc_validate__write(const struct pmc_validate *v, FILE *f, enum pmc_validate_format fmt)
{
	json_t *root, *rows, *prov = v->provenance;

	if (fmt == PMC_VALIDATE_FORMAT_CSV) {
		fputs("event,kernel,per_size,startup,predicted,reported_mean,reported_ci,factor,"
		      "factor_ci,overhead,overhead_ci,residual_sd,class,bias,why,page_faults_r,"
		      "interrupts_r\n",
		      f);
		for (size_t i = 0; i < v->nr_rows; i++)
			csv_row(f, &v->rows[i]);
		return ferror(f) ? -EIO : 0;
	}
	rows = json_array();
	for (size_t i = 0; i < v->nr_rows; i++)
		json_array_append_new(rows, json_row(&v->rows[i]));
	root = json_pack("{s:s, s:O, s:f, s:s?, s:o}", "schema", "pmc-validate/1", "provenance",
			 prov ? prov : json_null(), "confidence", v->opts.level, "interrupts",
			 v->irq_source, "results", rows);
	return pmc__validate_json_write(f, root);
}

int pmc__validate_json_write(FILE *f, json_t *root)
{
	int err;

	if (!root)
		return -ENOMEM;
	err = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ? -EIO : 0;
	if (!err)
		fputc('\n', f);
	json_decref(root);
	return err || ferror(f) ? -EIO : 0;
}
