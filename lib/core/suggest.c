// SPDX-License-Identifier: MIT
/* "Did you mean": edit distance and the kept closest candidates (suggest.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <pmc/pmc.h>
#include "core/suggest.h"

#define MAX_NAME 128

/*
 * Levenshtein distance, case-insensitive (users mistype case as often as letters). Gives
 * up with MAX_NAME once the distance must exceed limit: most candidates are far off, and a
 * suggestion walks thousands of them.
 */
static int distance(const char *a, const char *b, int limit)
{
	int la = strlen(a), lb = strlen(b), row[MAX_NAME + 1];

	if (la > MAX_NAME || lb > MAX_NAME || la - lb > limit || lb - la > limit)
		return MAX_NAME;
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		int diag = row[0], lowest;

		row[0] = lowest = i;
		for (int j = 1; j <= lb; j++) {
			int up = row[j];
			int cost = tolower((unsigned char)a[i - 1]) !=
				   tolower((unsigned char)b[j - 1]);
			int best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
			if (best < lowest)
				lowest = best;
		}
		if (lowest > limit)
			return MAX_NAME;
	}
	return row[lb];
}

/*
 * Keeps err->suggest sorted by distance (dist[] beside it); candidates further than a third
 * of the name's length (at least 2) are not suggestions but noise. libpfm4 names are also
 * compared without their "pmu::" prefix.
 */
void pmc__suggest_add(struct pmc_parse_error *err, int *dist, const char *name, const char *cand)
{
	const char *bare = strstr(cand, "::");
	int limit = strlen(name) / 3 < 2 ? 2 : strlen(name) / 3;
	int d = distance(name, cand, limit), pos;

	if (bare && distance(name, bare + 2, limit) < d)
		d = distance(name, bare + 2, limit);
	if (d > limit || d == 0 || strlen(cand) >= sizeof(err->suggest[0]))
		return;
	for (int i = 0; i < err->nr_suggest; i++)
		if (!strcmp(err->suggest[i], cand))
			return;
	for (pos = err->nr_suggest; pos > 0 && dist[pos - 1] > d; pos--)
		;
	if (pos >= 3)
		return;
	for (int i = (err->nr_suggest < 3 ? err->nr_suggest : 2); i > pos; i--) {
		memcpy(err->suggest[i], err->suggest[i - 1], sizeof(err->suggest[i]));
		dist[i] = dist[i - 1];
	}
	snprintf(err->suggest[pos], sizeof(err->suggest[pos]), "%s", cand);
	dist[pos] = d;
	if (err->nr_suggest < 3)
		err->nr_suggest++;
}

void pmc_suggest_names(struct pmc_parse_error *err, const char *name, const char *const *cands,
		       size_t nr)
{
	int dist[3] = {0};

	err->nr_suggest = 0;
	for (size_t i = 0; i < nr; i++)
		pmc__suggest_add(err, dist, name, cands[i]);
}
