// SPDX-License-Identifier: MIT
/* CPU lists ("0,2-3"): -C's argument and sysfs's online list, parsed strictly. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "core/cpulist.h"
#include "core/sysfile.h"

/* The largest CPU number a list may name (the kernel's NR_CPUS is at most 8192). */
#define MAX_CPU 8191

static int append(int **v, int *n, int *alloc, int x)
{
	if (*n == *alloc) {
		int na = *alloc ? 2 * *alloc : 16;
		int *nv = realloc(*v, (size_t)na * sizeof(int));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*alloc = na;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/* One number at *s (digits only), at most MAX_CPU; moves *s past it. */
static int number(const char **s, long *out)
{
	char *end;

	if (**s < '0' || **s > '9')
		return -EINVAL;
	*out = strtol(*s, &end, 10);
	if (*out > MAX_CPU)
		return -ERANGE;
	*s = end;
	return 0;
}

static int fail(int *v, const char *list, const char *at, char *why, size_t len)
{
	free(v);
	if (why && len)
		snprintf(why, len,
			 "'%s' is not a CPU list (at '%s': expected a CPU number up to %d, "
			 "a range a-b, and single commas, as 0,2-3)",
			 list, *at ? at : "the end", MAX_CPU);
	return -EINVAL;
}

int pmc__cpu_list(const char *list, int **out, char *why, size_t len)
{
	char buf[4096];
	const char *s = list;
	int *v = NULL, n = 0, alloc = 0;
	/* A CPU named twice ("0,0", "0-1,1") is one CPU, counted once, as perf does. */
	unsigned char seen[MAX_CPU + 1] = {0};

	if (!s) {
		if (pmc__sysfs_read("devices/system/cpu/online", buf, sizeof(buf)) < 0)
			snprintf(buf, sizeof(buf), "0-%ld", sysconf(_SC_NPROCESSORS_ONLN) - 1);
		list = s = buf;
	}
	for (;;) {
		const char *at = s;
		long a, b;

		if (number(&s, &a))
			return fail(v, list, at, why, len);
		b = a;
		if (*s == '-') {
			s++;
			if (number(&s, &b) || b < a)
				return fail(v, list, at, why, len);
		}
		for (long c = a; c <= b; c++)
			if (!seen[c]++ && append(&v, &n, &alloc, (int)c)) {
				free(v);
				return -ENOMEM;
			}
		if (!*s)
			break;
		if (*s != ',')
			return fail(v, list, s, why, len);
		s++; /* a number must follow: "1,,2" and "1," fail there */
	}
	*out = v;
	return n;
}
