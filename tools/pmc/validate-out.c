// SPDX-License-Identifier: MIT
/* pmc validate's output: the table, CSV and JSON ("pmc-validate/1") of docs/accuracy.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "validate.h"

/* The class with its value: "exact", "bias +4", "factor 1.02", "random (sd 3.1)". */
static void verdict(const struct vrow *r, char *buf, size_t len)
{
	switch (r->cls) {
	case VCLASS_BIAS:
		snprintf(buf, len, "bias %+.6g", r->bias);
		break;
	case VCLASS_MULTIPLICATIVE:
		snprintf(buf, len, "factor %.6g", r->factor);
		break;
	case VCLASS_RANDOM:
		snprintf(buf, len, "random (sd %.3g)", r->resid_sd);
		break;
	default:
		snprintf(buf, len, "%s", vclass_name(r->cls));
	}
}

static bool counted(const struct vrow *r)
{
	return r->cls != VCLASS_UNSUPPORTED && r->nr > 0 && r->big_x >= 0;
}

static void text_row(FILE *f, const struct vrow *r)
{
	char pred[48], rep[64], fac[40], ovh[40], v[64];

	snprintf(pred, sizeof(pred), isnan(r->per_size) ? "-" : "%.10g x N", r->per_size);
	if (counted(r)) {
		snprintf(rep, sizeof(rep), "%.0f +- %.3g", r->big_mean, r->big_ci);
		snprintf(fac, sizeof(fac), isnan(r->factor) ? "-" : "%.6f", r->factor);
		snprintf(ovh, sizeof(ovh), isnan(r->overhead) ? "-" : "%.1f", r->overhead);
	} else {
		strcpy(rep, "-");
		strcpy(fac, "-");
		strcpy(ovh, "-");
	}
	verdict(r, v, sizeof(v));
	fprintf(f, "%-32s %-10s %-12s %-22s %-10s %-12s %s\n", r->event, r->kernel, pred, rep, fac,
		ovh, v);
	if (*r->why)
		fprintf(f, "    %s\n", r->why);
}

void validate_csv_field(FILE *f, const char *s, bool last)
{
	bool quote = strpbrk(s, ",\"\n") != NULL;

	if (quote) {
		fputc('"', f);
		for (; *s; s++)
			fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

void validate_csv_num(FILE *f, double v)
{
	if (isnan(v))
		fputc(',', f);
	else
		fprintf(f, "%.17g,", v);
}

static void csv_row(FILE *f, const struct vrow *r)
{
	bool c = counted(r);

	validate_csv_field(f, r->event, false);
	validate_csv_field(f, r->kernel, false);
	validate_csv_num(f, r->per_size);
	validate_csv_num(f, r->startup);
	validate_csv_num(f, c && !isnan(r->per_size) ? r->big_x : NAN);
	validate_csv_num(f, c ? r->big_mean : NAN);
	validate_csv_num(f, c ? r->big_ci : NAN);
	validate_csv_num(f, c ? r->factor : NAN);
	validate_csv_num(f, c ? r->factor_ci : NAN);
	validate_csv_num(f, c ? r->overhead : NAN);
	validate_csv_num(f, c ? r->overhead_ci : NAN);
	validate_csv_num(f, c ? r->resid_sd : NAN);
	validate_csv_field(f, vclass_name(r->cls), false);
	validate_csv_num(f, r->cls == VCLASS_BIAS ? r->bias : NAN);
	validate_csv_field(f, r->why, false);
	validate_csv_num(f, c ? r->pf_r : NAN);
	fprintf(f, c && !isnan(r->irq_r) ? "%.17g\n" : "\n", r->irq_r);
}

json_t *validate_json_num(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *json_row(const struct vrow *r)
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
		      "per_size", validate_json_num(r->per_size), "startup",
		      validate_json_num(r->startup), "points", pts, "class", vclass_name(r->cls));
	if (j && c) {
		json_object_set_new(j, "factor", validate_json_num(r->factor));
		json_object_set_new(j, "factor_ci", validate_json_num(r->factor_ci));
		json_object_set_new(j, "overhead", validate_json_num(r->overhead));
		json_object_set_new(j, "overhead_ci", validate_json_num(r->overhead_ci));
		json_object_set_new(j, "residual_sd", validate_json_num(r->resid_sd));
		json_object_set_new(j, "reported_mean", json_real(r->big_mean));
		json_object_set_new(j, "reported_ci", json_real(r->big_ci));
		json_object_set_new(j, "predicted",
				    isnan(r->per_size) ? json_null() : json_real(r->big_x));
		json_object_set_new(j, "page_faults_r", validate_json_num(r->pf_r));
		json_object_set_new(j, "interrupts_r", validate_json_num(r->irq_r));
	}
	if (j && r->quantity && strcmp(r->quantity, r->event)) /* the event counts a quantity */
		json_object_set_new(j, "quantity", json_string(r->quantity));
	if (j && r->cls == VCLASS_BIAS)
		json_object_set_new(j, "bias", json_real(r->bias));
	if (j && *r->why)
		json_object_set_new(j, r->cls >= VCLASS_UNKNOWN ? "why" : "note",
				    json_string(r->why));
	return j;
}

int validate_write(FILE *f, const struct vplan *plan, int fmt, json_t *provenance)
{
	json_t *root, *rows;

	if (fmt == VALIDATE_TEXT) {
		fprintf(f,
			"# pmc validate: reported = factor x predicted + overhead, %.0f%% "
			"intervals\n",
			plan->level * 100);
		if (plan->irq_source)
			fprintf(f, "# interrupts counted alongside: %s\n", plan->irq_source);
		fprintf(f, "%-32s %-10s %-12s %-22s %-10s %-12s %s\n", "event", "kernel",
			"predicted", "reported (largest N)", "factor", "overhead", "class");
		for (size_t i = 0; i < plan->nr_rows; i++)
			text_row(f, &plan->rows[i]);
		return 0;
	}
	if (fmt == VALIDATE_CSV) {
		fputs("event,kernel,per_size,startup,predicted,reported_mean,reported_ci,factor,"
		      "factor_ci,overhead,overhead_ci,residual_sd,class,bias,why,page_faults_r,"
		      "interrupts_r\n",
		      f);
		for (size_t i = 0; i < plan->nr_rows; i++)
			csv_row(f, &plan->rows[i]);
		return 0;
	}
	rows = json_array();
	for (size_t i = 0; i < plan->nr_rows; i++)
		json_array_append_new(rows, json_row(&plan->rows[i]));
	root = json_pack("{s:s, s:O, s:f, s:s?, s:o}", "schema", "pmc-validate/1", "provenance",
			 provenance ? provenance : json_null(), "confidence", plan->level,
			 "interrupts", plan->irq_source, "results", rows);
	return validate_json_dump(f, root);
}

int validate_json_dump(FILE *f, json_t *root)
{
	int rc = !root || json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ? -1 : 0;

	if (!rc)
		fputc('\n', f);
	json_decref(root);
	return rc;
}
