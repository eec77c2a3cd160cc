// SPDX-License-Identifier: MIT
/* The merge's series, each over the ranks in rank order with its statistics, for the writers. */
#include <errno.h>
#include <stdlib.h>
#include "merge/merge.h"

static int series_new(const struct pmc_merge *m, struct series *s)
{
	s->values = calloc(m->nr_files, sizeof(double));
	s->scratch = calloc(m->nr_files, sizeof(double));
	s->ranks = calloc(m->nr_files, sizeof(int));
	if (!s->values || !s->scratch || !s->ranks)
		return -ENOMEM;
	for (size_t i = 0; i < m->nr_files; i++)
		s->ranks[i] = m->files[i].rank;
	return 0;
}

static void series_free(struct series *s)
{
	free(s->values);
	free(s->scratch);
	free(s->ranks);
}

static void series_fill(const struct pmc_merge *m, struct series *s, char kind, size_t r,
			size_t idx)
{
	for (size_t i = 0; i < m->nr_files; i++)
		s->values[i] = pmc__merge_value(&m->files[i], kind, r, idx);
	pmc__merge_stat(s->values, s->ranks, m->nr_files, s->scratch, &s->st);
}

void pmc__merge_for_missing(const struct pmc_merge *m, void (*fn)(int first, int last, void *arg),
			    void *arg)
{
	int next = 0; /* the first rank not known to be present or missing */

	for (size_t i = 0; i < m->nr_files && next < m->size; i++) {
		if (m->files[i].rank > next)
			fn(next, (m->files[i].rank < m->size ? m->files[i].rank : m->size) - 1,
			   arg);
		if (m->files[i].rank >= next)
			next = m->files[i].rank + 1;
	}
	if (next < m->size)
		fn(next, m->size - 1, arg);
}

int pmc__merge_for_series(const struct pmc_merge *m, pmc__merge_series_fn fn, void *arg)
{
	struct series s = {0};
	int err = series_new(m, &s);

	for (size_t i = 0; !err && i < m->events.nr; i++) {
		series_fill(m, &s, 'e', 0, i);
		fn(m, 'e', 0, i, &s, arg);
	}
	for (size_t i = 0; !err && i < m->metrics.nr; i++) {
		series_fill(m, &s, 'm', 0, i);
		fn(m, 'm', 0, i, &s, arg);
	}
	for (size_t r = 0; !err && r < m->regions.nr; r++)
		for (size_t i = 0; i < m->events.nr; i++) {
			series_fill(m, &s, 'r', r, i);
			fn(m, 'r', r, i, &s, arg);
		}
	series_free(&s);
	return err;
}
