// SPDX-License-Identifier: MIT
/* pmc doctor: what can be measured on this machine, why not, and what to do about it. */
#include <string.h>
#include "common/cli.h"

/*
 * The machine's own checks (privileges, tracefs, seccomp); each backend describes itself in
 * pmc_caps() (its checks follow, in registry order), so the doctor names no backend.
 */
static size_t machine_checks(const struct pmc_caps *c, struct pmc_cap_check *f)
{
	size_t n = 0;

	f[n] = (struct pmc_cap_check){.name = "privileges", .ok = c->root || c->cap_perfmon};
	snprintf(f[n++].detail, sizeof(f->detail), "%s",
		 c->root	  ? "root"
		 : c->cap_perfmon ? "CAP_PERFMON"
				  : "unprivileged user");
	f[n] = (struct pmc_cap_check){.name = "tracefs", .ok = c->tracefs};
	snprintf(f[n].detail, sizeof(f->detail), "%s",
		 c->tracefs
			 ? c->tracefs_path
			 : "not mounted or not readable: tracepoints (syscalls:*) are unavailable");
	if (!c->tracefs)
		snprintf(f[n].todo, sizeof(f->todo), "mount -t tracefs nodev /sys/kernel/tracing");
	n++;
	f[n] = (struct pmc_cap_check){.name = "seccomp", .ok = !c->seccomp};
	snprintf(f[n++].detail, sizeof(f->detail), "%s",
		 c->seccomp ? "a seccomp filter is active and may block perf_event_open"
			    : "no filter");
	return n;
}

/* Every check to show: the machine's, then each backend's. */
static size_t collect(const struct pmc_caps *c, const struct pmc_cap_check **out,
		      struct pmc_cap_check *mine)
{
	size_t n = machine_checks(c, mine), k = 0;

	for (; k < n; k++)
		out[k] = &mine[k];
	for (size_t b = 0; b < c->nr_backends; b++)
		for (size_t i = 0; i < c->backends[b].nr_checks; i++)
			out[k++] = &c->backends[b].checks[i];
	return k;
}

/* What the options set. */
struct doctor_args {
	bool json;
};

static const struct cli_opt options[] = {
	{"json", 'j', NULL, CLI_V_NONE, NULL, "print the checks as JSON",
	 CLI_TRUE(struct doctor_args, json)},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text", CLI_SHOW_HELP},
	{0},
};

const struct cli_cmd cmd_doctor_doc = {
	.name = "doctor",
	.summary = "explain what can be measured on this machine and why not",
	.synopsis = "[options]",
	.about = "Probes what this machine lets pmc measure (privileges, perf_event_paranoid, "
		 "the PMU, tracefs, hardware breakpoints, the vpmu backend) and says, for what "
		 "cannot be measured, why and what to do.",
	.opts = options,
	.operands = CLI_V_NONE,
};

int cmd_doctor(int argc, char **argv)
{
	const struct pmc_cap_check *f[3 + PMC_CAPS_MAX_BACKENDS * PMC_CAPS_MAX_CHECKS];
	struct pmc_cap_check mine[3];
	const struct pmc_caps *c;
	struct doctor_args a = {0};
	size_t n;
	int rc = cli_parse(&cmd_doctor_doc, argc, argv, &a, NULL, NULL);

	if (rc)
		return rc < 0 ? 0 : rc;
	c = pmc_caps();
	n = collect(c, f, mine);
	if (a.json) {
		if (pmc_caps__write_json(c, f, n, stdout))
			return 1;
	} else {
		printf("pmc doctor: %s, Linux %s\n\n", c->cpu_model, c->kernel);
		for (size_t i = 0; i < n; i++) {
			printf("  [%s] %-21s %s\n", f[i]->ok ? "ok" : "no", f[i]->name,
			       f[i]->detail);
			if (f[i]->todo[0])
				printf("       %-21s -> %s\n", "", f[i]->todo);
		}
	}
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
