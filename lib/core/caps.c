// SPDX-License-Identifier: MIT
/* pmc_caps(): the machine's measurement capabilities, probed once (libbpf features.c). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <pmc/caps.h>
#include "core/backend.h"
#include "core/sysfile.h"
#include "core/tracefs.h"

static struct pmc_caps caps;
static pthread_once_t caps_once = PTHREAD_ONCE_INIT;

static void probe_cpu_model(void)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "re");

	snprintf(caps.cpu_model, sizeof(caps.cpu_model), "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = 0;
		snprintf(caps.cpu_model, sizeof(caps.cpu_model), "%s", colon);
		break;
	}
	fclose(f);
}

/* CAP_PERFMON is 38; CAP_SYS_ADMIN grants the same on kernels older than 5.8. */
static void probe_capabilities(void)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2] = {0};

	caps.root = geteuid() == 0;
	if (syscall(SYS_capget, &hdr, data))
		return;
	caps.cap_perfmon = (data[1].effective & (1u << (38 - 32))) ||
			   (data[0].effective & (1u << CAP_SYS_ADMIN));
}

static void probe_tracefs(void)
{
	const char *root = pmc__tracefs_root();

	caps.tracefs = root != NULL;
	if (root)
		snprintf(caps.tracefs_path, sizeof(caps.tracefs_path), "%s", root);
}

static void probe_all(void)
{
	struct utsname u;
	long v;

	probe_cpu_model();
	if (!uname(&u))
		snprintf(caps.kernel, sizeof(caps.kernel), "%s", u.release);
	caps.paranoid =
		pmc__sysfile_read_long("/proc/sys/kernel/perf_event_paranoid", &v) ? 99 : (int)v;
	caps.nmi_watchdog =
		pmc__sysfile_read_long("/proc/sys/kernel/nmi_watchdog", &v) ? -1 : (int)v;
	caps.seccomp = pmc__sysfile_status_field("Seccomp") > 0;
	probe_capabilities();
	probe_tracefs();
	for (size_t i = 0; pmc__backend_at(i) && i < PMC_CAPS_MAX_BACKENDS; i++)
		pmc__backend_probe_caps(pmc__backend_at(i), &caps,
					&caps.backends[caps.nr_backends++]);
}

const struct pmc_backend_caps *pmc_caps__backend(const struct pmc_caps *c, const char *name)
{
	for (size_t i = 0; c && name && i < c->nr_backends; i++)
		if (!strcmp(c->backends[i].name, name))
			return &c->backends[i];
	return NULL;
}

const char *pmc_caps__cpu_model(const char *backend)
{
	const struct pmc_backend_ops *b = backend ? pmc__backend_find(backend) : NULL;

	return b ? pmc__backend_cpu_model(b) : NULL;
}

const struct pmc_cap_check *pmc_caps__check(const struct pmc_caps *c, const char *backend,
					    const char *key)
{
	const struct pmc_backend_caps *b = pmc_caps__backend(c, backend);

	for (size_t i = 0; b && key && i < b->nr_checks; i++)
		if (!strcmp(b->checks[i].key, key))
			return &b->checks[i];
	return NULL;
}

const struct pmc_caps *pmc_caps(void)
{
	pthread_once(&caps_once, probe_all);
	return &caps;
}
