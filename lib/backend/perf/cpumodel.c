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
} rows[] = {
	/*
	 * perf 6.1 mapfile.csv: nehalemep (1A|1E|1F), nehalemex (2E), westmereep-sp (25|2C),
	 * westmereex (2F): no metric file, but pmc validate's events (data/validate/events.tsv)
	 */
	{"GenuineIntel", 6, 0x1a, 0x1a, "intel-nehalem"},
	{"GenuineIntel", 6, 0x1e, 0x1f, "intel-nehalem"},
	{"GenuineIntel", 6, 0x2e, 0x2e, "intel-nehalem"},
	{"GenuineIntel", 6, 0x25, 0x25, "intel-nehalem"},
	{"GenuineIntel", 6, 0x2c, 0x2c, "intel-nehalem"},
	{"GenuineIntel", 6, 0x2f, 0x2f, "intel-nehalem"},
	/*
	 * perf 6.1 mapfile.csv: sandybridge (2A), jaketown (2D), ivybridge (3A), ivytown (3E),
	 * haswell (3C|45|46), haswellx (3F), broadwell (3D|47), broadwellde (56), broadwellx (4F)
	 */
	{"GenuineIntel", 6, 0x2a, 0x2a, "intel-sandybridge"},
	{"GenuineIntel", 6, 0x2d, 0x2d, "intel-sandybridge"},
	{"GenuineIntel", 6, 0x3a, 0x3a, "intel-sandybridge"},
	{"GenuineIntel", 6, 0x3e, 0x3e, "intel-sandybridge"},
	{"GenuineIntel", 6, 0x3c, 0x3c, "intel-sandybridge"},
	{"GenuineIntel", 6, 0x45, 0x46, "intel-sandybridge"},
	{"GenuineIntel", 6, 0x3f, 0x3f, "intel-sandybridge"},
	{"GenuineIntel", 6, 0x3d, 0x3d, "intel-sandybridge"},
	{"GenuineIntel", 6, 0x47, 0x47, "intel-sandybridge"},
	{"GenuineIntel", 6, 0x56, 0x56, "intel-sandybridge"},
	{"GenuineIntel", 6, 0x4f, 0x4f, "intel-sandybridge"},
	/* perf 6.1 mapfile.csv: skylake (4E|5E|8E|9E|A5|A6), skylakex and cascadelakex (55) */
	{"GenuineIntel", 6, 0x4e, 0x4e, "intel-skylake"},
	{"GenuineIntel", 6, 0x5e, 0x5e, "intel-skylake"},
	{"GenuineIntel", 6, 0x8e, 0x8e, "intel-skylake"},
	{"GenuineIntel", 6, 0x9e, 0x9e, "intel-skylake"},
	{"GenuineIntel", 6, 0xa5, 0xa6, "intel-skylake"},
	{"GenuineIntel", 6, 0x55, 0x55, "intel-skylake"},
	/* icelake (7D|7E|A7), icelakex (6A|6C), tigerlake (8C|8D) */
	{"GenuineIntel", 6, 0x7d, 0x7e, "intel-icelake"},
	{"GenuineIntel", 6, 0xa7, 0xa7, "intel-icelake"},
	{"GenuineIntel", 6, 0x6a, 0x6a, "intel-icelake"},
	{"GenuineIntel", 6, 0x6c, 0x6c, "intel-icelake"},
	{"GenuineIntel", 6, 0x8c, 0x8d, "intel-icelake"},
	/* sapphirerapids (8F) */
	{"GenuineIntel", 6, 0x8f, 0x8f, "intel-sapphirerapids"},
	/*
	 * amdzen1: family 23 (0x17) models 0-2F; amdzen2: its other models; amdzen3: family 25
	 * (0x19) models 0-F and 20-5F. No metric file: pmc validate's events.
	 */
	{"AuthenticAMD", 0x17, 0x00, 0x2f, "amd-zen1"},
	{"AuthenticAMD", 0x17, 0x30, 0xff, "amd-zen2"},
	{"AuthenticAMD", 0x19, 0x00, 0x0f, "amd-zen3"},
	{"AuthenticAMD", 0x19, 0x20, 0x5f, "amd-zen3"},
	/* amdzen4: family 25 (0x19) less amdzen3's models 0-F and 20-5F (mapfile.csv after 6.1) */
	{"AuthenticAMD", 0x19, 0x10, 0x1f, "amd-zen4"},
	{"AuthenticAMD", 0x19, 0x60, 0xff, "amd-zen4"},
	/* amdzen5: family 26 (0x1a), every model */
	{"AuthenticAMD", 0x1a, 0x00, 0xff, "amd-zen5"},
};

const char *pmc__perf_cpu_model_of(const char *vendor, unsigned family, unsigned model)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(vendor, rows[i].vendor) && family == rows[i].family &&
		    model >= rows[i].first && model <= rows[i].last)
			return rows[i].model;
	return NULL;
}

/*
 * CPUID is an exit to the hypervisor in a virtual machine (about 6 us each on the VMs pmc is
 * tested on): the model is read once per process. pmc stat -M asks once per row of
 * index.tsv that names a model (6 on perf), which was 18 CPUIDs, a quarter of what -M added.
 */
static const char *cpu_model;

static void probe_cpu_model(void)
{
	/* The test hook: another machine's model, with PMC_SYSFS_ROOT its sysfs tree. */
	const char *env = secure_getenv("PMC_PERF_CPU_MODEL");

	if (env && *env) {
		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
			if (!strcmp(env, rows[i].model))
				cpu_model = rows[i].model;
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
	cpu_model = pmc__perf_cpu_model_of(vendor, family, model);
#endif
}

const char *pmc__perf_cpu_model(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, probe_cpu_model);
	return cpu_model;
}
