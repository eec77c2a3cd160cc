// SPDX-License-Identifier: MIT
/*
 * The tables that keep the metric engine linear in what it is given (docs/security.md,
 * "Limits"): what a walk learned of each metric it finished (its value, how deep it refers),
 * so that a metric referred to from many places is walked once, not once per path; and the
 * names of a set, looked up by hash rather than one by one.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/grow.h"
#include "metric/metric.h"

/* Fibonacci hashing of a pointer into a table of 2^bits slots. */
static size_t slot_of(const void *p, size_t cap)
{
	return (size_t)(((uintptr_t)p >> 4) * (uintptr_t)0x9e3779b97f4a7c15ULL) & (cap - 1);
}

const struct pmc__memo_slot *pmc__memo_get(const struct pmc__memo *t, const struct pmc_metric *m)
{
	if (!t || !t->cap)
		return NULL;
	for (size_t i = slot_of(m, t->cap);; i = (i + 1) & (t->cap - 1)) {
		if (t->v[i].key == m)
			return &t->v[i];
		if (!t->v[i].key)
			return NULL;
	}
}

static int grow(struct pmc__memo *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	struct pmc__memo_slot *v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j = slot_of(t->v[i].key, cap);

		if (!t->v[i].key)
			continue;
		while (v[j].key)
			j = (j + 1) & (cap - 1);
		v[j] = t->v[i];
	}
	free(t->v);
	t->v = v;
	t->cap = cap;
	return 0;
}

void pmc__memo_put(struct pmc__memo *t, const struct pmc_metric *m, double value, int height)
{
	size_t i;

	if (!t || ((t->nr + 1) * 2 > t->cap && grow(t)))
		return; /* no memory: the walk stays right, only slower */
	for (i = slot_of(m, t->cap); t->v[i].key && t->v[i].key != m; i = (i + 1) & (t->cap - 1))
		;
	t->nr += !t->v[i].key;
	t->v[i] = (struct pmc__memo_slot){.key = m, .value = value, .height = height};
}

void pmc__memo_free(struct pmc__memo *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* FNV-1a of a name, without regard to case when fold. */
static size_t hash_name(const char *s, bool fold)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		h = (h ^ (fold && c >= 'A' && c <= 'Z' ? c + 32 : c)) * 0x100000001b3ULL;
	}
	return (size_t)h;
}

/*
 * The slot of name in an index of cap slots (each an index into v plus 1, 0 empty): the one
 * that holds it, or the empty one where it would go.
 */
static size_t find(const size_t *idx, size_t cap, char *const *v, const char *name, bool fold)
{
	size_t i = hash_name(name, fold) & (cap - 1);

	while (idx[i] && (fold ? strcasecmp(v[idx[i] - 1], name) : strcmp(v[idx[i] - 1], name)))
		i = (i + 1) & (cap - 1);
	return i;
}

/* Rebuilds s's index at twice the size. */
static int reindex(struct pmc__strset *s)
{
	size_t cap = s->cap_idx ? s->cap_idx * 2 : 16, *idx = calloc(cap, sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr; i++)
		idx[find(idx, cap, s->v, s->v[i], false)] = i + 1;
	free(s->idx);
	s->idx = idx;
	s->cap_idx = cap;
	return 0;
}

int pmc__strset_add(struct pmc__strset *s, const char *str)
{
	size_t at;

	if ((s->nr + 1) * 2 > s->cap_idx && reindex(s))
		return -ENOMEM;
	at = find(s->idx, s->cap_idx, s->v, str, false);
	if (s->idx[at])
		return 0;
	if (PMC_ENSURE(s->v, s->cap, s->nr + 1))
		return -ENOMEM;
	if (!(s->v[s->nr] = strdup(str)))
		return -ENOMEM;
	s->idx[at] = ++s->nr;
	return 1;
}

void pmc__strset_free(struct pmc__strset *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->v[i]);
	free(s->v);
	free(s->idx);
	memset(s, 0, sizeof(*s));
}

/* The slot of the metric named name (without regard to case), or the empty one for it. */
static size_t find_metric(const struct pmc__name_index *t, const char *name)
{
	size_t i = hash_name(name, true) & (t->cap - 1);

	while (t->v[i] && strcasecmp(t->v[i]->info.name, name))
		i = (i + 1) & (t->cap - 1);
	return i;
}

struct pmc_metric *pmc__name_index_get(const struct pmc__name_index *t, const char *name)
{
	return t->cap ? t->v[find_metric(t, name)] : NULL;
}

int pmc__name_index_reserve(struct pmc__name_index *t, size_t more)
{
	struct pmc__name_index n = {.cap = t->cap ? t->cap : 64, .nr = t->nr};

	while ((t->nr + more) * 2 > n.cap)
		n.cap *= 2;
	if (n.cap == t->cap)
		return 0;
	if (!(n.v = calloc(n.cap, sizeof(*n.v))))
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++)
		if (t->v[i])
			n.v[find_metric(&n, t->v[i]->info.name)] = t->v[i];
	free(t->v);
	*t = n;
	return 0;
}

void pmc__name_index_put(struct pmc__name_index *t, struct pmc_metric *metric)
{
	size_t at = find_metric(t, metric->info.name);

	t->nr += !t->v[at];
	t->v[at] = metric;
}

void pmc__name_index_free(struct pmc__name_index *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
