/* SPDX-License-Identifier: MIT */
/* pmc stat's numbers for people: thousands separators and decimal point of LC_NUMERIC. */
#ifndef PMC_TOOLS_STAT_NUM_H
#define PMC_TOOLS_STAT_NUM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * How numbers are written: perf stat's "%'.Nf" under setlocale(LC_ALL, ""), without changing
 * pmc's own locale, so that the results files (--format, -x, -j) stay in the C locale.
 */
struct stat_numfmt {
	char sep[8];	  /* thousands separator; "" writes none (C locale, --no-big-num) */
	char point[8];	  /* decimal point */
	char grouping[8]; /* digits per group from the right, as localeconv()'s grouping */
};

/*
 * The terminal's format: LC_NUMERIC's decimal point, and its separators when big_num (perf's
 * -B, the default; the C locale has none). Reads the locale (LC_ALL, LC_NUMERIC, LANG).
 */
void stat_numfmt__init(struct stat_numfmt *nf, bool big_num);
/* The C locale's: a '.', no separators (the machine formats). */
void stat_numfmt__c(struct stat_numfmt *nf);
/*
 * Writes v with decimals digits after the point into buf (NUL-terminated, cut at len),
 * grouped as nf says; NaN and infinities as "nan", "inf", "-inf". Returns buf.
 */
char *stat_num(char *buf, size_t len, double v, int decimals, const struct stat_numfmt *nf);
/*
 * The digits after the point that show a value whose spread is sd, as perf's footer: none
 * above 1, else the first significant digit of sd.
 */
int stat_num_precision(double sd);

#endif /* PMC_TOOLS_STAT_NUM_H */
