// SPDX-License-Identifier: MIT
/* The merged statistics as text, CSV and JSON (schema "pmc-merge/1", docs/mpi.md). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/field.h"
#include "core/jsonstr.h"
#include "merge/merge.h"

static int by_rank(const void *a, const void *b)
{
	const struct merge_file *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

static const char *series_name(const struct pmc_merge *m, char kind, size_t idx)
{
	return kind == 'm' ? m->metrics.names[idx] : m->events.names[idx];
}

/*
 * A value in text and CSV: an integer (counts are) with all its digits, up to 2^64 and
 * beyond; another with 15 significant digits, as before.
 */
static void num(FILE *f, const char *sep, double v)
{
	if (isfinite(v) && v == floor(v) && fabs(v) < 1e20)
		fprintf(f, "%s%.0f", sep, v);
	else
		fprintf(f, "%s%.15g", sep, v);
}

/* Text ------------------------------------------------------------------------------- */

static void text_missing(int first, int last, void *arg)
{
	if (first == last)
		fprintf(arg, " %d", first);
	else
		fprintf(arg, " %d-%d", first, last);
}

static void text_row(const struct pmc_merge *m, char kind, size_t r, size_t idx,
		     const struct series *s, void *arg)
{
	const struct merge_stat *st = &s->st;
	FILE *f = arg;

	if (kind == 'r' && idx == 0) {
		fprintf(f, "# Region ");
		pmc__pct_field(f, m->regions.names[r]);
		fputc('\n', f);
	}
	if (kind == 'm' && idx == 0)
		fprintf(f, "# Metrics\n");
	if (kind == 'r') {
		pmc__pct_field(f, m->regions.names[r]);
		fputc(' ', f);
	}
	pmc__pct_field(f, series_name(m, kind, idx));
	if (!st->n) {
		fprintf(f, " not counted\n");
		return;
	}
	num(f, " ", st->sum);
	num(f, " ", st->min);
	fprintf(f, " %d", st->min_rank);
	num(f, " ", st->max);
	fprintf(f, " %d", st->max_rank);
	num(f, " ", st->mean);
	fprintf(f, " %.6g %.4f %.4f %.4f", st->stddev, st->cv, st->imbalance, st->load_balance);
	for (int k = 0; k < MERGE_NR_PCT; k++)
		num(f, " ", st->pct[k]);
	fputc('\n', f);
}

/* The three formats (write.c, json.c). */
static int merge_write_text(struct pmc_merge *m, FILE *f)
{
	bool stopped = false;

	fprintf(f, "# pmc merge: %zu rank%s", m->nr_files, m->nr_files == 1 ? "" : "s");
	if (m->size >= 0)
		fprintf(f, " of %d", m->size);
	fprintf(f, " (%s), pmc %s, backend %s\n", m->launcher ? m->launcher : "no launcher",
		m->version, m->backend);
	if (m->size > (int)m->nr_files) {
		fprintf(f, "# missing ranks:");
		pmc__merge_for_missing(m, text_missing, f);
		fputc('\n', f);
	}
	for (size_t i = 0; i < m->nr_files; i++) {
		const struct merge_file *fi = &m->files[i];

		if (!fi->stopped_early)
			continue;
		fprintf(f, "%s rank %d (%s)", stopped ? "," : "# stopped early:", fi->rank,
			fi->stopped_by[0] ? fi->stopped_by : "?");
		stopped = true;
	}
	if (stopped)
		fputc('\n', f);
	pmc__merge_per_host_text(m, f);
	fprintf(f, "# Event Sum Min MinRank Max MaxRank Mean StdDev CV Imbalance LoadBalance "
		   "P10 P25 P50 P75 P90\n");
	return pmc__merge_for_series(m, text_row, f);
}

/* CSV -------------------------------------------------------------------------------- */

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		num(f, ",", v);
	else
		fputc(',', f);
}

static void csv_row(const struct pmc_merge *m, char kind, size_t r, size_t idx,
		    const struct series *s, void *arg)
{
	const struct merge_stat *st = &s->st;
	FILE *f = arg;

	fprintf(f, "%s,", kind == 'e' ? "event" : kind == 'm' ? "metric" : "region");
	if (kind == 'r')
		pmc__csv_field(f, m->regions.names[r]);
	fputc(',', f);
	pmc__csv_field(f, series_name(m, kind, idx));
	fprintf(f, ",%zu", st->n);
	if (!st->n) {
		fprintf(f, ",,,,,,,,,,,,,,,,\n");
		return;
	}
	csv_num(f, st->sum);
	csv_num(f, st->min);
	fprintf(f, ",%d", st->min_rank);
	csv_num(f, st->max);
	fprintf(f, ",%d", st->max_rank);
	csv_num(f, st->mean);
	csv_num(f, st->stddev);
	csv_num(f, st->cv);
	csv_num(f, st->imbalance);
	csv_num(f, st->load_balance);
	for (int k = 0; k < MERGE_NR_PCT; k++)
		csv_num(f, st->pct[k]);
	fputc(',', f);
	for (size_t i = 0, k = 0; i < m->nr_files; i++)
		if (!isnan(s->values[i])) {
			fprintf(f, "%s%d", k++ ? ";" : "", s->ranks[i]);
			num(f, ":", s->values[i]);
		}
	fputc('\n', f);
}

static int merge_write_csv(struct pmc_merge *m, FILE *f)
{
	fprintf(f, "scope,region,name,n,sum,min,min_rank,max,max_rank,mean,stddev,cv,imbalance,"
		   "load_balance,p10,p25,p50,p75,p90,values\n");
	return pmc__merge_for_series(m, csv_row, f);
}

int pmc_merge__write(struct pmc_merge *m, FILE *f, enum pmc_merge_format fmt)
{
	int err;

	if (!m->nr_files)
		return -EINVAL;
	qsort(m->files, m->nr_files, sizeof(*m->files), by_rank);
	err = fmt == PMC_MERGE_FORMAT_JSON  ? pmc__merge_write_json(m, f)
	      : fmt == PMC_MERGE_FORMAT_CSV ? merge_write_csv(m, f)
					    : merge_write_text(m, f);
	return err ? err : ferror(f) ? -EIO : 0;
}
