// SPDX-License-Identifier: MIT
/* Separated lists of names, as the metric engine reads them (groups, selections). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "metric/metric.h"

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
