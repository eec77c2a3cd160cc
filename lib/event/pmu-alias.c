// SPDX-License-Identifier: MIT
/*
 * The events a sysfs PMU names in its events/ folder ("aliases": msr's tsc, cpu's
 * mem-loads): which PMUs have one (by any case, as perf matches them), the terms an alias
 * file holds ("event=0xcd,umask=0x1,ldlat=3"), and the walk of them for pmc list.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pmc/error.h>
#include "core/sysfile.h"
#include "event/pmu.h"

/* Files beside an alias (ALIAS.scale, .unit, .per-pkg, .snapshot) describe it: not aliases. */
static bool alias_file(const char *name)
{
	return name[0] != '.' && !strchr(name, '.');
}

int pmc__pmu_alias_find(const char *pmu, const char *name, int len, char *found, size_t size)
{
	char dir[PATH_MAX];
	struct dirent *de;
	int ret = -ENOENT;
	DIR *d;

	if (pmc__sysfs_path(dir, sizeof(dir), "bus/event_source/devices/%s/events", pmu) ||
	    !(d = opendir(dir)))
		return -ENOENT;
	while (ret && (de = readdir(d)))
		if (alias_file(de->d_name) && (int)strlen(de->d_name) == len &&
		    !strncasecmp(de->d_name, name, len) && strlen(de->d_name) < size) {
			strcpy(found, de->d_name);
			ret = 0;
		}
	closedir(d);
	return ret;
}

int pmc__pmu_alias_each_pmu(const char *name, int len, pmc__pmu_alias_fn fn, void *arg)
{
	char dir[PATH_MAX], found[NAME_MAX + 1];
	struct dirent *de;
	int ret = 0, nr = 0;
	DIR *d;

	if (pmc__sysfs_path(dir, sizeof(dir), "bus/event_source/devices") || !(d = opendir(dir)))
		return 0;
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    pmc__pmu_alias_find(de->d_name, name, len, found, sizeof(found)))
			continue;
		nr++;
		ret = fn ? fn(de->d_name, found, arg) : 0;
	}
	closedir(d);
	return ret < 0 ? ret : nr;
}

bool pmc__pmu_alias_exists(const char *name, int len)
{
	return pmc__pmu_alias_each_pmu(name, len, NULL, NULL) > 0;
}

/* One "name[=number]" of an alias file into t; -PMC_E_FORMAT when it is not that. */
static int alias_term(const char *s, size_t n, struct pmc_term *t)
{
	const char *eq = memchr(s, '=', n);
	char *end;

	memset(t, 0, sizeof(*t));
	t->name = s;
	t->name_len = eq ? (int)(eq - s) : (int)n;
	if (!t->name_len)
		return -PMC_E_FORMAT;
	if (!eq)
		return 0;
	t->vtype = PMC_TV_NUM;
	errno = 0;
	t->num = strtoull(eq + 1, &end, 0); /* the kernel writes 0x-hex or decimal */
	return errno || end != s + n || eq + 1 == end || eq[1] == '-' ? -PMC_E_FORMAT : 0;
}

int pmc__pmu_alias_terms(const char *pmu, const char *alias, char *buf, size_t size,
			 struct pmc_term *terms, int max)
{
	char path[PATH_MAX];
	int n, nr = 0;
	char *s;

	if (pmc__sysfs_path(path, sizeof(path), "bus/event_source/devices/%s/events/%s", pmu,
			    alias))
		return -ENAMETOOLONG;
	n = pmc__sysfile_read(path, buf, size);
	if (n < 0)
		return n;
	for (s = buf; *s && nr < max; nr++) {
		size_t len = strcspn(s, ",");
		int ret = alias_term(s, len, &terms[nr]);

		if (ret)
			return ret;
		s += len + (s[len] == ',');
	}
	return *s ? -PMC_E_FORMAT : nr;
}

int pmc__pmu_alias_describe(const char *pmu, const char *alias, double *scale, char **unit)
{
	char path[PATH_MAX], val[64];

	if (pmc__sysfs_path(path, sizeof(path), "bus/event_source/devices/%s/events/%s.scale", pmu,
			    alias) == 0 &&
	    pmc__sysfile_read(path, val, sizeof(val)) > 0)
		*scale = strtod(val, NULL);
	if (pmc__sysfs_path(path, sizeof(path), "bus/event_source/devices/%s/events/%s.unit", pmu,
			    alias) == 0 &&
	    pmc__sysfile_read(path, val, sizeof(val)) > 0) {
		free(*unit);
		*unit = strdup(val);
		if (!*unit)
			return -ENOMEM;
	}
	return 0;
}

static int for_each_alias(const char *pmu, pmc_event_fn fn, void *arg)
{
	char dir[PATH_MAX], path[PATH_MAX + 256], name[600], desc[256];
	struct pmc_event_info info = {.name = name, .kind = PMC_EV_PMU, .pmu = pmu};
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (pmc__sysfs_path(dir, sizeof(dir), "bus/event_source/devices/%s/events", pmu) ||
	    !(d = opendir(dir)))
		return 0;
	while (!ret && (de = readdir(d))) {
		if (!alias_file(de->d_name))
			continue;
		snprintf(name, sizeof(name), "%s/%s/", pmu, de->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		info.desc = pmc__sysfile_read(path, desc, sizeof(desc)) > 0 ? desc : NULL;
		ret = fn(&info, arg);
	}
	closedir(d);
	return ret;
}

int pmc__pmu_for_each(pmc_event_fn fn, void *arg)
{
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (pmc__sysfs_path(dir, sizeof(dir), "bus/event_source/devices"))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (de = readdir(d)))
		if (de->d_name[0] != '.')
			ret = for_each_alias(de->d_name, fn, arg);
	closedir(d);
	return ret;
}
