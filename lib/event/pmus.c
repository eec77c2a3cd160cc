// SPDX-License-Identifier: MIT
/*
 * PMU discovery: every PMU under <sysfs root>/bus/event_source/devices with its type, kind,
 * CPUs and caps/, read once per sysfs root (docs/pmus.md, "Discovery").
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpulist.h"
#include "core/sysfile.h"
#include "event/pmus.h"

/* The sets read so far, one per sysfs root; kept for the life of the process. */
struct pmus_cache {
	struct pmus_cache *next;
	struct pmc__pmus set;
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pmus_cache *cache;
static struct pmc__pmus empty = {.root = (char *)""};

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* <root>/bus/event_source/devices/<pmu>/<leaf> into buf: its length or a negative errno. */
static int pmu_file(const char *pmu, const char *leaf, char *buf, size_t len)
{
	char path[PATH_MAX];
	int err = pmc__sysfs_path(path, sizeof(path), "bus/event_source/devices/%s/%s", pmu, leaf);

	return err ? err : pmc__sysfile_read(path, buf, len);
}

static int read_type(const char *pmu, uint32_t *type)
{
	char buf[32], *end;
	unsigned long v;

	if (pmu_file(pmu, "type", buf, sizeof(buf)) <= 0)
		return -ENOENT;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || *end || end == buf || v > UINT32_MAX)
		return -EINVAL;
	*type = (uint32_t)v;
	return 0;
}

/* The kind and the CPUs: `cpus` (core), else `cpumask` (uncore), else the online CPUs. */
static int read_cpus(struct pmc__pmu *p)
{
	char buf[4096];
	int n;

	p->kind = strcmp(p->name, "cpu") ? PMC__PMU_OTHER : PMC__PMU_CORE;
	p->cpus_from = PMC__PMU_CPUS_ONLINE;
	if (pmu_file(p->name, "cpus", buf, sizeof(buf)) > 0) {
		p->kind = PMC__PMU_CORE;
		p->cpus_from = PMC__PMU_CPUS_FILE;
	} else if (pmu_file(p->name, "cpumask", buf, sizeof(buf)) > 0) {
		if (p->kind != PMC__PMU_CORE)
			p->kind = PMC__PMU_UNCORE;
		p->cpus_from = PMC__PMU_CPUS_CPUMASK;
	}
	n = pmc__cpu_list(p->cpus_from == PMC__PMU_CPUS_ONLINE ? NULL : buf, &p->cpus, NULL, 0);
	if (n == -EINVAL && p->cpus_from != PMC__PMU_CPUS_ONLINE) {
		/* A malformed file says nothing: the online CPUs, as for a PMU without one. */
		p->cpus_from = PMC__PMU_CPUS_ONLINE;
		n = pmc__cpu_list(NULL, &p->cpus, NULL, 0);
	}
	if (n == -ENOMEM)
		return n;
	p->nr_cpus = n > 0 ? n : 0;
	return 0;
}

static int read_cap(struct pmc__pmu *p, const char *name)
{
	char leaf[NAME_MAX + 8], buf[4096];
	struct pmc__pmu_cap *c;

	snprintf(leaf, sizeof(leaf), "caps/%s", name);
	if (pmu_file(p->name, leaf, buf, sizeof(buf)) < 0)
		return 0;
	c = &p->caps[p->nr_caps];
	c->name = strdup(name);
	c->value = strdup(buf);
	if (!c->name || !c->value) {
		free(c->name);
		free(c->value);
		return -ENOMEM;
	}
	p->nr_caps++;
	return 0;
}

static int read_caps(struct pmc__pmu *p)
{
	char dir[PATH_MAX];
	struct dirent **v = NULL;
	int n, err = 0;

	if (pmc__sysfs_path(dir, sizeof(dir), "bus/event_source/devices/%s/caps", p->name))
		return 0;
	n = scandir(dir, &v, NULL, by_name);
	if (n > 0 && !(p->caps = calloc((size_t)n, sizeof(*p->caps))))
		err = -ENOMEM;
	for (int i = 0; i < n; i++) {
		if (!err && v[i]->d_name[0] != '.')
			err = read_cap(p, v[i]->d_name);
		free(v[i]);
	}
	free(v);
	return err;
}

static void pmu_clear(struct pmc__pmu *p)
{
	for (int i = 0; i < p->nr_caps; i++) {
		free(p->caps[i].name);
		free(p->caps[i].value);
	}
	free(p->caps);
	free(p->cpus);
	free(p->name);
}

/* One PMU folder: 1 when added, 0 when it is no PMU (no readable type), or -ENOMEM. */
static int read_pmu(struct pmc__pmus *s, const char *name)
{
	struct pmc__pmu *p = &s->pmus[s->nr];
	int err;

	memset(p, 0, sizeof(*p));
	if (name[0] == '.' || read_type(name, &p->type))
		return 0;
	p->name = strdup(name);
	err = p->name ? read_cpus(p) : -ENOMEM;
	if (!err)
		err = read_caps(p);
	if (err) {
		pmu_clear(p);
		return err;
	}
	s->nr++;
	s->nr_core += p->kind == PMC__PMU_CORE;
	return 1;
}

static void set_clear(struct pmc__pmus *s)
{
	for (int i = 0; i < s->nr; i++)
		pmu_clear(&s->pmus[i]);
	free(s->pmus);
	free(s->root);
}

static int set_read(struct pmc__pmus *s)
{
	char dir[PATH_MAX];
	struct dirent **v = NULL;
	int n, err = 0;

	if (!(s->root = strdup(pmc__sysfs_root())))
		return -ENOMEM;
	if (pmc__sysfs_path(dir, sizeof(dir), "bus/event_source/devices"))
		return 0;
	n = scandir(dir, &v, NULL, by_name); /* in name order, as perf walks PMUs */
	if (n > 0 && !(s->pmus = calloc((size_t)n, sizeof(*s->pmus))))
		err = -ENOMEM;
	for (int i = 0; i < n; i++) {
		if (!err && read_pmu(s, v[i]->d_name) < 0)
			err = -ENOMEM;
		free(v[i]);
	}
	free(v);
	s->hybrid = s->nr_core > 1;
	return err;
}

const struct pmc__pmus *pmc__pmus(void)
{
	const char *root = pmc__sysfs_root();
	struct pmus_cache *c;

	pthread_mutex_lock(&cache_lock);
	for (c = cache; c && strcmp(c->set.root, root); c = c->next)
		;
	if (!c && (c = calloc(1, sizeof(*c)))) {
		if (set_read(&c->set)) {
			set_clear(&c->set);
			free(c);
			c = NULL;
		} else {
			c->next = cache;
			cache = c;
		}
	}
	pthread_mutex_unlock(&cache_lock);
	return c ? &c->set : &empty;
}

const struct pmc__pmu *pmc__pmus_find(const char *name)
{
	const struct pmc__pmus *s = pmc__pmus();

	for (int i = 0; name && i < s->nr; i++)
		if (!strcmp(s->pmus[i].name, name))
			return &s->pmus[i];
	return NULL;
}

const struct pmc__pmu *pmc__pmus_by_type(uint32_t type)
{
	const struct pmc__pmus *s = pmc__pmus();

	for (int i = 0; i < s->nr; i++)
		if (s->pmus[i].type == type)
			return &s->pmus[i];
	return NULL;
}

const char *pmc__pmu_cap(const struct pmc__pmu *pmu, const char *name)
{
	for (int i = 0; pmu && i < pmu->nr_caps; i++)
		if (!strcmp(pmu->caps[i].name, name))
			return pmu->caps[i].value;
	return NULL;
}

const char *pmc__pmu_kind_name(enum pmc__pmu_kind kind)
{
	switch (kind) {
	case PMC__PMU_CORE:
		return "core";
	case PMC__PMU_UNCORE:
		return "uncore";
	default:
		return "other";
	}
}

int pmc__pmus_each_kind(enum pmc__pmu_kind kind, int (*fn)(const struct pmc__pmu *pmu, void *arg),
			void *arg)
{
	const struct pmc__pmus *s = pmc__pmus();
	int nr = 0;

	for (int i = 0; i < s->nr; i++) {
		int ret;

		if (s->pmus[i].kind != kind)
			continue;
		nr++;
		if (fn && (ret = fn(&s->pmus[i], arg)))
			return ret;
	}
	return nr;
}
