// SPDX-License-Identifier: MIT
/*
 * pmc stat on the library's runner (include/pmc/run.h): the event list built from -e, the
 * signals pmc stat owns (SIGINT, SIGTERM, SIGHUP: passed on to the command through
 * pmc_run__stop()), progress on stderr, and the exit status.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "common/cli.h"
#include "stat.h"

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles",     "instructions",	  "branches",	    "branch-misses",
};

/* perf stat -d, -dd, -ddd: perf's detailed events, each level adding to the one before. */
static const char *const detailed_events[3][6] = {
	{"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses"},
	{"L1-icache-loads", "L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses", "iTLB-loads",
	 "iTLB-load-misses"},
	{"L1-dcache-prefetches", "L1-dcache-prefetch-misses"},
};

static struct pmc_run *volatile running; /* the runner the signal handler stops */

static void on_signal(int sig)
{
	if (running)
		pmc_run__stop(running, sig);
}

static int parse_one(struct stat_run *run, const char *str, bool user_named)
{
	struct pmc_parse_error perr;
	size_t before = pmc_evlist__nr(run->evlist);
	int err = pmc_evlist__parse(run->evlist, str, &perr);
	bool *named;

	if (err == -PMC_E_PARSE || err == -PMC_E_UNKNOWN_EVENT) {
		cli_print_parse_error("pmc stat", str, &perr);
		return 2;
	}
	if (err) {
		/* The parser's text says more (what to do, for tracefs) than the code's name. */
		fprintf(stderr, "pmc stat: cannot parse '%s': %s\n", cli_show(str),
			perr.msg[0] ? cli_show(perr.msg) : pmc_strerror(err));
		return 1;
	}
	/* One string may expand to any number of events (groups, globs): size after parsing. */
	named = realloc(run->user_named, (pmc_evlist__nr(run->evlist) + 1) * sizeof(*named));
	if (!named)
		return 1;
	run->user_named = named;
	for (size_t i = before; i < pmc_evlist__nr(run->evlist); i++)
		named[i] = user_named;
	return 0;
}

/*
 * Whether a default event belongs in the default set: not when the backend counts no event
 * of its kind (software events under vpmu, -PMC_E_UNSUPPORTED); one this machine cannot
 * count (no PMU, a privilege) stays, shown <not supported> with its reason, as in perf.
 */
static bool default_counts(const struct pmc_evlist_opts *eo, const char *name)
{
	struct pmc_evlist *scratch;
	bool ok = true;

	if (pmc_evlist__new(eo, &scratch))
		return true;
	if (!pmc_evlist__parse(scratch, name, NULL) && pmc_evlist__nr(scratch) == 1)
		ok = pmc_evsel__check(pmc_evlist__at(scratch, 0), NULL, 0) != -PMC_E_UNSUPPORTED;
	pmc_evlist__delete(scratch);
	return ok;
}

/* --filter after the -e of str: the last event str made is its tracepoint (perf's rule). */
static int set_filter(struct stat_run *run, const char *str, const char *filter)
{
	size_t nr = pmc_evlist__nr(run->evlist);
	char why[768];
	int err;

	if (!nr)
		return 2;
	err = pmc_evsel__set_filter(pmc_evlist__at(run->evlist, nr - 1), filter, why, sizeof(why));
	if (!err)
		return 0;
	fprintf(stderr, "pmc stat: --filter '%s' after -e '%s': %s\n", cli_show(filter),
		cli_show(str), why[0] ? why : pmc_strerror(err));
	return 2;
}

static int parse_all(struct stat_run *run, const struct pmc_evlist_opts *eo)
{
	const struct stat_opts *o = run->opts;
	size_t n = sizeof(default_events) / sizeof(default_events[0]);
	int rc = 0;

	if (o->null_run)
		return 0;
	for (size_t i = 0; i < o->nr_events && !rc; i++) {
		rc = parse_one(run, o->events[i], true);
		if (!rc && i < o->nr_filters && o->filters[i])
			rc = set_filter(run, o->events[i], o->filters[i]);
	}
	for (size_t i = 0; o->default_events && i < n && !rc; i++)
		if (default_counts(eo, default_events[i]))
			rc = parse_one(run, default_events[i], false);
	for (int d = 0; d < o->detailed && !rc; d++)
		for (size_t i = 0; i < 6 && detailed_events[d][i] && !rc; i++)
			if (default_counts(eo, detailed_events[d][i]))
				rc = parse_one(run, detailed_events[d][i], false);
	return rc;
}

/*
 * An event that cannot be counted here shows <not supported> with its reason and the rest
 * are counted, as in perf; with --strict, one named with -e stops pmc stat.
 */
static int check_all(const struct stat_run *run)
{
	for (size_t i = 0; i < run->res->nr_events && run->opts->strict; i++) {
		const struct pmc_run_event *e = &run->res->events[i];

		if (!e->supported && run->user_named[i]) {
			fprintf(stderr, "pmc stat: cannot count '%s': %s (--strict)\n",
				pmc_evsel__name(e->evsel), e->why);
			return 1;
		}
	}
	return 0;
}

/*
 * An event the kernel refused when its pass opened (it had passed the check): --strict makes
 * one named with -e an error there, before the command runs; otherwise the run goes on.
 */
static int on_refusal(const struct pmc_run_event *e, void *arg)
{
	struct stat_run *run = arg;

	if (!run->opts->strict || !run->user_named[pmc_evsel__idx(e->evsel)])
		return 0;
	fprintf(stderr, "pmc stat: cannot count '%s': %s (--strict)\n", pmc_evsel__name(e->evsel),
		e->why);
	run->strict_stop = true;
	return 1;
}

/* --dry-run: the library's descriptions are the command's output. */
static void print_dry_run(const char *text, void *arg)
{
	fputs(text, arg);
}

static void on_progress(const struct pmc_run_progress *p, void *arg)
{
	bool tty = isatty(STDERR_FILENO);

	(void)arg;
	if (p->rep < 0)
		fprintf(stderr, "pmc stat: pass %d/%d, warm-up run, %.2f s%s", p->pass + 1,
			p->nr_passes, p->elapsed_s, tty ? "\033[K\r" : "\n");
	else
		fprintf(stderr, "pmc stat: pass %d/%d, repetition %d/%d, %.2f s%s", p->pass + 1,
			p->nr_passes, p->rep + 1, p->repeat, p->elapsed_s, tty ? "\033[K\r" : "\n");
}

/*
 * What the runner cannot do here, said before anything runs: counting live on a backend
 * whose counts come at the end (vpmu), a command per thread over several passes.
 */
static int check_modes(const struct stat_run *run)
{
	const struct stat_opts *o = run->opts;
	const char *what = o->interval_ms ? "-I" : o->delay_ms ? "-D" : "--control";

	if ((o->interval_ms || o->delay_ms || o->control) &&
	    !pmc_evlist__counts_live(run->evlist)) {
		fprintf(stderr,
			"pmc stat: %s: backend %s gives the counts when the command ends, not "
			"while it runs; intervals, -D and --control need --backend=perf\n",
			what, pmc_evlist__backend(run->evlist));
		return 2;
	}
	if (run->target.kind == PMC_TARGET_COMMAND && o->per_thread && run->res->nr_passes > 1) {
		fprintf(stderr,
			"pmc stat: --per-thread: the events take %d passes, and each run of the "
			"command has threads of its own; count fewer events, or --multiplex\n",
			run->res->nr_passes);
		return 2;
	}
	return 0;
}

static int new_runner(struct stat_run *run)
{
	const struct stat_opts *o = run->opts;
	struct pmc_run_opts ro = {.sz = sizeof(ro),
				  .repeat = o->repeat,
				  .no_warmup = o->no_warmup,
				  .multiplex = o->multiplex,
				  .level = o->level,
				  .priv = o->priv,
				  .backend = o->backend,
				  .per_thread = o->region_per_thread,
				  .subtract_overhead = o->subtract_overhead,
				  .calibration = o->calibration,
				  .trust = !o->trust		      ? ""
					   : strcmp(o->trust, "none") ? o->trust
								      : NULL,
				  .who = "pmc stat",
				  .progress = o->verbose ? on_progress : NULL,
				  .arg = run,
				  .on_refusal = on_refusal,
				  .interval_ms = o->interval_ms,
				  .on_interval = o->interval_ms ? stat_print_interval : NULL,
				  .delay_ms = o->delay_ms,
				  .ctl_fd = run->ctl_fd,
				  .ack_fd = run->ack_fd,
				  .aggr = o->aggr,
				  .metrics = run->metrics};
	int err;

	stat_fill_target(o, &run->target);
	stat_live_hooks(run, &ro);
	err = stat_mpi_per_host(o, run->evlist);
	if (err)
		return err;
	if ((o->interval_ms || o->delay_ms || o->control) && !pmc_evlist__counts_live(run->evlist))
		ro.interval_ms = ro.delay_ms = ro.ctl_fd = 0; /* said by check_modes() */
	err = pmc_run__new(run->evlist, &run->target, &ro, &run->runner);
	if (err) {
		fprintf(stderr, "pmc stat: cannot plan the passes: %s\n", pmc_strerror(err));
		return 1;
	}
	run->res = pmc_run__results(run->runner);
	err = check_modes(run);
	if (!err)
		err = stat_mpi_check_passes(o, run->res->nr_passes);
	if (err)
		return err;
	if (o->multiplex && !pmc_evlist__can_multiplex(run->evlist))
		fprintf(stderr,
			"pmc stat: backend %s cannot time-share counters: --multiplex is ignored, "
			"events run in passes\n",
			pmc_evlist__backend(run->evlist));
	return check_all(run);
}

static int build(struct stat_run *run)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo),
				     .backend = run->opts->backend,
				     .priv = run->opts->priv,
				     .dry_run = run->opts->dry_run ? print_dry_run : NULL,
				     .dry_run_arg = stdout,
				     .dry_run_attrs = run->opts->verbose >= 2,
				     .use = PMC_USE_COUNT,
				     .cputype = run->opts->cputype};
	int err = pmc_evlist__new(&eo, &run->evlist);

	if (err) {
		fprintf(stderr, "pmc stat: backend '%s': %s\n",
			run->opts->backend ? run->opts->backend : "perf", pmc_strerror(err));
		return err == -PMC_E_NOBACKEND ? 2 : 1;
	}
	err = parse_all(run, &eo);
	if (!err)
		err = stat_metrics__build(run, &eo);
	return err ? err : new_runner(run);
}

/*
 * Runs under pmc stat's signal handlers: SIGINT, SIGTERM and SIGHUP stop the run and go to
 * the command; what was counted is kept. Counters that do not fit the limit of open files
 * get it raised once (cli_raise_nofile()) and the run is made again.
 */
static int execute(struct stat_run *run)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa = {.sa_handler = on_signal}, old[3];
	int err;

	running = run->runner;
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	err = pmc_run__execute(run->runner);
	if (err == -EMFILE && !run->res->stop_signal && cli_raise_nofile())
		err = pmc_run__execute(run->runner);
	if (run->opts->verbose && isatty(STDERR_FILENO))
		fprintf(stderr, "\033[K");
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	running = NULL;
	if (err == -EMFILE)
		cli_say_nofile("pmc stat", run->res->nr_events);
	if (run->res->trust_note)
		fprintf(stderr, "pmc stat: %s\n", run->res->trust_note);
	if (run->strict_stop || run->hook_failed) /* said by on_refusal() or the hook */
		return err;
	if (err && err != -PMC_E_EXEC)
		fprintf(stderr, "pmc stat: counting failed: %s\n", pmc_strerror(err));
	if (err && run->res->why_failed[0])
		fprintf(stderr, "pmc stat: %s\n", run->res->why_failed);
	return err;
}

/*
 * The exit status of pmc stat: the command's own when it exited; 128+signal when it was
 * killed, or when pmc stat was stopped by a signal and no command ended.
 */
static int exit_status(const struct stat_run *run)
{
	const struct pmc_run_results *res = run->res;

	if (res->exec_failed)
		return 127;
	if (!res->have_status)
		return res->stop_signal ? 128 + res->stop_signal : 0;
	if (WIFSIGNALED(res->status)) {
		int sig = WTERMSIG(res->status);

		fprintf(stderr, "pmc stat: '%s' was killed by %s%s\n", cli_show(run->opts->argv[0]),
			cli_signame(sig), WCOREDUMP(res->status) ? " (core dumped)" : "");
		return 128 + sig;
	}
	return WEXITSTATUS(res->status);
}

/*
 * --dry-run: each pass opened as a dry run, which describes its perf_event_open calls on
 * stdout and leaves the list closed; no command runs, no region descriptor is made.
 */
static int dry_run(const struct stat_run *run)
{
	int err = 0;

	for (size_t i = 0; i < run->res->nr_events; i++)
		if (!run->res->events[i].supported)
			fprintf(stderr, "pmc stat: --dry-run: '%s' is not opened: %s\n",
				pmc_evsel__name(run->res->events[i].evsel),
				run->res->events[i].why);
	for (int pass = 0; pass < run->res->nr_passes && !err; pass++) {
		if (run->res->nr_passes > 1)
			printf("# pass %d/%d\n", pass + 1, run->res->nr_passes);
		err = pmc_evlist__open(run->evlist, &run->target, pass);
	}
	if (err == -EOPNOTSUPP)
		fprintf(stderr,
			"pmc stat: --dry-run: backend %s cannot describe its calls; only perf "
			"can\n",
			pmc_evlist__backend(run->evlist));
	else if (err)
		fprintf(stderr, "pmc stat: --dry-run: %s\n", pmc_strerror(err));
	return err || fflush(stdout) || ferror(stdout) ? 1 : 0;
}

int cmd_stat_run(const struct stat_opts *opts)
{
	struct stat_run run = {.opts = opts, .ctl_fd = -1, .ack_fd = -1, .iv_pass = -1};
	int rc, err;

	if (opts->interval_ms) /* the summary's numbers are set up when it is printed */
		stat_numfmt__init(&run.nf, opts->big_num != 0);
	rc = opts->dry_run || opts->plan_only ? 0 : stat_live_open(&run);
	/* -I's lines go to --log-fd as they come, as the summary does at the end */
	if (!rc && opts->interval_ms && opts->log_fd >= 0 && !opts->dry_run && !opts->plan_only)
		rc = !(run.log = stat_log_open(opts));
	if (!rc)
		rc = build(&run);

	if (!rc && opts->dry_run) {
		rc = dry_run(&run);
	} else if (!rc && opts->plan_only) {
		stat_print_plan(stdout, &run);
		rc = fflush(stdout) || ferror(stdout) ? 1 : 0;
	} else if (!rc) {
		err = execute(&run);
		if (run.strict_stop || run.hook_failed) {
			rc = 1;
		} else if (run.res->exec_failed) {
			rc = 127;
		} else {
			stat_metrics__compute(&run);
			if (opts->hybrid_merge && run.res->nr_regions)
				fprintf(stderr, "pmc stat: --hybrid-merge: regions are printed per "
						"core type\n");
			rc = stat_write(&run) ? 1 : exit_status(&run);
			if (err && !rc)
				rc = 1;
		}
	}
	pmc_run__delete(run.runner);
	stat_metrics__delete(&run);
	pmc_evlist__delete(run.evlist);
	free(run.user_named);
	stat_live_close(&run);
	if (run.log && stat_log_close(run.log, opts) && !rc)
		rc = 1;
	return rc;
}
