// SPDX-License-Identifier: MIT
/*
 * The '#' literals of metric expressions (docs/metrics.md, "Literals"): perf 6.1's, read from
 * the machine as perf reads them (the CPU topology of sysfs, under the sysfs root), and
 * pmc's #slots and #num_cpus_online. Also the tool events a runner supplies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include "core/backend.h"
#include "core/cpulist.h"
#include "core/suggest.h"
#include "core/sysfile.h"
#include "metric/metric.h"
#include <jansson.h>

static const struct literal {
	const char *name;
	size_t off;    /* of its value in struct pmc__literals */
	bool topology; /* read from sysfs: no value when the topology cannot be read */
} literals[] = {
	{"#num_cpus", offsetof(struct pmc__literals, num_cpus), true},
	{"#num_cpus_online", offsetof(struct pmc__literals, num_cpus_online), true},
	{"#num_cores", offsetof(struct pmc__literals, num_cores), true},
	{"#num_dies", offsetof(struct pmc__literals, num_dies), true},
	{"#num_packages", offsetof(struct pmc__literals, num_packages), true},
	{"#smt_on", offsetof(struct pmc__literals, smt_on), true},
	{"#core_wide", offsetof(struct pmc__literals, core_wide), true},
	{"#system_tsc_freq", offsetof(struct pmc__literals, tsc_freq), false},
	{"#slots", offsetof(struct pmc__literals, slots), false},
};
#define NR_LITERALS (sizeof(literals) / sizeof(literals[0]))

/* perf compares "#smt_on" and "#system_tsc_freq" without regard to case; pmc does so for all. */
static const struct literal *find(const char *name)
{
	for (size_t i = 0; i < NR_LITERALS; i++)
		if (!strcasecmp(name, literals[i].name))
			return &literals[i];
	return NULL;
}

const char *pmc__literal_name(const char *name)
{
	const struct literal *lit = find(name);

	return lit ? lit->name : NULL;
}

void pmc__literal_suggest(const char *name, struct pmc_parse_error *err)
{
	int dist[3] = {0};

	err->nr_suggest = 0;
	for (size_t i = 0; i < NR_LITERALS; i++)
		pmc__suggest_add(err, dist, name, literals[i].name);
}

bool pmc__metric_tool_event(const char *event)
{
	return !strcmp(event, "duration_time") || !strcmp(event, "user_time") ||
	       !strcmp(event, "system_time");
}

static int keep(struct pmc__strset *s, const char *str)
{
	return pmc__strset_add(s, str) < 0 ? -ENOMEM : 0;
}

/* Whether a core lists more than one CPU (perf's cpu_topology__smt_on). */
static bool shared_cores(const struct pmc__strset *cores)
{
	for (size_t i = 0; i < cores->nr; i++)
		if (strchr(cores->v[i], ',') || strchr(cores->v[i], '-'))
			return true;
	return false;
}

/* Reads cpuN's topology file name, or the older name old when name is not there. */
static int topo_read(int cpu, const char *name, const char *old, char *buf, size_t len)
{
	char rel[128];
	int err;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/%s", cpu, name);
	err = pmc__sysfs_read(rel, buf, len);
	if (err == -ENOENT && old) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/%s", cpu, old);
		err = pmc__sysfs_read(rel, buf, len);
	}
	return err < 0 ? err : 0;
}

/* Whether the CPUs of every core are all in the user's list or none of them (perf's core_wide). */
static bool cores_whole(const struct pmc__strset *cores, const char *cpu_list)
{
	int *want = NULL, nr_want = pmc__cpu_list(cpu_list, &want, NULL, 0);
	bool whole = nr_want >= 0;

	for (size_t i = 0; whole && i < cores->nr; i++) {
		int *cpus = NULL, nr = pmc__cpu_list(cores->v[i], &cpus, NULL, 0), in = 0;

		for (int j = 0; j < nr; j++)
			for (int k = 0; k < nr_want; k++)
				in += cpus[j] == want[k];
		whole = nr >= 0 && (in == 0 || in == nr);
		free(cpus);
	}
	free(want);
	return whole;
}

/* The topology literals, from the online CPUs' topology files and the present CPUs. */
static int read_topology(struct pmc__literals *l, const struct pmc_metrics_opts *o)
{
	struct pmc__strset pkg = {0}, die = {0}, core = {0};
	char buf[4096];
	int *cpus = NULL, nr, err = 0, max = -1;

	if ((err = pmc__sysfs_read("devices/system/cpu/present", buf, sizeof(buf))) < 0 ||
	    (nr = pmc__cpu_list(buf, &cpus, NULL, 0)) < 0)
		return err < 0 ? err : -EINVAL;
	for (int i = 0; i < nr; i++)
		max = cpus[i] > max ? cpus[i] : max;
	free(cpus);
	err = 0;
	l->num_cpus = max + 1;
	nr = pmc__cpu_list(NULL, &cpus, NULL, 0); /* the online ones */
	if (nr < 0)
		return nr;
	l->num_cpus_online = nr;
	for (int i = 0; i < nr && !err; i++) {
		err = topo_read(cpus[i], "package_cpus_list", "core_siblings_list", buf,
				sizeof(buf));
		err = err ?: keep(&pkg, buf);
		/* Machines without dies have no die_cpus_list: #num_dies is then 0, as in perf. */
		if (!err && !topo_read(cpus[i], "die_cpus_list", NULL, buf, sizeof(buf)))
			err = keep(&die, buf);
		err = err
			      ?: topo_read(cpus[i], "core_cpus_list", "thread_siblings_list", buf,
					   sizeof(buf));
		err = err ?: keep(&core, buf);
	}
	free(cpus);
	l->num_packages = pkg.nr;
	l->num_dies = die.nr;
	l->num_cores = core.nr;
	/* The kernel's own answer first, as perf's smt_on() takes it. */
	if (pmc__sysfs_read("devices/system/cpu/smt/active", buf, sizeof(buf)) >= 0)
		l->smt_on = atoi(buf) == 1;
	else
		l->smt_on = shared_cores(&core);
	l->core_wide =
		o->system_wide && (!l->smt_on || !o->cpu_list || cores_whole(&core, o->cpu_list));
	pmc__strset_free(&pkg);
	pmc__strset_free(&die);
	pmc__strset_free(&core);
	return err;
}

/* "... @ 2.10GHz" of /proc/cpuinfo's model name, in Hz; 0 when it says none. */
static double cpuinfo_tsc_freq(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512], *at;
	double ghz = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10))
			continue;
		at = strrchr(line, '@');
		if (at && sscanf(at + 1, "%lfGHz", &ghz) != 1)
			ghz = 0;
		break;
	}
	if (f)
		fclose(f);
	return ghz > 0 && ghz < 100 ? ghz * 1e9 : 0;
}

/*
 * #system_tsc_freq as perf computes it: Intel's CPUID leaf 0x15 (crystal clock times the
 * TSC ratio), else the frequency in the model name; 0 on other vendors and architectures.
 */
static double tsc_freq(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, max = __get_cpuid_max(0, NULL);
	char vendor[13] = {0};

	if (max == 0)
		return 0;
	__cpuid(0, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	if (strcmp(vendor, "GenuineIntel"))
		return 0;
	if (max < 0x15)
		return cpuinfo_tsc_freq();
	__cpuid_count(0x15, 0, a, b, c, d);
	if (!a || !b || !c)
		return cpuinfo_tsc_freq();
	return (double)c * (double)b / (double)a;
#else
	return 0;
#endif
}

static void read_literals(struct pmc__literals *l, const struct pmc_metrics_opts *o,
			  const struct pmc_backend_ops *backend)
{
	l->read = true;
	l->err = read_topology(l, o);
	l->tsc_freq = tsc_freq();
	l->slots = o->slots > 0 ? o->slots : pmc__backend_issue_width(backend);
}

json_t *pmc__literals_json(const char *backend, bool system_wide, const char *cpu_list)
{
	struct pmc_metrics_opts o = {
		.sz = sizeof(o), .system_wide = system_wide, .cpu_list = cpu_list};
	const struct pmc_backend_ops *b = pmc__backend_find(backend ? backend : "perf");
	struct pmc__literals l = {0};
	json_t *j = json_object();

	if (!j || !b)
		return j;
	read_literals(&l, &o, b);
	for (size_t i = 0; i < NR_LITERALS; i++) {
		double v;

		if (literals[i].topology && l.err)
			continue;
		memcpy(&v, (const char *)&l + literals[i].off, sizeof(v));
		json_object_set_new(j, literals[i].name, json_real(v));
	}
	return j;
}

int pmc__literal_value(struct pmc_metrics *m, const char *name, double *out)
{
	const struct literal *lit = find(name);

	if (!lit)
		return -ENOENT;
	if (!m->lit.read)
		read_literals(&m->lit, &m->opts, m->backend);
	if (lit->topology && m->lit.err)
		return m->lit.err;
	memcpy(out, (const char *)&m->lit + lit->off, sizeof(*out));
	return 0;
}
