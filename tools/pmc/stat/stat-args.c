// SPDX-License-Identifier: MIT
/*
 * pmc stat's options of live counting and units, as perf stat spells them: -I, -A,
 * --per-core, --per-socket, --per-thread, -t, -G, --filter, --null, -d, -D, --control, --pre,
 * --post (their rows are in cmd-stat.c's table); and which combinations cannot be, said
 * before anything runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/cli.h"
#include "stat.h"

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "pmc stat: ");
	fprintf(stderr, fmt, arg ? cli_show(arg) : "");
	fprintf(stderr, "\nsee 'pmc stat --help'\n");
	return 2;
}

static int set_aggr(struct stat_opts *o, enum pmc_run_aggr a)
{
	if (o->aggr != PMC_RUN_AGGR_GLOBAL && o->aggr != a)
		return bad("%sonly one of -A, --per-core, --per-die, --per-socket and --per-thread",
			   NULL);
	o->aggr = a;
	return 0;
}

/* --filter applies to the -e before it (perf's rule); a second one is and-ed to the first. */
static int add_filter(struct stat_opts *o, const char *arg)
{
	size_t k = o->nr_events - 1;
	char **f, *both;

	if (!o->nr_events)
		return bad("--filter '%s' must follow the -e of the tracepoint it filters", arg);
	if (o->nr_filters < o->nr_events) {
		f = realloc(o->filters, o->nr_events * sizeof(*f));
		if (!f)
			return 1;
		memset(f + o->nr_filters, 0, (o->nr_events - o->nr_filters) * sizeof(*f));
		o->filters = f;
		o->nr_filters = o->nr_events;
	}
	f = o->filters;
	if (!f[k])
		both = strdup(arg);
	else if (asprintf(&both, "(%s) && (%s)", f[k], arg) < 0)
		both = NULL;
	if (!both)
		return 1;
	free(f[k]);
	f[k] = both;
	return 0;
}

int stat_args_apply(struct stat_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'A':
		return set_aggr(o, PMC_RUN_AGGR_CPU);
	case O_PER_CORE:
		return set_aggr(o, PMC_RUN_AGGR_CORE);
	case O_PER_SOCKET:
		return set_aggr(o, PMC_RUN_AGGR_SOCKET);
	case O_PER_DIE:
		return set_aggr(o, PMC_RUN_AGGR_DIE);
	case O_PER_THREAD:
		o->per_thread = true;
		return set_aggr(o, PMC_RUN_AGGR_THREAD);
	case 'd':
		o->detailed += o->detailed < 3;
		return 0;
	case O_FILTER:
		return add_filter(o, arg);
	default:
		return 2;
	}
}

void stat_args_free(struct stat_opts *o)
{
	for (size_t i = 0; i < o->nr_filters; i++)
		free(o->filters[i]);
	free(o->filters);
	o->filters = NULL;
	free(o->output_owned);
	o->output_owned = NULL;
}

/* Values per CPU, core or socket, or of a cgroup: perf's system-wide modes. */
static int check_cpu_modes(const struct stat_opts *o)
{
	bool cpus = o->system_wide || o->cpus;

	if (o->aggr != PMC_RUN_AGGR_GLOBAL && o->aggr != PMC_RUN_AGGR_THREAD && !cpus)
		return bad("%s-A, --per-core, --per-die and --per-socket divide what CPUs count: "
			   "add -a (or -C "
			   "CPUS), as perf asks",
			   NULL);
	if (o->cgroup && !cpus)
		return bad("-G counts the tasks of a cgroup on CPUs: add -a (or -C CPUS), as perf "
			   "asks",
			   NULL);
	if (o->cgroup && o->per_thread)
		return bad("%s-G and --per-thread: a cgroup is counted per CPU, not per thread",
			   NULL);
	return 0;
}

static int check_threads(const struct stat_opts *o)
{
	if (o->tids && (o->pid || o->system_wide || o->cpus))
		return bad("%s-t cannot be combined with -p, -a or -C", NULL);
	if (o->per_thread && o->cpus)
		return bad("%s--per-thread counts each thread on every CPU: use -a, not -C", NULL);
	if (o->per_thread && *o->argv && !o->pid && !o->tids && !o->system_wide && o->repeat > 1)
		return bad("%s--per-thread with -r: each run of the command has threads of its "
			   "own, whose values cannot be averaged; use -r 1",
			   NULL);
	return 0;
}

/* fifo:CTL[,ACK] or fd:CTL[,ACK]. */
static bool control_ok(const char *s)
{
	if (!strncmp(s, "fifo:", 5))
		return s[5] && s[5] != ',';
	if (strncmp(s, "fd:", 3))
		return false;
	s += 3;
	if (*s < '0' || *s > '9')
		return false;
	s += strspn(s, "0123456789");
	if (*s == ',' && s[1] >= '0' && s[1] <= '9')
		s += 1 + strspn(s + 1, "0123456789");
	return !*s;
}

int stat_args_check(struct stat_opts *o)
{
	const char *env = secure_getenv("PMC_PER_THREAD");
	int rc = check_cpu_modes(o);

	if (!rc)
		rc = check_threads(o);
	if (rc)
		return rc;
	if (o->null_run && (!o->default_events || o->detailed))
		return bad("%s--null counts no events: leave out -e and -d", NULL);
	if (o->control && !control_ok(o->control))
		return bad("--control takes fifo:CTL[,ACK] or fd:CTL[,ACK], not '%s'", o->control);
	if (o->delay_ms < 0 && !o->control)
		fprintf(stderr, "pmc stat: note: -D -1 without --control: nothing enables the "
				"counters, every count will be 0\n");
	if (env && *env && strcmp(env, "0"))
		o->region_per_thread = true;
	return 0;
}

void stat_fill_target(const struct stat_opts *o, struct pmc_target *t)
{
	*t = (struct pmc_target){.sz = sizeof(*t),
				 .kind = PMC_TARGET_COMMAND,
				 .no_inherit = o->no_inherit,
				 .argv = o->argv,
				 .per_thread = o->per_thread,
				 .cgroup = o->cgroup};
	if (o->pid) {
		t->kind = PMC_TARGET_PID;
		t->pid = o->pid;
	} else if (o->tids) {
		t->kind = PMC_TARGET_TID;
		t->tids = o->tids;
	} else if (o->system_wide || o->cpus) {
		t->kind = PMC_TARGET_CPUS;
		t->cpus = o->cpus;
	}
}
