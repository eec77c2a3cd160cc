// SPDX-License-Identifier: MIT
/* pmc doctor: what can be measured on this machine, why not, and what to do about it. */
#include <getopt.h>
#include <string.h>
#include <jansson.h>
#include "cli.h"

struct finding {
	const char *what;
	bool ok;
	char detail[256];
	char todo[256];
};

static const char *paranoid_meaning(int level)
{
	switch (level) {
	case -1:
		return "no restrictions";
	case 0:
		return "CPU events for all users, no raw tracepoint data";
	case 1:
		return "user and kernel counting of own processes";
	case 2:
		return "user-level counting of own processes only";
	case 99:
		return "unknown (file unreadable)";
	default:
		return "counting restricted to privileged users";
	}
}

static void add(struct finding *f, size_t *n, const char *what, bool ok)
{
	memset(&f[*n], 0, sizeof(f[*n]));
	f[*n].what = what;
	f[*n].ok = ok;
	(*n)++;
}

/* The kernel's side: the system call, the PMU, permissions, and what holds counters. */
static void collect_kernel(const struct pmc_caps *c, struct finding *f, size_t *np)
{
	size_t n = *np;
	bool priv = c->root || c->cap_perfmon;

	add(f, &n, "perf_event_open", c->perf_event);
	snprintf(f[n - 1].detail, sizeof(f->detail), "%s",
		 c->perf_event ? "the system call works (software events count)" : c->hw_pmu_why);
	if (!c->perf_event)
		snprintf(f[n - 1].todo, sizeof(f->todo),
			 "check seccomp/container policy; use --backend=vpmu");
	add(f, &n, "hardware PMU", c->hw_pmu);
	snprintf(f[n - 1].detail, sizeof(f->detail), "%s", c->hw_pmu ? c->pmu_name : c->hw_pmu_why);
	if (!c->hw_pmu)
		snprintf(
			f[n - 1].todo, sizeof(f->todo),
			"hardware events (cycles, instructions, "
			"caches) cannot be counted here; run on bare metal, enable the vPMU of the "
			"hypervisor, or use --backend=vpmu");
	else
		snprintf(f[n - 1].detail, sizeof(f->detail), "%s: %d general and %d fixed counters",
			 c->pmu_name[0] ? c->pmu_name : "cpu", c->nr_gp_counters,
			 c->nr_fixed_counters);
	add(f, &n, "perf_event_paranoid", priv || c->paranoid <= 1);
	snprintf(f[n - 1].detail, sizeof(f->detail), "%d: %s%s", c->paranoid,
		 paranoid_meaning(c->paranoid), priv ? " (does not apply: privileged)" : "");
	if (!priv && c->paranoid > 1)
		snprintf(f[n - 1].todo, sizeof(f->todo),
			 "kernel-level and system-wide counting need "
			 "sysctl kernel.perf_event_paranoid=1 (or -1), or CAP_PERFMON");
	add(f, &n, "privileges", priv);
	snprintf(f[n - 1].detail, sizeof(f->detail), "%s",
		 c->root	  ? "root"
		 : c->cap_perfmon ? "CAP_PERFMON"
				  : "unprivileged user");
	*np = n;
}

/* What else measurement needs: tracefs, counters, breakpoints, filters, the vpmu tool. */
static void collect_rest(const struct pmc_caps *c, struct finding *f, size_t *np)
{
	size_t n = *np;

	add(f, &n, "tracefs", c->tracefs);
	snprintf(f[n - 1].detail, sizeof(f->detail), "%s",
		 c->tracefs
			 ? c->tracefs_path
			 : "not mounted or not readable: tracepoints (syscalls:*) are unavailable");
	if (!c->tracefs)
		snprintf(f[n - 1].todo, sizeof(f->todo),
			 "mount -t tracefs nodev /sys/kernel/tracing");
	add(f, &n, "NMI watchdog", c->nmi_watchdog != 1);
	snprintf(f[n - 1].detail, sizeof(f->detail), "%s",
		 c->nmi_watchdog == 1	? "holds one hardware counter"
		 : c->nmi_watchdog == 0 ? "off"
					: "unknown");
	if (c->nmi_watchdog == 1 && c->hw_pmu)
		snprintf(f[n - 1].todo, sizeof(f->todo),
			 "sysctl kernel.nmi_watchdog=0 frees a counter");
	add(f, &n, "rdpmc", c->rdpmc);
	snprintf(f[n - 1].detail, sizeof(f->detail), "%s",
		 c->rdpmc ? "user-space reads through the perf mmap page"
			  : "not allowed: every counter read is a read(2) system call");
	if (!c->rdpmc && c->hw_pmu)
		snprintf(f[n - 1].todo, sizeof(f->todo),
			 "echo 2 > /sys/bus/event_source/devices/cpu/rdpmc");
	add(f, &n, "hardware breakpoints", c->nr_breakpoints > 0 && c->breakpoints_fire);
	if (c->nr_breakpoints > 0 && !c->breakpoints_fire)
		snprintf(f[n - 1].detail, sizeof(f->detail),
			 "%d debug registers, but a watched "
			 "write was not counted: mem: events read 0 here (the hypervisor does not "
			 "deliver debug exceptions)",
			 c->nr_breakpoints);
	else
		snprintf(f[n - 1].detail, sizeof(f->detail), "%d debug registers for mem: events",
			 c->nr_breakpoints);
	add(f, &n, "seccomp", !c->seccomp);
	snprintf(f[n - 1].detail, sizeof(f->detail), "%s",
		 c->seccomp ? "a seccomp filter is active and may block perf_event_open"
			    : "no filter");
	add(f, &n, "vpmu", c->vpmu);
	snprintf(f[n - 1].detail, sizeof(f->detail), "%s",
		 c->vpmu	  ? c->vpmu_path
		 : c->vpmu_why[0] ? c->vpmu_why
				  : "the vpmu backend is not part of this build");
	if (!c->vpmu)
		snprintf(f[n - 1].todo, sizeof(f->todo),
			 "install valgrind (with its tool API) and "
			 "rebuild pmc");
	*np = n;
}

static size_t collect(const struct pmc_caps *c, struct finding *f)
{
	size_t n = 0;

	collect_kernel(c, f, &n);
	collect_rest(c, f, &n);
	return n;
}

static int print_json(const struct finding *f, size_t n, const struct pmc_caps *c)
{
	json_t *arr = json_array(), *root;
	int err;

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr,
				      json_pack("{s:s, s:b, s:s, s:s}", "check", f[i].what, "ok",
						f[i].ok, "detail", f[i].detail, "todo", f[i].todo));
	root = json_pack("{s:s, s:s, s:s, s:o}", "schema", "pmc-doctor/1", "cpu_model",
			 c->cpu_model, "kernel", c->kernel, "checks", arr);
	err = json_dumpf(root, stdout, JSON_INDENT(2));
	json_decref(root);
	putchar('\n');
	return err;
}

int cmd_doctor(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {0}};
	const struct pmc_caps *c;
	struct finding f[16];
	bool json = false;
	size_t n;
	int ch;

	while ((ch = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		if (ch == 'h') {
			printf("usage: pmc doctor [--json]\n\nExplains what can be measured on "
			       "this "
			       "machine and why not.\n");
			return 0;
		}
		if (ch != 'j')
			return 2;
		json = true;
	}
	c = pmc_caps();
	n = collect(c, f);
	if (json) {
		if (print_json(f, n, c))
			return 1;
	} else {
		printf("pmc doctor: %s, Linux %s\n\n", c->cpu_model, c->kernel);
		for (size_t i = 0; i < n; i++) {
			printf("  [%s] %-21s %s\n", f[i].ok ? "ok" : "no", f[i].what, f[i].detail);
			if (f[i].todo[0])
				printf("       %-21s -> %s\n", "", f[i].todo);
		}
	}
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
