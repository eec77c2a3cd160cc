// SPDX-License-Identifier: MIT
/* The names the metric engine keeps: sets of distinct strings, and separated lists of names. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "metric/metric.h"

int pmc__strset_add(struct pmc__strset *s, const char *str)
{
	char **v;

	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i], str))
			return 0;
	v = realloc(s->v, (s->nr + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->v = v;
	if (!(s->v[s->nr] = strdup(str)))
		return -ENOMEM;
	s->nr++;
	return 1;
}

void pmc__strset_free(struct pmc__strset *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->nr = 0;
}

bool pmc__in_listn(const char *list, size_t n, char sep, const char *name, size_t len)
{
	for (const char *s = list, *end = list + n; s < end;) {
		const char *e = memchr(s, sep, (size_t)(end - s));
		size_t k = e ? (size_t)(e - s) : (size_t)(end - s);

		if (k == len && !strncasecmp(s, name, len))
			return true;
		s += k + (e != NULL);
	}
	return false;
}

bool pmc__in_list(const char *list, char sep, const char *name, size_t len)
{
	return pmc__in_listn(list, strlen(list), sep, name, len);
}
