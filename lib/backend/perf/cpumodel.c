// SPDX-License-Identifier: MIT
/*
 * The CPU model the perf backend counts on, as data/metrics/index.tsv's model column names it
 * (docs/metrics.md, "Real CPUs"): CPUID's vendor, family and model, looked up in the rows of
 * perf's tools/perf/pmu-events/arch/x86/mapfile.csv that pmc ships a metric file for.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include "backend/perf/perf.h"

static const struct cpu_row {
	const char *vendor;
	unsigned family, first, last; /* models first to last */
	const char *model;
	enum perf_rsp rsp; /* the offcore response registers (offcore.c), from intel_pmu_init() */
} rows[] = {
	/*
	 * perf 6.1 mapfile.csv: nehalemep (1A|1E|1F), nehalemex (2E), westmereep-sp (25|2C),
	 * westmereex (2F): no metric file, but pmc validate's events (data/validate/events.tsv)
	 */
	{"GenuineIntel", 6, 0x1a, 0x1a, "intel-nehalem", PERF_RSP_NHM},
	{"GenuineIntel", 6, 0x1e, 0x1e, "intel-nehalem", PERF_RSP_NHM},
	/* NEHALEM_G: no case of its own in intel_pmu_init(), the architectural PMU only */
	{"GenuineIntel", 6, 0x1f, 0x1f, "intel-nehalem", PERF_RSP_NONE},
	{"GenuineIntel", 6, 0x2e, 0x2e, "intel-nehalem", PERF_RSP_NHM},
	{"GenuineIntel", 6, 0x25, 0x25, "intel-nehalem", PERF_RSP_WSM},
	{"GenuineIntel", 6, 0x2c, 0x2c, "intel-nehalem", PERF_RSP_WSM},
	{"GenuineIntel", 6, 0x2f, 0x2f, "intel-nehalem", PERF_RSP_WSM},
	/*
	 * perf 6.1 mapfile.csv: sandybridge (2A), jaketown (2D), ivybridge (3A), ivytown (3E),
	 * haswell (3C|45|46), haswellx (3F), broadwell (3D|47), broadwellde (56), broadwellx (4F)
	 */
	{"GenuineIntel", 6, 0x2a, 0x2a, "intel-sandybridge", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x2d, 0x2d, "intel-sandybridge", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x3a, 0x3a, "intel-sandybridge", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x3e, 0x3e, "intel-sandybridge", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x3c, 0x3c, "intel-sandybridge", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x45, 0x46, "intel-sandybridge", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x3f, 0x3f, "intel-sandybridge", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x3d, 0x3d, "intel-sandybridge", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x47, 0x47, "intel-sandybridge", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x56, 0x56, "intel-sandybridge", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x4f, 0x4f, "intel-sandybridge", PERF_RSP_SNB},
	/* perf 6.1 mapfile.csv: skylake (4E|5E|8E|9E|A5|A6), skylakex and cascadelakex (55) */
	{"GenuineIntel", 6, 0x4e, 0x4e, "intel-skylake", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x5e, 0x5e, "intel-skylake", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x8e, 0x8e, "intel-skylake", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x9e, 0x9e, "intel-skylake", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0xa5, 0xa6, "intel-skylake", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x55, 0x55, "intel-skylake", PERF_RSP_SNB},
	/* icelake (7D|7E|A7), icelakex (6A|6C), tigerlake (8C|8D) */
	{"GenuineIntel", 6, 0x7d, 0x7e, "intel-icelake", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0xa7, 0xa7, "intel-icelake", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x6a, 0x6a, "intel-icelake", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x6c, 0x6c, "intel-icelake", PERF_RSP_SNB},
	{"GenuineIntel", 6, 0x8c, 0x8d, "intel-icelake", PERF_RSP_SNB},
	/* sapphirerapids (8F) */
	{"GenuineIntel", 6, 0x8f, 0x8f, "intel-sapphirerapids", PERF_RSP_SPR},
	/*
	 * amdzen1: family 23 (0x17) models 0-2F; amdzen2: its other models; amdzen3: family 25
	 * (0x19) models 0-F and 20-5F. No metric file: pmc validate's events.
	 */
	{"AuthenticAMD", 0x17, 0x00, 0x2f, "amd-zen1", PERF_RSP_NONE},
	{"AuthenticAMD", 0x17, 0x30, 0xff, "amd-zen2", PERF_RSP_NONE},
	{"AuthenticAMD", 0x19, 0x00, 0x0f, "amd-zen3", PERF_RSP_NONE},
	{"AuthenticAMD", 0x19, 0x20, 0x5f, "amd-zen3", PERF_RSP_NONE},
	/* amdzen4: family 25 (0x19) less amdzen3's models 0-F and 20-5F (mapfile.csv after 6.1) */
	{"AuthenticAMD", 0x19, 0x10, 0x1f, "amd-zen4", PERF_RSP_NONE},
	{"AuthenticAMD", 0x19, 0x60, 0xff, "amd-zen4", PERF_RSP_NONE},
	/* amdzen5: family 26 (0x1a), every model */
	{"AuthenticAMD", 0x1a, 0x00, 0xff, "amd-zen5", PERF_RSP_NONE},
};

static const struct cpu_row *row_of(const char *vendor, unsigned family, unsigned model)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(vendor, rows[i].vendor) && family == rows[i].family &&
		    model >= rows[i].first && model <= rows[i].last)
			return &rows[i];
	return NULL;
}

const char *pmc__perf_cpu_model_of(const char *vendor, unsigned family, unsigned model)
{
	const struct cpu_row *row = row_of(vendor, family, model);

	return row ? row->model : NULL;
}

/*
 * The libpfm4 PMU of each model's first row, which the test hook PMC_PERF_CPU_MODEL forces
 * (libpfm4 otherwise knows the CPU by CPUID, not by the sysfs tree: pfm-api.c). libpfm4 4.13
 * has no Zen 5 PMU.
 */
static const struct {
	const char *model, *pfm;
} pfm_pmus[] = {
	{"intel-nehalem", "nhm"},	   {"intel-sandybridge", "snb"},
	{"intel-skylake", "skl"},	   {"intel-icelake", "icl"},
	{"intel-sapphirerapids", "spr"},   {"amd-zen1", "amd64_fam17h_zen1"},
	{"amd-zen2", "amd64_fam17h_zen2"}, {"amd-zen3", "amd64_fam19h_zen3"},
	{"amd-zen4", "amd64_fam19h_zen4"},
};

/*
 * CPUID is an exit to the hypervisor in a virtual machine (about 6 us each on the VMs pmc is
 * tested on): the model is read once per process. pmc stat -M asks once per row of
 * index.tsv that names a model (6 on perf), which was 18 CPUIDs, a quarter of what -M added.
 */
static const struct cpu_row *cpu_row;
static const char *forced_pfm;

static void probe_cpu_model(void)
{
	/* The test hook: another machine's model (its first row), with PMC_SYSFS_ROOT its sysfs
	 * tree. */
	const char *env = secure_getenv("PMC_PERF_CPU_MODEL");

	if (env && *env) {
		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]) && !cpu_row; i++)
			if (!strcmp(env, rows[i].model))
				cpu_row = &rows[i];
		for (size_t i = 0; i < sizeof(pfm_pmus) / sizeof(pfm_pmus[0]); i++)
			if (!strcmp(env, pfm_pmus[i].model))
				forced_pfm = pfm_pmus[i].pfm;
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d, family, model;
	char vendor[13] = {0};

	/* leaf 0: the highest leaf (a) and the vendor */
	if (!__get_cpuid(0, &a, &b, &c, &d) || a < 1)
		return;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	__cpuid(1, a, b, c, d);
	/* The SDM's and the APM's rule: the extended fields count from family 0xf on (Intel's 6).
	 */
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 0xf || family == 6)
		model |= ((a >> 16) & 0xf) << 4;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	cpu_row = row_of(vendor, family, model);
#endif
}

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

const char *pmc__perf_cpu_model(void)
{
	pthread_once(&probe_once, probe_cpu_model);
	return cpu_row ? cpu_row->model : NULL;
}

enum perf_rsp pmc__perf_cpu_rsp(void)
{
	pthread_once(&probe_once, probe_cpu_model);
	return cpu_row ? cpu_row->rsp : PERF_RSP_NONE;
}

const char *pmc__perf_cpu_forced_pfm(void)
{
	pthread_once(&probe_once, probe_cpu_model);
	return forced_pfm;
}
