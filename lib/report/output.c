// SPDX-License-Identifier: MIT
/* Writing a report: text (perf report's layout), CSV; JSON, stacks and exports in their files. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/bytes.h>
#include "core/field.h"
#include "report/report.h"

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* An entry's interval under its event's check, widened to whole events: "[lo, hi]". */
static const char *interval_text(const struct pmc_estimate_check *c, uint64_t samples,
				 uint64_t period, char *buf, size_t len)
{
	double lo, hi;

	if (!pmc__report_entry_interval(c, samples, period, &lo, &hi))
		return "no estimate";
	snprintf(buf, len, "[%.0f, %.0f]", floor(lo), ceil(hi));
	return buf;
}

/* Branch mode: entries are branches counting 1 each, so no estimate or interval. */
static void branch_header(struct pmc_report *r, size_t ai, FILE *out)
{
	fprintf(out,
		"# event '%s': %" PRIu64 " samples with a branch stack, %" PRIu64
		" branches (each counts 1, as in perf report -b)\n#\n# Overhead %10s  ",
		r->names[ai], r->total_samples[ai], r->total_period[ai], "Branches");
	for (size_t k = 0; k < r->nr_keys; k++)
		fprintf(out, "%s%s", k ? "  " : "", pmc__report_key_name(r->keys[k]));
	fprintf(out, "\n#\n");
}

/* The event's line: its estimate, or why there is none (docs/report.md, "Estimates"). */
static void text_estimate(struct pmc_report *r, size_t ai, const struct pmc_estimate_check *c,
			  FILE *out)
{
	char iv[64];

	fprintf(out, "# event '%s': %" PRIu64 " samples, ", r->names[ai], r->total_samples[ai]);
	if (c->status == PMC_ESTIMATE_EXACT)
		fprintf(out, "count %" PRIu64 " (period 1: every event was sampled)\n",
			r->total_samples[ai]);
	else if (c->status == PMC_ESTIMATE_INTERVAL)
		fprintf(out,
			"estimated count %" PRIu64 " (sum of sample periods, k·S), 95%% interval "
			"%s\n",
			r->total_period[ai],
			interval_text(c, r->total_samples[ai], r->total_period[ai], iv,
				      sizeof(iv)));
	else if (r->total_samples[ai])
		fprintf(out, "sum of sample periods %" PRIu64 ", %s\n", r->total_period[ai],
			c->reason);
	else
		fprintf(out, "%s\n", c->reason);
}

static void text_header(struct pmc_report *r, size_t ai, const struct pmc_estimate_check *c,
			FILE *out)
{
	if (r->branch_mode) {
		branch_header(r, ai, out);
		return;
	}
	text_estimate(r, ai, c, out);
	if (pmc__report_imprecise(&r->attrs[ai]))
		fprintf(out,
			"# note: samples of '%s' are imprecise (no :p modifier): the sampled "
			"ip may be several instructions after the one that caused the "
			"event (skid)\n",
			r->names[ai]);
	fprintf(out, "#\n# %s%9s %10s %14s  %-25s  ",
		r->opts.children ? "Children      Self" : "Overhead", "", "Samples", "Est. count",
		"95% interval");
	for (size_t k = 0; k < r->nr_keys; k++)
		fprintf(out, "%s%s", k ? "  " : "", pmc__report_key_name(r->keys[k]));
	fprintf(out, "\n#\n");
}

static void text_callers(struct pmc_report *r, const struct hent *e, FILE *out)
{
	for (size_t i = 0; i < e->nr_callers && i < 5; i++) {
		size_t best = i;
		for (size_t j = i + 1; j < e->nr_callers; j++)
			if (e->callers[j].period > e->callers[best].period)
				best = j;
		struct caller t = e->callers[i];
		((struct hent *)e)->callers[i] = e->callers[best];
		((struct hent *)e)->callers[best] = t;
		fprintf(out, "%32s<- ", "");
		pmc_fput_printable(out, e->callers[i].sym->name);
		fprintf(out, " (%.2f%%)\n", pct(e->callers[i].period, e->period));
	}
}

static void text_entry(struct pmc_report *r, struct hent *e, const struct pmc_estimate_check *c,
		       FILE *out)
{
	uint64_t t = r->total_period[e->attr_idx];
	char iv[64], est[32] = "-";

	if (r->branch_mode) {
		fprintf(out, "%8.2f%% %10" PRIu64 "  ", pct(e->period, t), e->samples);
		pmc_fput_printable(out, pmc__report_entry_text(r, e));
		fputc('\n', out);
		return;
	}
	if (r->opts.children)
		fprintf(out, "%8.2f%% %8.2f%%", pct(e->children, t), pct(e->period, t));
	else
		fprintf(out, "%8.2f%%", pct(e->period, t));
	if (c->status == PMC_ESTIMATE_INTERVAL || c->status == PMC_ESTIMATE_EXACT)
		snprintf(est, sizeof(est), "%" PRIu64, e->period);
	/* Names are bytes: control characters never reach a terminal raw. */
	fprintf(out, " %10" PRIu64 " %14s  %-25s  ", e->samples, est,
		interval_text(c, e->samples, e->period, iv, sizeof(iv)));
	pmc_fput_printable(out, pmc__report_entry_text(r, e));
	fputc('\n', out);
	if (!r->opts.no_callers && e->nr_callers)
		text_callers(r, e, out);
}

/* Every event of the file has its header, those without samples too (with the reason). */
static void write_text(struct pmc_report *r, FILE *out)
{
	size_t i = 0;

	fprintf(out, "# pmc report of ");
	pmc_fput_printable(out, r->path);
	fprintf(out, ": %" PRIu64 " samples, %" PRIu64 " lost\n", r->nr_samples, r->nr_lost);
	if (r->nr_reconstructed)
		fprintf(out,
			"# %" PRIu64 " data addresses were reconstructed from the sampled "
			"registers and instruction (marked *)\n",
			r->nr_reconstructed);
	for (size_t ai = 0; ai < r->nr_attrs; ai++) {
		struct pmc_estimate_check c;
		size_t shown = 0;

		pmc__report_check(r, ai, &c);
		text_header(r, ai, &c, out);
		for (; i < r->nr_ents && r->ents[i]->attr_idx == ai; i++) {
			if (!pmc__report_visible(r, r->ents[i]) ||
			    (r->opts.max_entries && shown >= r->opts.max_entries))
				continue;
			shown++;
			text_entry(r, r->ents[i], &c, out);
		}
	}
}

/* An event without samples: zeros, empty keys, and why there is no estimate. */
static void csv_empty_event(struct pmc_report *r, size_t ai, const struct pmc_estimate_check *c,
			    FILE *out)
{
	pmc__csv_field(out, r->names[ai]);
	fprintf(out, ",0.0000,0.0000,0,0");
	for (size_t k = 0; k < r->nr_keys; k++)
		fputc(',', out);
	fprintf(out, ",,,");
	pmc__csv_field(out, c->reason);
	fputc('\n', out);
}

/* The entry's interval, or empty bounds and the event's reason. */
static void csv_interval(const struct pmc_estimate_check *c, const struct hent *e, FILE *out)
{
	double lo, hi;

	if (pmc__report_entry_interval(c, e->samples, e->period, &lo, &hi)) {
		fprintf(out, ",%.0f,%.0f,\n", floor(lo), ceil(hi));
		return;
	}
	fprintf(out, ",,,");
	pmc__csv_field(out, c->reason);
	fputc('\n', out);
}

static int write_csv(struct pmc_report *r, FILE *out)
{
	struct pmc_estimate_check *checks = calloc(r->nr_attrs, sizeof(*checks));
	char buf[1024];

	if (!checks)
		return -ENOMEM;
	for (size_t ai = 0; ai < r->nr_attrs; ai++)
		pmc__report_check(r, ai, &checks[ai]);

	fprintf(out, "event,overhead,children,samples,period");
	for (size_t k = 0; k < r->nr_keys; k++)
		fprintf(out, ",%s", pmc__report_key_name(r->keys[k]));
	fprintf(out, ",interval_lo,interval_hi,no_estimate\n");
	for (size_t ai = 0; ai < r->nr_attrs; ai++)
		if (!r->total_samples[ai]) /* a row of its own, with the reason */
			csv_empty_event(r, ai, &checks[ai], out);
	for (size_t i = 0; i < r->nr_ents; i++) {
		struct hent *e = r->ents[i];
		uint64_t t = r->total_period[e->attr_idx];
		struct rctx c = e->rep;
		if (!pmc__report_visible(r, e))
			continue;
		pmc__csv_field(out, r->names[e->attr_idx]);
		fprintf(out, ",%.4f,%.4f,%" PRIu64 ",%" PRIu64, pct(e->period, t),
			pct(e->children, t), e->samples, e->period);
		for (size_t k = 0; k < r->nr_keys; k++) {
			struct pmc_report one = *r;
			struct hent tmp = *e;
			one.keys[0] = r->keys[k];
			one.nr_keys = 1;
			tmp.rep = c;
			pmc__report_key_text(&one, &tmp, buf, sizeof(buf));
			fputc(',', out);
			pmc__csv_field(out, buf);
		}
		csv_interval(&checks[e->attr_idx], e, out);
	}
	free(checks);
	return 0;
}

/* The formats written from whole call chains, which the report keeps only when asked to. */
static int write_stacks(struct pmc_report *r, enum pmc_report_format fmt, FILE *out)
{
	if (!r->opts.folded && r->nr_samples)
		return -EINVAL;
	switch (fmt) {
	case PMC_REPORT_PPROF:
		return pmc__report_write_pprof(r, out);
	case PMC_REPORT_SPEEDSCOPE:
		return pmc__report_write_speedscope(r, out);
	case PMC_REPORT_CALLGRIND:
		return pmc__report_write_callgrind(r, out);
	default:
		return pmc__report_write_folded(r, out);
	}
}

int pmc_report__write(struct pmc_report *r, enum pmc_report_format fmt, FILE *out)
{
	int err;

	pmc__report_sort(r);
	if (r->opts.branch_analysis && fmt <= PMC_REPORT_JSON)
		return pmc__report_write_branch_analysis(r, fmt, out) ? -ENOMEM
		       : ferror(out)				      ? -EIO
								      : 0;
	switch (fmt) {
	case PMC_REPORT_TEXT:
		write_text(r, out);
		break;
	case PMC_REPORT_CSV:
		if (write_csv(r, out))
			return -ENOMEM;
		break;
	case PMC_REPORT_HTML:
		if (!r->opts.html)
			return -EINVAL;
		return pmc__report_write_html(r, out);
	case PMC_REPORT_JSON:
		if (pmc__report_write_json(r, out))
			return -ENOMEM;
		break;
	case PMC_REPORT_FOLDED:
	case PMC_REPORT_PPROF:
	case PMC_REPORT_SPEEDSCOPE:
	case PMC_REPORT_CALLGRIND:
		err = write_stacks(r, fmt, out);
		if (err)
			return err;
		break;
	default:
		return -EINVAL;
	}
	return ferror(out) ? -EIO : 0;
}
