// SPDX-License-Identifier: MIT
/* pmc validate's table (docs/accuracy.md); the CSV and JSON are libpmc's (pmc_validate__write). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/cli.h"
#include "validate.h"

/* The class with its value: "exact", "bias +4", "factor 1.02", "random (sd 3.1)". */
static void verdict(const struct pmc_validate_row *r, char *buf, size_t len)
{
	switch (r->cls) {
	case PMC_VALIDATE_BIAS:
		snprintf(buf, len, "bias %+.6g", r->bias);
		break;
	case PMC_VALIDATE_MULTIPLICATIVE:
		snprintf(buf, len, "factor %.6g", r->factor);
		break;
	case PMC_VALIDATE_RANDOM:
		snprintf(buf, len, "random (sd %.3g)", r->resid_sd);
		break;
	default:
		snprintf(buf, len, "%s", pmc_validate_class_name(r->cls));
	}
}

static bool counted(const struct pmc_validate_row *r)
{
	return r->cls != PMC_VALIDATE_UNSUPPORTED && r->nr > 0 && r->big_x >= 0;
}

static void text_row(FILE *f, const struct pmc_validate_row *r)
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

int validate_write_text(FILE *f, const struct pmc_validate *v)
{
	fprintf(f, "# pmc validate: reported = factor x predicted + overhead, %.0f%% intervals\n",
		pmc_validate__level(v) * 100);
	if (pmc_validate__irq_source(v))
		fprintf(f, "# interrupts counted alongside: %s\n", pmc_validate__irq_source(v));
	fprintf(f, "%-32s %-10s %-12s %-22s %-10s %-12s %s\n", "event", "kernel", "predicted",
		"reported (largest N)", "factor", "overhead", "class");
	for (size_t i = 0; i < pmc_validate__nr_rows(v); i++)
		text_row(f, pmc_validate__row(v, i));
	return ferror(f) ? -EIO : 0;
}
