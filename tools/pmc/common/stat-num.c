// SPDX-License-Identifier: MIT
/* pmc stat's numbers for people (stat-num.h): LC_NUMERIC's separators, read, never set. */
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "stat-num.h"

void stat_numfmt__c(struct stat_numfmt *nf)
{
	*nf = (struct stat_numfmt){.point = "."};
}

void stat_numfmt__init(struct stat_numfmt *nf, bool big_num)
{
	locale_t loc;

	stat_numfmt__c(nf);
	/* "" is the environment's LC_NUMERIC; a locale that is not installed is C, as for perf. */
	loc = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);
	if (!loc)
		return;
	snprintf(nf->point, sizeof(nf->point), "%s", nl_langinfo_l(RADIXCHAR, loc));
	if (big_num) {
		snprintf(nf->sep, sizeof(nf->sep), "%s", nl_langinfo_l(THOUSEP, loc));
		snprintf(nf->grouping, sizeof(nf->grouping), "%s", nl_langinfo_l(GROUPING, loc));
	}
	if (!nf->point[0])
		snprintf(nf->point, sizeof(nf->point), ".");
	freelocale(loc);
}

/* Whether a separator goes before the digit `left` places from the end of the integer. */
static bool group_ends(const char *grouping, size_t left)
{
	size_t at = 0, size = 0;

	for (const char *g = grouping; at < left; at += size) {
		if (*g && *g != CHAR_MAX)
			size = (unsigned char)*g++;
		else if (!*g && size)
			; /* the last size repeats */
		else
			return false; /* CHAR_MAX, or no grouping: no more separators */
		if (!size)
			return false;
	}
	return at == left;
}

char *stat_num(char *buf, size_t len, double v, int decimals, const struct stat_numfmt *nf)
{
	char digits[512], *d = digits;
	size_t o = 0, ilen;
	const char *frac;

	if (!len)
		return buf;
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
		return buf;
	}
	/* The C locale's digits (pmc never sets a locale), then the point and groups replaced. */
	snprintf(digits, sizeof(digits), "%.*f", decimals < 0 ? 0 : decimals, v);
	if (*d == '-') {
		if (o + 1 < len)
			buf[o++] = '-';
		d++;
	}
	frac = strchr(d, '.');
	ilen = frac ? (size_t)(frac - d) : strlen(d);
	for (size_t i = 0; i < ilen && o + 1 < len; i++) {
		size_t sl = strlen(nf->sep);

		if (i && sl && group_ends(nf->grouping, ilen - i) && o + sl + 1 < len) {
			memcpy(buf + o, nf->sep, sl);
			o += sl;
		}
		buf[o++] = d[i];
	}
	if (frac && o + strlen(nf->point) < len) {
		memcpy(buf + o, nf->point, strlen(nf->point));
		o += strlen(nf->point);
		for (frac++; *frac && o + 1 < len; frac++)
			buf[o++] = *frac;
	}
	buf[o] = 0;
	return buf;
}

int stat_num_precision(double sd)
{
	if (!(sd > 0) || sd > 1)
		return 0;
	return (int)lround(ceil(-log10(sd)));
}
