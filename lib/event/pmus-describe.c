// SPDX-License-Identifier: MIT
/*
 * The machine's PMUs in words (event/pmus.h): one PMU for pmc list's headings, and the core
 * types and uncore units for pmc doctor (docs/pmus.md, "Discovery").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/event.h>
#include "core/topology.h"
#include "event/pmus.h"

/* Appends to buf at *at (cut at len). */
static void put(char *buf, size_t len, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at = *at + (size_t)n < len ? *at + (size_t)n : len;
}

/* "0-7,16-23": ascending CPUs as sysfs writes them. */
static void put_cpus(char *buf, size_t len, size_t *at, const int *cpus, int nr)
{
	for (int i = 0; i < nr;) {
		int j = i;

		while (j + 1 < nr && cpus[j + 1] == cpus[j] + 1)
			j++;
		put(buf, len, at, "%s%d", i ? "," : "", cpus[i]);
		if (j > i)
			put(buf, len, at, "-%d", cpus[j]);
		i = j + 1;
	}
}

int pmc_pmu_describe(const char *name, char *buf, size_t len)
{
	const struct pmc__pmu *p = name ? pmc__pmus_find(name) : NULL;
	size_t at = 0;

	if (!buf || !len)
		return -EINVAL;
	buf[0] = 0;
	if (!p)
		return -ENOENT;
	put(buf, len, &at, "%s PMU, type %u", pmc__pmu_kind_name(p->kind), p->type);
	if (p->cpus_from != PMC__PMU_CPUS_ONLINE && p->nr_cpus) {
		put(buf, len, &at, ", %s ",
		    p->cpus_from == PMC__PMU_CPUS_CPUMASK ? "counted on CPUs" : "on CPUs");
		put_cpus(buf, len, &at, p->cpus, p->nr_cpus);
	}
	return 0;
}

/* "imc" of uncore_imc_3, "cha" of uncore_cha_0, "amd_l3" of amd_l3: the unit's type. */
static size_t stem(const char *name, const char **start)
{
	size_t n;

	*start = !strncmp(name, "uncore_", 7) ? name + 7 : name;
	n = strlen(*start);
	while (n && (*start)[n - 1] >= '0' && (*start)[n - 1] <= '9')
		n--;
	if (n && n < strlen(*start) && (*start)[n - 1] == '_')
		n--;
	return n ? n : strlen(*start);
}

/* How many uncore PMUs have the stem of s->pmus[i], counting from the first of them. */
static int units_of(const struct pmc__pmus *s, int i, bool *first)
{
	const char *a, *b;
	size_t na = stem(s->pmus[i].name, &a), nb;
	int nr = 0;

	*first = true;
	for (int j = 0; j < s->nr; j++) {
		if (s->pmus[j].kind != PMC__PMU_UNCORE)
			continue;
		nb = stem(s->pmus[j].name, &b);
		if (na != nb || strncmp(a, b, na))
			continue;
		if (j < i)
			*first = false;
		nr++;
	}
	return nr;
}

/* The sockets the uncore PMUs' CPUs are on (their physical_package_id). */
static int nr_sockets(const struct pmc__pmus *s)
{
	int seen[64], nr = 0;

	for (int i = 0; i < s->nr; i++)
		for (int c = 0; s->pmus[i].kind == PMC__PMU_UNCORE && c < s->pmus[i].nr_cpus; c++) {
			struct pmc__topo t;
			int k = 0;

			pmc__topo_read(s->pmus[i].cpus[c], &t);
			while (k < nr && seen[k] != t.socket)
				k++;
			if (k == nr && nr < 64)
				seen[nr++] = t.socket;
		}
	return nr;
}

int pmc__pmus_summary(char *buf, size_t len)
{
	const struct pmc__pmus *s = pmc__pmus();
	size_t at = 0;
	int nr_uncore = 0, n;
	bool first;

	buf[0] = 0;
	put(buf, len, &at, "core: ");
	for (int i = 0, k = 0; i < s->nr; i++)
		if (s->pmus[i].kind == PMC__PMU_CORE)
			put(buf, len, &at, "%s%s", k++ ? ", " : "", s->pmus[i].name);
	if (!s->nr_core)
		put(buf, len, &at, "none");
	if (s->hybrid)
		put(buf, len, &at, " (hybrid: %d core types)", s->nr_core);
	for (int i = 0; i < s->nr; i++) {
		const char *a;
		int na;

		if (s->pmus[i].kind != PMC__PMU_UNCORE || !(n = units_of(s, i, &first)) || !first)
			continue;
		na = (int)stem(s->pmus[i].name, &a);
		put(buf, len, &at, "%s%d %.*s unit%s", nr_uncore ? ", " : "; uncore: ", n, na, a,
		    n == 1 ? "" : "s");
		nr_uncore++;
	}
	if (nr_uncore)
		put(buf, len, &at, " on %d socket%s", nr_sockets(s), nr_sockets(s) == 1 ? "" : "s");
	return s->nr;
}
